import { defineCheck } from "../check";
import { foldWhitespace } from "../page";
import { metaKeyed } from "./head";

/**
 * `<meta name="twitter:card">` chooses how X (Twitter) previews a shared link; without it X
 * shows no card even when Open Graph tags are present. `property=` is accepted as well.
 */
export const twitterCard = defineCheck({
  id: "twitter-card",
  category: "seo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Twitter card is declared",
  run: (page) => {
    const card = foldWhitespace(metaKeyed(page, "twitter:card")?.getAttribute("content") ?? "");
    if (card !== "") return { status: "pass", description: `twitter:card is "${card}".`, evidence: [card] };
    const image = foldWhitespace(metaKeyed(page, "og:image")?.getAttribute("content") ?? "");
    return {
      status: "fail",
      description: `The page has no twitter:card meta tag${image ? " (it has an og:image to show in one)" : ""}.`,
      fix: `Add <meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}"> (X reads og:title, og:description and og:image for the rest${image ? "" : "; add an og:image for a large card"}).`,
      evidence: [image ? "og:image" : ""],
    };
  },
});
