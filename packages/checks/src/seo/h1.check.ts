import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { elementsNamed, isInert } from "./dom";
import { documentTitle } from "./title.check";

/** The text an h1 gives readers and crawlers: its text, or the alt of an image inside it (a logo heading). */
export const headingText = (heading: Element): string => {
  const text = readableText(heading);
  if (text !== "") return text;
  const alts = [...heading.querySelectorAll("img[alt]")].map((img) => img.getAttribute("alt") ?? "");
  return foldWhitespace(alts.join(" "));
};

/**
 * Exactly one non-empty `<h1>` in the rendered DOM. Empty h1 elements (icon wrappers,
 * placeholders) are not counted as headings; an h1 holding only an image with alt text counts.
 */
export const h1 = defineCheck({
  id: "h1",
  category: "seo",
  severity: "warning",
  maxScore: 5,
  quick: true,
  title: "Page has one h1 heading",
  run: (page) => {
    const all = elementsNamed(page, "h1").filter((heading) => !isInert(heading));
    const texts = all.map(headingText).filter((text) => text !== "");
    const empty = all.length - texts.length;
    const emptyNote = empty > 0 ? ` (${empty} more h1 ${empty === 1 ? "is" : "are"} empty)` : "";
    const [first] = texts;
    const titleText = foldWhitespace(documentTitle(page)?.textContent ?? "");
    if (first === undefined) {
      return {
        status: "fail",
        description:
          all.length === 0 ? "The page has no <h1> heading." : `The page's ${all.length} <h1> headings are all empty.`,
        fix: `Give the page one <h1> that names its main topic${titleText ? `, such as its title "${clip(titleText, 60)}"` : ""}.`,
        evidence: [String(all.length)],
      };
    }
    if (texts.length > 1) {
      const listed = texts.slice(0, 3).map((text) => `"${clip(text, 50)}"`);
      return {
        status: "warn",
        description: `The page has ${texts.length} <h1> headings: ${listed.join(", ")}${texts.length > 3 ? ", ..." : ""}${emptyNote}.`,
        fix: `Keep one <h1> for the page's main topic and make the others <h2> or lower: of ${listed.join(", ")}${texts.length > 3 ? ", ..." : ""}, keep the one that titles the page.`,
        evidence: [String(texts.length), ...texts.slice(0, 3)],
      };
    }
    return { status: "pass", description: `One <h1>: "${clip(first)}"${emptyNote}.`, evidence: [first] };
  },
});
