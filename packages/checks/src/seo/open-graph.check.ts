import { defineCheck } from "../check";
import { foldWhitespace } from "../page";
import { metaKeyed, metaNamed, quote } from "./head";
import { documentTitle } from "./title.check";

const REQUIRED = ["og:title", "og:description", "og:image"] as const;

/**
 * Open Graph tags that make link previews (Facebook, LinkedIn, Slack, chat apps): og:title,
 * og:description and og:image, each non-blank. `<meta name="og:...">` is accepted beside the
 * standard `property=`, since the major preview crawlers read both. All three pass, some warn,
 * none fail.
 */
export const openGraph = defineCheck({
  id: "open-graph",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Open Graph tags for link previews",
  run: (page) => {
    const present = REQUIRED.filter(
      (key) => foldWhitespace(metaKeyed(page, key)?.getAttribute("content") ?? "") !== "",
    );
    const missing = REQUIRED.filter((key) => !present.includes(key));
    if (missing.length === 0)
      return { status: "pass", description: "og:title, og:description and og:image are set.", evidence: [] };
    // what the page already says that the tags can repeat
    const title = foldWhitespace(documentTitle(page)?.textContent ?? "");
    const summary = foldWhitespace(metaNamed(page, "description")?.getAttribute("content") ?? "");
    const value = (key: (typeof REQUIRED)[number]): string =>
      key === "og:title" && title ? quote(title, 70) : key === "og:description" && summary ? quote(summary, 70) : "...";
    const fix = `Add ${missing.map((key) => `<meta property="${key}" content="${value(key)}">`).join(", ")} in the <head>.`;
    if (present.length === 0) {
      return {
        status: "fail",
        description: "The page has no Open Graph title, description or image.",
        fix,
        evidence: [],
      };
    }
    return {
      status: "warn",
      description: `The page sets ${present.join(" and ")} but lacks ${missing.join(" and ")}.`,
      fix,
      evidence: missing,
    };
  },
});
