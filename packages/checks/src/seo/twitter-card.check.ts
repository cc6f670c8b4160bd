import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { foldWhitespace, type Page } from "../page";
import { metaKeyed } from "./head";
import { contentImageOf } from "./open-graph.check";
import { documentTitle } from "./title.check";

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
      fix: cardFix(page, image),
      evidence: [image ? "og:image" : ""],
    };
  },
});

/**
 * The card to declare, with what X will show of the page: its og:image (else the content's first
 * image, as twitter:image) under its og:title or <title>; a summary card when it shows no image.
 */
const cardFix = (page: Page, ogImage: string): string => {
  const ogTitle = foldWhitespace(metaKeyed(page, "og:title")?.getAttribute("content") ?? "");
  const title = ogTitle || foldWhitespace(documentTitle(page)?.textContent ?? "");
  const titled = title
    ? ` under ${ogTitle ? "its og:title" : "its <title>"} "${clip(title, 70)}"`
    : " (the page has no title: its owner must supply an og:title)";
  if (ogImage)
    return `Add <meta name="twitter:card" content="summary_large_image"> in the <head>: X then shows the page's og:image (${clip(ogImage, 100)})${titled}.`;
  const image = contentImageOf(page);
  if (image)
    return `Add <meta name="twitter:card" content="summary_large_image"> and <meta name="twitter:image" content="${image.replace(/"/g, "&quot;")}"> (the content's first image) in the <head>: X then shows it${titled}.`;
  return `Add <meta name="twitter:card" content="summary"> in the <head>: X then shows a small card${titled}; the content shows no image, so for a large card its owner must supply one (og:image).`;
};
