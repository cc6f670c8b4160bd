import { defineCheck } from "../check";
import { quote } from "../seo/head";
import { questionHeadings, subHeadings } from "./headings";

/**
 * h2/h3 headings phrased as questions (headings.ts decides, in the page's language): the
 * queries an answer engine matches a passage to. Two or more pass, one warns. All h2/h3 of the
 * rendered page count, as docs/spec/checks.md says; headings in noscript or template do not. Corporate
 * headings such as "What we do" open with an interrogative and count too, per the rule.
 */
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
      .map((heading) => `"${quote(heading.text, 60)}"`)
      .join(", ");
    if (questions.length >= 2) {
      return { status: "pass", description: `${questions.length} h2/h3 headings are questions: ${sample}.` };
    }
    const fix =
      'Phrase section headings as the questions readers ask ("How long does shipping take?") and answer each right below it.';
    if (questions.length === 1)
      return { status: "warn", description: `One h2/h3 heading is a question: ${sample}.`, fix };
    const total = subHeadings(page).length;
    return {
      status: "fail",
      description:
        total === 0
          ? "The page has no h2/h3 headings, so none asks a question."
          : total === 1
            ? "The page's only h2/h3 heading is not phrased as a question."
            : `None of the page's ${total} h2/h3 headings is phrased as a question.`,
      fix,
    };
  },
});
