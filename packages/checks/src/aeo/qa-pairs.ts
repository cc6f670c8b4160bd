import { enclosingBoilerplate } from "../lib/boilerplate";
import { isHiddenByMarkup, isInert, readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { countWords, foldWhitespace, type Page } from "../page";
import { elementsNamed } from "../seo/dom";
import { answerAfter, subHeadings } from "./headings";

/** A question the main content answers and its answer, with the element that asks it. */
export type QaPair = { question: string; answer: string; source: "heading" | "details"; element: Element };

/** An answer shorter than this is a label or a link ("View more stories »"), not an answer. */
export const MIN_ANSWER_WORDS = 8;

// English wh-questions set without a question mark need an auxiliary after the wh-word: "What is
// X", "How do I"; "How to X", "What we learned" and "How a dossier became a crisis" are titles
const WH_AUX =
  /^(?:what|why|how|when|where|who|which)\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|may|must)\b/i;

/**
 * A question fit for FAQ markup, stricter than qa-content's reading (which counts any heading
 * opening with an interrogative): it ends with a question mark (or opens with "¿"), or is an
 * English wh-question with its auxiliary.
 */
export const isFaqQuestion = (text: string): boolean =>
  /[?？؟]\s*$/.test(text) || text.startsWith("¿") || WH_AUX.test(text.replace(/^[\s"'“‘«]+/, ""));

/** The text after a `<summary>` inside its `<details>`, block by block. */
const detailsAnswer = (details: Element, summary: Element): string =>
  foldWhitespace(
    [...details.childNodes]
      .filter((node) => node !== summary)
      .map((node) => (node.nodeType === 1 ? readableText(node) : (node.textContent ?? "")))
      .join(" "),
  );

/**
 * The question-and-answer pairs of the main content, in order: h2/h3 headings of the main
 * content (headings.ts, never a sidebar's or a widget's) that are questions (`isFaqQuestion`)
 * with the first block of text after them (answer-first's reading), then `<details>` whose
 * `<summary>` is a question, outside navigation, sidebars and widgets. Answers of fewer than eight words are left out; a question is kept
 * once. What faq-schema asks markup for, and what the FAQPage fix marks up.
 */
export const qaPairs = perPage((page: Page): QaPair[] => {
  const pairs: QaPair[] = [];
  const seen = new Set<string>();
  const add = (question: string, answer: string | null, source: QaPair["source"], element: Element) => {
    const key = question.toLowerCase();
    if (!answer || countWords(answer) < MIN_ANSWER_WORDS || seen.has(key)) return;
    seen.add(key);
    pairs.push({ question, answer, source, element });
  };
  for (const heading of subHeadings(page)) {
    if (isFaqQuestion(heading.text)) add(heading.text, answerAfter(heading.element), "heading", heading.element);
  }
  // Readability unwraps <details> and drops some: they are read from the rendered page, outside
  // navigation, sidebars and widgets
  for (const details of elementsNamed(page, "details")) {
    if (isInert(details) || isHiddenByMarkup(details) || enclosingBoilerplate(details) !== null) continue;
    const summary = [...details.children].find((child) => child.localName === "summary");
    const question = summary ? readableText(summary) : "";
    if (summary && isFaqQuestion(question)) add(question, detailsAnswer(details, summary), "details", summary);
  }
  return pairs;
});
