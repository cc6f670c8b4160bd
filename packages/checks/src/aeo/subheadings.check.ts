import { defineCheck } from "../check";
import { contentPassages } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { clip, quoted } from "../lib/text";
import { countWords, type Page } from "../page";
import { headingList, passedOverNote, type Section, sectionsAt, subHeadings } from "./headings";

// from this length a text is asked for sections; content-depth draws its line at the same count
const SECTIONED_WORDS = 300;

/**
 * Reads the h2/h3 headings of the main content (headings.ts `contentHeadings`: Readability's
 * extraction, never navigation, sidebars, teasers or widgets such as a subscription box's
 * "Monthly / Annual" or a "Featured" module): 3 or more pass, 1 or 2 warn, none fails. Sections
 * under headings are the passages engines retrieve and cite one by one. (Readability turns an
 * `<h1>` inside the content into an `<h2>`; such a heading counts.) A text under 300 words is
 * not asked for sections (a refinement of the catalogue's row, as editors and readability
 * guides ask for a subheading every 300 words or so): any subheading passes it and none skips
 * it, and content-depth judges its length. 100 words under two headings are not under-structured.
 */
export const subheadings = judgesContent(
  defineCheck({
    id: "subheadings",
    category: "aeo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content is divided by subheadings",
    run: (page) => {
      const headings = subHeadings(page);
      const count = headings.length;
      const note = passedOverNote(page);
      const evidence = headings.map((heading) => heading.text);
      if (count >= 3) {
        return {
          status: "pass",
          description: `The main content has ${count} h2/h3 subheadings: ${headingList(headings)}.${note}`,
          evidence,
        };
      }
      const words = page.main.words;
      if (words < SECTIONED_WORDS) {
        if (count === 0) {
          return {
            status: "skip",
            description: `The main content's ${words} word${words === 1 ? " is" : "s are"} too short to need sections (${SECTIONED_WORDS} or more do).${note}`,
            evidence,
          };
        }
        return {
          status: "pass",
          description: `The main content's ${words} words have ${count} h2/h3 subheading${count === 1 ? "" : "s"}, enough for a short text: ${headingList(headings)}.${note}`,
          evidence,
        };
      }
      if (count === 0) {
        return {
          status: "fail",
          description: `The main content's ${words} words run under no h2/h3 subheading.${note}`,
          fix: sectionsFix(page, words),
          evidence,
        };
      }
      // the page has subheadings: what is wrong is a section too long, and the fix names it
      const longest = sectionsAt(page, headings).reduce((a: Section, b: Section) => (b.words > a.words ? b : a));
      const where = longest.heading
        ? `under h${longest.heading.level} "${clip(longest.heading.text, 60)}"`
        : `before the first subheading (h${headings[0]?.level} "${clip(headings[0]?.text ?? "", 60)}")`;
      return {
        status: "warn",
        description: `The main content's ${words} words have only ${count === 1 ? "one h2/h3 subheading" : "two h2/h3 subheadings"}: ${headingList(headings)}; the longest section, ${where}, runs ${longest.words} words.${note}`,
        fix: `Split the ${longest.words} words ${where} into sections of their own, each under an h2/h3 heading that names its topic or question (about ${SECTIONED_WORDS} words or fewer each): an engine retrieves and cites a page section by section.`,
        evidence: [...evidence, String(longest.words)],
      };
    },
  }),
);

/**
 * Where sections could begin: the paragraphs at which about every SECTIONED_WORDS words of the
 * content a new one starts (the first paragraph after each stretch), up to four, quoted.
 */
const sectionStarts = (page: Page): string[] => {
  const starts: string[] = [];
  let run = 0;
  for (const { text } of contentPassages(page)) {
    const words = countWords(text);
    if (run >= SECTIONED_WORDS && words >= 5) {
      starts.push(text);
      run = 0;
    }
    run += words;
  }
  return starts.slice(0, 4);
};

/** The fix: the paragraphs to put a heading before, named by their opening words; or, without paragraphs, the count. */
const sectionsFix = (page: Page, words: number): string => {
  const starts = sectionStarts(page);
  if (starts.length === 0)
    return `Divide the ${words} words into sections under descriptive h2/h3 headings, one topic or question each.`;
  const named = starts.map((text) => quoted(text, 50)).join(", ");
  return `Divide the ${words} words into sections of about ${SECTIONED_WORDS} words or fewer, each under an h2/h3 heading that names its topic or question: about every ${SECTIONED_WORDS} words the text reaches the paragraph${starts.length === 1 ? "" : "s"} beginning ${named}; set each heading at the nearest change of topic (an engine retrieves and cites a page section by section).`;
};
