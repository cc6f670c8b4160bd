import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { metaNamed } from "./head";

/**
 * Meta description length in characters (code points, whitespace folded): 70-160 passes,
 * 50-69 or 161-200 warns, other lengths fail; skips without a non-blank description (the
 * meta-description check reports that). Results show roughly 150-160 characters.
 */
export const metaDescriptionLength = defineCheck({
  id: "meta-description-length",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Meta description has a good length",
  run: (page) => {
    const text = foldWhitespace(metaNamed(page, "description")?.getAttribute("content") ?? "");
    if (text === "") return { status: "skip", description: "The page has no meta description to measure." };
    const length = [...text].length;
    if (length >= 70 && length <= 160) {
      return { status: "pass", description: `The meta description is ${length} characters.`, evidence: [text] };
    }
    const short = length < 70;
    const shown = `"${clip(text, 90)}"`;
    return {
      status: (length >= 50 && length < 70) || (length > 160 && length <= 200) ? "warn" : "fail",
      description: `The meta description ${shown} is ${length} characters; 70 to 160 reads best.`,
      fix: short
        ? `Expand the description ${shown} to 70-160 characters: what the page offers and why to click.`
        : `Trim the description ${shown} by ${length - 160} characters or more so results do not cut it off.`,
      evidence: [text],
    };
  },
});
