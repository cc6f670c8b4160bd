import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { elementsNamedAny, isInert } from "./dom";
import { headingText } from "./h1.check";

/**
 * Heading levels never skip going down: after an h2 the next deeper heading is an h3, not an
 * h4 (going back up any number of levels is fine). The first heading may be of any level, as in
 * axe's heading-order. Empty headings are ignored; a page without headings skips.
 */
export const headingOrder = defineCheck({
  id: "heading-order",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Heading levels do not skip",
  run: (page) => {
    const headings = elementsNamedAny(page, ["h1", "h2", "h3", "h4", "h5", "h6"])
      .filter((heading) => !isInert(heading) && headingText(heading) !== "")
      .map((heading) => ({ level: Number(heading.localName.slice(1)), text: foldWhitespace(headingText(heading)) }));
    if (headings.length === 0) return { status: "skip", description: "The page has no headings." };
    const skips: string[] = [];
    headings.forEach((heading, index) => {
      const previous = headings[index - 1];
      if (previous && heading.level > previous.level + 1) {
        skips.push(`h${previous.level} → h${heading.level} ("${clip(heading.text, 40)}")`);
      }
    });
    if (skips.length === 0) {
      return { status: "pass", description: `${headings.length} headings, no level skipped.`, evidence: [] };
    }
    const listed = `${skips.slice(0, 3).join(", ")}${skips.length > 3 ? ", ..." : ""}`;
    return {
      status: "fail",
      description: `${skips.length} heading level skip${skips.length === 1 ? "" : "s"}: ${listed}.`,
      fix: `Nest headings one level at a time (h2, then h3), styling them with CSS rather than picking levels by size: the ${skips.length} skips (${listed}) should each step one level down.`,
      evidence: [String(skips.length), ...skips.slice(0, 3)],
    };
  },
});
