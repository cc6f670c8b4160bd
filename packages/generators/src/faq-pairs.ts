import {
  answerAfter,
  countWords,
  elementsNamed,
  foldWhitespace,
  isInert,
  type JsonLdNode,
  nodesOfType,
  type Page,
  parseDocument,
  perPage,
  subHeadings,
  textOf,
  typesOf,
} from "@scan/checks";

/** A question the page answers and its answer, with where they were found. */
export type FaqPair = { question: string; answer: string; source: "heading" | "details" | "json-ld" };

/** An answer shorter than this is a label or a link ("View more stories »"), not an answer. */
const MIN_ANSWER_WORDS = 8;

// English wh-questions set without a question mark need an auxiliary after the wh-word: "What is
// X", "How do I"; "How to X", "What we learned" and "How a dossier became a crisis" are titles
const WH_AUX =
  /^(?:what|why|how|when|where|who|which)\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|may|must)\b/i;

/**
 * A question fit for FAQ markup, stricter than the qa-content check's reading (which counts any
 * heading opening with an interrogative): it ends with a question mark (or opens with "¿"), or
 * is an English wh-question with its auxiliary.
 */
export const isFaqQuestion = (text: string): boolean =>
  /[?？؟]\s*$/.test(text) || text.startsWith("¿") || WH_AUX.test(text.replace(/^[\s"'“‘«]+/, ""));

/** Text of HTML held in a JSON-LD string (answers may carry markup), whitespace folded. */
const plainText = (html: string): string =>
  /[<&]/.test(html)
    ? foldWhitespace(parseDocument(`<body>${html}</body>`).body?.textContent ?? "")
    : foldWhitespace(html);

const targetsOf = (value: unknown): JsonLdNode[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is JsonLdNode => typeof item === "object" && item !== null && !Array.isArray(item),
  );

/** The text after a `<summary>` inside its `<details>`, block by block. */
const detailsAnswer = (details: Element, summary: Element): string =>
  foldWhitespace(
    [...details.childNodes]
      .filter((node) => node !== summary)
      .map((node) => node.textContent ?? "")
      .join(" "),
  );

/**
 * The page's question-and-answer pairs, in document order: h2/h3 headings that are questions
 * (`isFaqQuestion`) with the first block of text after them (answer-first's reading),
 * `<details>` whose `<summary>` is a question, then the Questions of the page's own FAQPage
 * JSON-LD that the visible text did not already give. Answers of fewer than eight words are
 * left out; a question is kept once.
 */
export const faqPairs = perPage((page: Page): FaqPair[] => {
  const pairs: FaqPair[] = [];
  const seen = new Set<string>();
  const add = (question: string, answer: string | null, source: FaqPair["source"]) => {
    const key = question.toLowerCase();
    if (!answer || countWords(answer) < MIN_ANSWER_WORDS || seen.has(key)) return;
    seen.add(key);
    pairs.push({ question, answer, source });
  };
  for (const heading of subHeadings(page)) {
    if (isFaqQuestion(heading.text)) add(heading.text, answerAfter(heading.element), "heading");
  }
  for (const details of elementsNamed(page, "details")) {
    if (isInert(details)) continue;
    const summary = [...details.children].find((child) => child.localName === "summary");
    const question = foldWhitespace(summary?.textContent ?? "");
    if (summary && isFaqQuestion(question)) add(question, detailsAnswer(details, summary), "details");
  }
  for (const faq of nodesOfType(page, ["FAQPage"])) {
    for (const question of targetsOf(faq.mainEntity)) {
      if (!typesOf(question).includes("Question")) continue;
      const name = textOf(question.name);
      const answer = targetsOf(question.acceptedAnswer)
        .map((node) => textOf(node.text))
        .find((text): text is string => text !== null);
      if (name && answer) add(plainText(name), plainText(answer), "json-ld");
    }
  }
  return pairs;
});
