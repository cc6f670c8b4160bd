import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { clip } from "../lib/text";
import { countWords, foldWhitespace, type Page } from "../page";
import { metaKeyed, metaNamed } from "./head";
import { documentTitle } from "./title.check";

const REQUIRED = ["og:title", "og:description", "og:image"] as const;

/** A description of up to 160 characters from a text: its whole sentences that fit, else its start. */
const summaryOf = (text: string): string => {
  if (text.length <= 160) return text;
  const sentences = text.slice(0, 160).match(/^.*[.!?。！？](?=\s|$)/su)?.[0];
  return sentences && sentences.length >= 60 ? sentences : clip(text, 160);
};

/** The tag to add, with what the page itself says for it (its title, description or opening, its content's first image), or that its owner must supply it. */
const tagFor = (page: Page, key: (typeof REQUIRED)[number]): string => {
  const tag = (value: string, from: string) =>
    `<meta property="${key}" content="${value.replace(/"/g, "&quot;")}"> (${from})`;
  if (key === "og:title") {
    const title = foldWhitespace(documentTitle(page)?.textContent ?? "");
    return title
      ? tag(title, "the page's <title>")
      : `<meta property="og:title">: the page has no title, so its owner must supply one`;
  }
  if (key === "og:description") {
    const meta = foldWhitespace(metaNamed(page, "description")?.getAttribute("content") ?? "");
    if (meta) return tag(summaryOf(meta), "the page's meta description");
    const opening = [...page.main.root.querySelectorAll("p")]
      .map((paragraph) => readableText(paragraph))
      .find((text) => countWords(text) >= 10);
    return opening
      ? tag(summaryOf(opening), "the content's opening")
      : `<meta property="og:description">: the page has no paragraph to sum it up, so its owner must supply one`;
  }
  const image = contentImageOf(page);
  return image
    ? tag(image, "the content's first image")
    : `<meta property="og:image">: the content shows no image, so its owner must supply one (1200 × 630 px)`;
};

/** The main content's first image not marked decorative, as an absolute URL; or null. */
export const contentImageOf = (page: Page): string | null => {
  for (const image of page.main.root.querySelectorAll("img[src]")) {
    const src = (image.getAttribute("src") ?? "").trim();
    // an image marked decorative (alt="") shows nothing of the page: no preview
    if (src === "" || src.startsWith("data:") || image.getAttribute("alt")?.trim() === "") continue;
    // a script written into src by a broken template (src="if(this.src!=…)") is no address
    if (/[\s'"();]/.test(src)) continue;
    try {
      return new URL(src, page.finalUrl).href;
    } catch {}
  }
  return null;
};

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
    const fix = `Add ${missing.map((key) => tagFor(page, key)).join(", ")} in the <head>.`;
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
