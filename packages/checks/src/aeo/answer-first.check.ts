import { defineCheck } from "../check";
import { judgesContent } from "../lib/placeholder";
import { clip, quoted } from "../lib/text";
import { countWords } from "../page";
import { answerAfter, contentHeadings, type Heading, headingList, passedOverNote, questionHeadings } from "./headings";

const MIN_WORDS = 20;
const MAX_WORDS = 80;

/** How a question's answer reads as evidence: `h2 "Why?" (12 words)`, `h1 "How to…" (no paragraph)`. */
const measured = ({ heading, words }: { heading: Heading; words: number }): string =>
  `h${heading.level} "${clip(heading.text, 50)}" (${words === 0 ? "no paragraph" : `${words} words`})`;

const listed = (items: ReadonlyArray<{ heading: Heading; words: number }>, max = 3): string => {
  const more = items.length - Math.min(items.length, max);
  return `${items.slice(0, max).map(measured).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
};

/**
 * Reads the question headings of the main content (h1-h3, headings.ts `contentHeadings`, the
 * page's h1 included) and the first block of text after each inside the main content, before
 * the next heading: a `<p>`, or text set in a `<div>` or between `<br>`s (headings.ts
 * `answerAfter`). Each should be answered at once by 20 to 80 words, a self-contained answer an
 * engine can quote whole. "Most" is more than half of the question headings; "some" is at least
 * one. Skipped without question headings.
 */
export const answerFirst = judgesContent(
  defineCheck({
    id: "answer-first",
    category: "aeo",
    severity: "info",
    maxScore: 3,
    quick: false,
    title: "Questions are answered at once",
    run: (page) => {
      const questions = questionHeadings(page);
      if (questions.length === 0) {
        const { headings } = contentHeadings(page);
        return {
          status: "skip",
          description:
            headings.length === 0
              ? "The main content has no heading, so no question to answer."
              : `No heading of the main content is a question (${headingList(headings)}), so there is no answer to judge.${passedOverNote(page)}`,
          evidence: headings.map((heading) => heading.text),
        };
      }
      const measuredAll = questions.map((heading) => {
        const answer = answerAfter(heading.element);
        return { heading, words: answer === null ? 0 : countWords(answer), answer: answer ?? "" };
      });
      const answered = measuredAll.filter(({ words }) => words >= MIN_WORDS && words <= MAX_WORDS);
      const unanswered = measuredAll.filter(({ words }) => words < MIN_WORDS || words > MAX_WORDS);
      const evidence = measuredAll.map(measured);
      const description = `${answered.length} of ${questions.length} question heading${questions.length === 1 ? " of the main content is" : "s of the main content are"} followed by a ${MIN_WORDS} to ${MAX_WORDS} word answer: ${listed(measuredAll)}.`;
      if (answered.length * 2 > questions.length) return { status: "pass", description, evidence };
      return {
        status: answered.length > 0 ? "warn" : "fail",
        description,
        fix: answerFix(unanswered),
        evidence,
      };
    },
  }),
);

/**
 * The fix names what follows each unanswered question now: nothing (an answer to write), a
 * block too short (to complete, quoted) or too long (to open with its answer, quoted).
 */
const answerFix = (unanswered: ReadonlyArray<{ heading: Heading; words: number; answer: string }>): string => {
  const [first, second] = unanswered;
  if (!first) return "";
  const under = `h${first.heading.level} "${clip(first.heading.text, 50)}"`;
  const more = second ? ` Do the same under ${listed(unanswered.slice(1), 2)}.` : "";
  if (first.words === 0)
    return `Open the section under ${under}, which has no paragraph before the next heading, with a direct answer of ${MIN_WORDS} to ${MAX_WORDS} words in a <p>, then go into detail.${more}`;
  const answer = quoted(first.answer, 90);
  if (first.words < MIN_WORDS)
    return `The answer under ${under}, ${answer}, has ${first.words} word${first.words === 1 ? "" : "s"}: complete it to ${MIN_WORDS} to ${MAX_WORDS} words that answer the question whole, then go into detail.${more}`;
  return `The first block under ${under}, ${answer}, runs ${first.words} words: open the section with a direct answer of ${MIN_WORDS} to ${MAX_WORDS} words in a <p> of its own, then go into detail.${more}`;
};
