import { defineCheck } from "../check";
import { countWords, foldWhitespace } from "../page";
import { isContent, mainAncestorNamed, mainElementsNamed } from "./main-dom";

const MIN_WORDS = 15;
const MAX_WORDS = 80;
// paragraphs there are captions, quotes or asides, not the page's opening
const NOT_INTRO = ["figure", "figcaption", "blockquote", "aside", "table", "nav", "footer"];

/**
 * Reads the first paragraph of the main content (page.ts: Readability's extraction, never
 * navigation, sidebars or widgets), which should have 15 to 80 words: a summary an engine can quote as
 * the page's answer. "First paragraph" is the first `<p>` of 5 or more words outside figures,
 * quotes, asides and tables: one- to four-word paragraphs are datelines, bylines or "Share".
 */
export const summaryIntro = defineCheck({
  id: "summary-intro",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content opens with a summary",
  run: (page) => {
    let first: string | undefined;
    for (const paragraph of mainElementsNamed(page, "p")) {
      const text = foldWhitespace(paragraph.textContent ?? "");
      if (
        countWords(text) >= 5 &&
        mainAncestorNamed(page, paragraph, NOT_INTRO) === null &&
        isContent(page, paragraph)
      ) {
        first = text;
        break;
      }
    }
    if (first === undefined) {
      return {
        status: "fail",
        description: "The main content has no paragraph of text to open with.",
        fix: `Open the content with a ${MIN_WORDS} to ${MAX_WORDS} word paragraph that sums up the page.`,
      };
    }
    const words = countWords(first);
    if (words >= MIN_WORDS && words <= MAX_WORDS) {
      return { status: "pass", description: `The main content opens with a ${words}-word paragraph.` };
    }
    return {
      status: "fail",
      description: `The main content's first paragraph has ${words} words; ${MIN_WORDS} to ${MAX_WORDS} reads as a summary.`,
      fix:
        words > MAX_WORDS
          ? `Open with a shorter paragraph (${MIN_WORDS} to ${MAX_WORDS} words) that states the page's answer, then expand.`
          : `Open with a paragraph of ${MIN_WORDS} to ${MAX_WORDS} words that sums up the page.`,
    };
  },
});
