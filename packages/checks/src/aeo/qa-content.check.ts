import { defineCheck } from "../check";
import { isHiddenByMarkup, isInert, readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { judgesContent } from "../lib/placeholder";
import type { Page } from "../page";
import { contentHeadings, headingList, passedOverNote, questionHeadings } from "./headings";

/** The page's visible h2s that are not headings of its main content ('h2s "A", "B" lie'), or null when it has none. */
const outsideNote = perPage((page: Page): string | null => {
  const own = new Set(contentHeadings(page).headings.map((heading) => heading.element));
  const texts = [...page.doc.querySelectorAll("h2")]
    .filter((element) => !own.has(element) && !isInert(element) && !isHiddenByMarkup(element))
    .map((element) => readableText(element))
    .filter((text) => text !== "");
  if (texts.length === 0) return null;
  const named = texts.slice(0, 2).map((text) => `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`);
  return `${texts.length === 1 ? "h2" : "h2s"} ${named.join(", ")}${texts.length > 2 ? ` and ${texts.length - 2} more` : ""} ${texts.length === 1 ? "lies" : "lie"}`;
});

/**
 * Reads the h1-h3 headings of the main content (headings.ts `contentHeadings`: Readability's
 * extraction with the page's h1, never navigation, sidebars, teasers or widgets), phrased as
 * questions in the page's language (headings.ts `isQuestion`): the queries an answer engine
 * matches a passage to. Two or more pass, one warns, none fails. A title in which the writers
 * tell what they did ("How we designed…", "What we do") opens with an interrogative but asks
 * nothing a reader asks, and does not count (docs/spec/checks.md refines the row so).
 */
export const qaContent = judgesContent(
  defineCheck({
    id: "qa-content",
    category: "aeo",
    severity: "warning",
    maxScore: 4,
    quick: true,
    title: "Headings ask the reader's questions",
    run: (page) => {
      const { headings } = contentHeadings(page);
      const questions = questionHeadings(page);
      const others = headings.filter((heading) => !heading.question);
      // a headline is not rephrased as a question: the advice is about the sections under it
      const sections = others.filter((heading) => heading.level > 1);
      const note = passedOverNote(page);
      const evidence = headings.map((heading) => `h${heading.level} ${heading.text}`);
      if (questions.length >= 2) {
        return {
          status: "pass",
          description: `${questions.length} headings of the main content are questions: ${headingList(questions)}.${note}`,
          evidence,
        };
      }
      const rephrase =
        sections.length > 0
          ? `Phrase section headings such as ${headingList(sections, 2)} as the questions their sections answer, in the readers' words, and answer each right below it.`
          : questions.some((heading) => heading.level > 1)
            ? `Beside ${headingList(questions)}, head another part of the main content's ${page.main.words} words with a further question readers ask, and answer it right below it.`
            : outsideNote(page) !== null
              ? `The page's ${outsideNote(page)} outside its main content, whose ${page.main.words} words have no section heading of their own: head the main content's parts with the questions readers ask, and answer each right below it.`
              : `Divide the main content's ${page.main.words} words under h2 headings phrased as the questions readers ask, and answer each right below it.`;
      if (questions.length === 1) {
        return {
          status: "warn",
          description: `One heading of the main content is a question, ${headingList(questions)}${others.length > 0 ? `; its other ${others.length === 1 ? "heading is" : `${others.length} headings are`} not: ${headingList(others)}` : ", and it is the only one"}.${note}`,
          fix: rephrase,
          evidence,
        };
      }
      return {
        status: "fail",
        description:
          headings.length === 0
            ? `The main content has no h1-h3 heading, so none asks a question.${note}`
            : headings.length === 1
              ? `The main content's only heading, ${headingList(headings)}, is not phrased as a question.${note}`
              : `None of the main content's ${headings.length} headings is phrased as a question: ${headingList(headings)}.${note}`,
        fix: rephrase,
        evidence,
      };
    },
  }),
);
