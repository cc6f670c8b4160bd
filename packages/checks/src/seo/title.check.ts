import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { clip } from "../lib/text";
import type { Page } from "../page";
import { ancestor, elementsNamed } from "./dom";

/** The element document.title reads: the first `<title>` that is not part of an SVG drawing. */
export const documentTitle = (page: Page): Element | null =>
  elementsNamed(page, "title").find((element) => !ancestor(element, (node) => node.localName === "svg")) ?? null;

/**
 * Lighthouse `document-title`: the document has a `<title>` whose text is not blank.
 * Only the first HTML `<title>` counts, as in browsers (document.title); `<title>` inside
 * inline SVG names the drawing, not the page.
 */
export const title = defineCheck({
  id: "title",
  category: "seo",
  severity: "critical",
  maxScore: 8,
  quick: true,
  title: "Page has a title",
  run: (page) => {
    const element = documentTitle(page);
    const text = element ? readableText(element) : "";
    if (text === "") {
      const h1 = page.main.heading ? readableText(page.main.heading) : "";
      return {
        status: "fail",
        description: element ? "The <title> element is blank." : "The page has no <title> element.",
        fix: `${element ? "Fill the blank <title>" : "Add a <title> in the <head>"} with a name of this page's topic in 30 to 60 characters${h1 ? `, such as its h1 "${clip(h1, 60)}"` : ""}.`,
        evidence: [element ? "blank" : "missing"],
      };
    }
    return { status: "pass", description: `Title: "${text}".`, evidence: [text] };
  },
});
