import {
  countWords,
  foldWhitespace,
  type JsonLdNode,
  MIN_ANSWER_WORDS,
  nodesOfType,
  type Page,
  parseDocument,
  perPage,
  qaPairs,
  textOf,
  typesOf,
} from "@scan/checks";

/** A question the page answers and its answer, with where they were found. */
export type FaqPair = { question: string; answer: string; source: "heading" | "details" | "json-ld" };

/** Text of HTML held in a JSON-LD string (answers may carry markup), whitespace folded. */
const plainText = (html: string): string =>
  /[<&]/.test(html)
    ? foldWhitespace(parseDocument(`<body>${html}</body>`).body?.textContent ?? "")
    : foldWhitespace(html);

const targetsOf = (value: unknown): JsonLdNode[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is JsonLdNode => typeof item === "object" && item !== null && !Array.isArray(item),
  );

/**
 * The page's question-and-answer pairs, in document order: those of its main content (the
 * checks' `qaPairs`: question headings and `<details>` with their answers), then the Questions
 * of the page's own FAQPage JSON-LD that the visible text did not already give. Answers of
 * fewer than eight words are left out; a question is kept once.
 */
export const faqPairs = perPage((page: Page): FaqPair[] => {
  const pairs: FaqPair[] = qaPairs(page).map(({ question, answer, source }) => ({ question, answer, source }));
  const seen = new Set(pairs.map((pair) => pair.question.toLowerCase()));
  for (const faq of nodesOfType(page, ["FAQPage"])) {
    for (const question of targetsOf(faq.mainEntity)) {
      if (!typesOf(question).includes("Question")) continue;
      const name = textOf(question.name);
      const answer = targetsOf(question.acceptedAnswer)
        .map((node) => textOf(node.text))
        .find((text): text is string => text !== null);
      if (!name || !answer) continue;
      const text = plainText(answer);
      const key = plainText(name).toLowerCase();
      if (countWords(text) < MIN_ANSWER_WORDS || seen.has(key)) continue;
      seen.add(key);
      pairs.push({ question: plainText(name), answer: text, source: "json-ld" });
    }
  }
  return pairs;
});
