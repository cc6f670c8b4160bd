import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { metaNamed } from "./head";

/**
 * Lighthouse `meta-description`: the first `<meta name="description">` has non-blank content.
 * A later duplicate does not rescue a blank first one, as in Lighthouse.
 */
export const metaDescription = defineCheck({
  id: "meta-description",
  category: "seo",
  severity: "warning",
  maxScore: 6,
  quick: true,
  title: "Page has a meta description",
  run: (page) => {
    const meta = metaNamed(page, "description");
    const h1 = page.main.heading ? readableText(page.main.heading) : "";
    const fix = `Add <meta name="description" content="..."> in the <head>: 70 to 160 characters summing up this page${h1 ? ` ("${clip(h1, 60)}")` : ""}.`;
    if (!meta) return { status: "fail", description: "The page has no meta description.", fix, evidence: ["missing"] };
    const text = foldWhitespace(meta.getAttribute("content") ?? "");
    if (text === "") return { status: "fail", description: "The meta description is blank.", fix, evidence: ["blank"] };
    return { status: "pass", description: `Meta description: "${clip(text, 160)}".`, evidence: [text] };
  },
});
