import { defineCheck } from "../check";
import { foldWhitespace } from "../page";

/**
 * Lighthouse `document-title`: the document has a `<title>` whose text is not blank.
 * Only the first `<title>` counts, as in browsers (document.title).
 */
export const title = defineCheck({
  id: "title",
  category: "seo",
  severity: "critical",
  maxScore: 8,
  quick: true,
  title: "Page has a title",
  run: ({ doc }) => {
    const text = foldWhitespace(doc.querySelector("title")?.textContent ?? "");
    if (text === "") {
      return {
        status: "fail",
        description: doc.querySelector("title") ? "The <title> element is blank." : "The page has no <title> element.",
        fix: "Add a <title> in the <head> that names this page's topic in 30 to 60 characters.",
      };
    }
    return { status: "pass", description: `Title: "${text}".` };
  },
});
