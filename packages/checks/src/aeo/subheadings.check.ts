import { defineCheck } from "../check";
import { headingList, passedOverNote, subHeadings } from "./headings";

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
export const subheadings = defineCheck({
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
    return {
      status: count > 0 ? "warn" : "fail",
      description:
        count === 0
          ? `The main content's ${words} words run under no h2/h3 subheading.${note}`
          : `The main content's ${words} words have only ${count === 1 ? "one h2/h3 subheading" : "two h2/h3 subheadings"}: ${headingList(headings)}.${note}`,
      fix:
        count === 0
          ? `Divide the ${words} words into sections under descriptive h2/h3 headings, one topic or question each.`
          : `Divide the ${words} words further: beside ${headingList(headings, 2)}, give each topic or question its own h2/h3 section.`,
      evidence,
    };
  },
});
