import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { documentTitle } from "./title.check";

/**
 * Title length in characters (Unicode code points, whitespace folded): 30-60 passes, 10-29 or
 * 61-70 warns, shorter or longer fails; no title skips (the title check reports it). Search
 * results cut titles at about 600 px, which is roughly 60 characters of Latin text.
 */
export const titleLength = defineCheck({
  id: "title-length",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "Title has a good length",
  run: (page) => {
    const text = foldWhitespace(documentTitle(page)?.textContent ?? "");
    if (text === "") return { status: "skip", description: "The page has no title to measure." };
    const length = [...text].length;
    const shown = `"${clip(text, 90)}"`;
    const description = `The title ${shown} is ${length} characters; 30 to 60 reads best.`;
    if (length >= 30 && length <= 60)
      return { status: "pass", description: `The title is ${length} characters.`, evidence: [text] };
    const short = length < 30;
    return {
      status: (length >= 10 && length < 30) || (length > 60 && length <= 70) ? "warn" : "fail",
      description,
      fix: short
        ? `Lengthen the title ${shown} with the page's topic and a distinguishing detail, to 30-60 characters.`
        : `Shorten the title ${shown} by ${length - 60} characters or more, main keywords first, so results do not cut it.`,
      evidence: [text],
    };
  },
});
