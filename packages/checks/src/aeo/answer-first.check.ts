import { defineCheck } from "../check";
import { countWords } from "../page";
import { answerAfter, questionHeadings } from "./headings";

const MIN_WORDS = 20;
const MAX_WORDS = 80;

/**
 * Each question heading followed at once by a 20 to 80 word paragraph: a self-contained answer
 * an engine can quote whole. The paragraph is the first block of text after the heading and
 * before the next heading: a `<p>`, or text set in a `<div>` or between `<br>`s (headings.ts
 * `answerAfter`). "Most" is more than half of the
 * question headings; "some" is at least one. Skipped without question headings.
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
    if (questions.length === 0) return { status: "skip", description: "The page has no question headings to answer." };
    let answered = 0;
    let tooLong = 0;
    for (const heading of questions) {
      const answer = answerAfter(heading.element);
      const words = answer === null ? 0 : countWords(answer);
      if (words >= MIN_WORDS && words <= MAX_WORDS) answered++;
      else if (words > MAX_WORDS) tooLong++;
    }
    const description = `${answered} of ${questions.length} question heading${questions.length === 1 ? " is" : "s are"} followed by a ${MIN_WORDS} to ${MAX_WORDS} word answer paragraph${tooLong > 0 ? ` (${tooLong} by a longer one)` : ""}.`;
    if (answered * 2 > questions.length) return { status: "pass", description };
    return {
      status: answered > 0 ? "warn" : "fail",
      description,
      fix: `Open each question's section with a direct answer of ${MIN_WORDS} to ${MAX_WORDS} words in a <p>, then go into detail.`,
    };
  },
});
