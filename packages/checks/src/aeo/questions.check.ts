import { defineCheck } from "../check";
import { countWords, foldWhitespace } from "../page";
import { quote } from "../seo/head";
import { type Heading, questionHeadings, subHeadings } from "./headings";

/** Headings phrased as questions (h2/h3): the queries answer engines match a passage to. */
export const qaContent = defineCheck({
  id: "qa-content",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Headings ask the reader's questions",
  run: (page) => {
    const questions = questionHeadings(page);
    const sample = questions
      .slice(0, 3)
      .map((h) => `"${quote(h.text, 60)}"`)
      .join(", ");
    if (questions.length >= 2) {
      return { status: "pass", description: `${questions.length} h2/h3 headings are questions (${sample}).` };
    }
    return {
      status: questions.length === 1 ? "warn" : "fail",
      description:
        questions.length === 1
          ? `One h2/h3 heading is a question (${sample}).`
          : `None of the page's ${subHeadings(page).length} h2/h3 headings is phrased as a question.`,
      fix: 'Phrase section headings as the questions readers ask ("How long does shipping take?") and answer each right below.',
    };
  },
});

const HEADING = /^h[1-6]$/;

/** The first paragraph after a heading, before the next heading: the answer an engine would lift. */
const answerAfter = (heading: Heading): string | null => {
  for (let node = heading.element.nextElementSibling; node; node = node.nextElementSibling) {
    if (HEADING.test(node.localName)) return null;
    if (node.localName === "p") return foldWhitespace(node.textContent ?? "");
    const paragraph = node.querySelector("p");
    if (paragraph) return foldWhitespace(paragraph.textContent ?? "");
    if (node.querySelector("h1, h2, h3, h4, h5, h6")) return null;
  }
  return null;
};

/**
 * Each question heading followed directly by a 20 to 80 word paragraph: a self-contained answer
 * that can be quoted whole. "Most" means more than half of the question headings.
 */
export const answerFirst = defineCheck({
  id: "answer-first",
  category: "aeo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Questions are answered at once",
  run: (page) => {
    const questions = questionHeadings(page);
    if (questions.length === 0) return { status: "skip", description: "The page has no question headings." };
    const answered = questions.filter((heading) => {
      const answer = answerAfter(heading);
      const words = answer === null ? 0 : countWords(answer);
      return words >= 20 && words <= 80;
    });
    const description = `${answered.length} of ${questions.length} question headings are followed by a 20 to 80 word answer paragraph.`;
    if (answered.length * 2 > questions.length) return { status: "pass", description };
    return {
      status: answered.length > 0 ? "warn" : "fail",
      description,
      fix: "Open each question's section with a direct 20 to 80 word answer in a <p>, then go into detail.",
    };
  },
});

/** Deep-link targets for sections: an id on the h2/h3, on an anchor inside it, or on the section it opens. */
const hasAnchor = (heading: Heading): boolean => {
  const { element } = heading;
  if (element.getAttribute("id")) return true;
  if (element.querySelector("[id], a[name]")) return true;
  const parent = element.parentElement;
  return Boolean(parent?.getAttribute("id") && parent.firstElementChild === element);
};

/**
 * Most h2/h3 headings addressable by a fragment (`#section`), so an answer can link to the
 * exact passage. Skipped without h2/h3 headings: there is nothing to link to.
 */
export const anchorIds = defineCheck({
  id: "anchor-ids",
  category: "aeo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Sections can be linked to",
  run: (page) => {
    const headings = subHeadings(page);
    if (headings.length === 0) return { status: "skip", description: "The page has no h2/h3 headings." };
    const linked = headings.filter(hasAnchor).length;
    const description = `${linked} of ${headings.length} h2/h3 headings have an id to link to.`;
    if (linked * 2 > headings.length) return { status: "pass", description };
    return {
      status: linked > 0 ? "warn" : "fail",
      description,
      fix: 'Give each h2/h3 an id (<h2 id="pricing">) so answers and readers can link straight to the section.',
    };
  },
});
