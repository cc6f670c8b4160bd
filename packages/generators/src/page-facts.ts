import {
  ancestor,
  anchors,
  countWords,
  documentTitle,
  elementsNamed,
  foldWhitespace,
  isHiddenByMarkup,
  isInert,
  linkRefs,
  metaKeyed,
  metaNamed,
  type Page,
  perPage,
  resolveHref,
  siteOf,
} from "@scan/checks";
import {
  type Author,
  authorOf,
  dateOf,
  isHttp,
  logoOf,
  metaContent,
  type Sourced,
  siteNameOf,
  withoutHash,
} from "./page-metadata";

export type { Sourced } from "./page-metadata";

/** A link of the page: its text and absolute URL (without fragment). */
export type Link = { text: string; url: string };

/**
 * What the generators may say about a page, every value read from the page itself: metadata,
 * existing JSON-LD, visible text, links. Nothing here is guessed; a value the page does not
 * carry is null, and generated files leave it out.
 */
export type PageFacts = {
  page: Page;
  /** the page's URL: its canonical when that is an absolute http(s) URL on the same site, else the final URL */
  url: string;
  origin: string;
  /** origin + "/" */
  home: string;
  /** registrable domain of the final host */
  site: string;
  /** the final host without a leading "www." */
  host: string;
  siteName: Sourced | null;
  title: string | null;
  h1: string | null;
  ogTitle: string | null;
  /** og:type, lower-cased */
  ogType: string | null;
  description: Sourced | null;
  /** `<html lang>` as written */
  lang: string | null;
  /** og:image, absolute http(s) */
  image: string | null;
  logo: Sourced | null;
  author: Author | null;
  /** ISO 8601 dates as written on the page */
  published: Sourced | null;
  modified: Sourced | null;
  /** the first paragraph of the main content with 5 or more words */
  intro: string | null;
  links: { nav: Link[]; content: Link[]; footer: Link[] };
  /** a visible breadcrumb trail's links, in order */
  breadcrumbs: Link[];
};

const MAX_LINKS = { nav: 20, content: 20, footer: 10 } as const;
const MAX_LINK_TEXT = 100;

/** Text cut at a word boundary to at most `max` characters, without an ellipsis (it stays a quote). */
export const clip = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:–—-]+$/, "");
};

const NOT_INTRO = new Set(["figure", "figcaption", "blockquote", "aside", "table", "nav", "footer"]);

/** The first paragraph of 5 or more words in the main content, outside figures, quotes and asides (as summary-intro reads it). */
const introOf = (page: Page): string | null => {
  for (const paragraph of page.main.root.querySelectorAll("p")) {
    const text = foldWhitespace(paragraph.textContent ?? "");
    if (countWords(text) < 5) continue;
    let inside = false;
    for (let node = paragraph.parentElement; node && node !== page.main.root; node = node.parentElement) {
      if (NOT_INTRO.has(node.localName)) inside = true;
    }
    if (!inside) return text;
  }
  return null;
};

const within = (element: Element, tags: readonly string[], roles: readonly string[]): boolean =>
  ancestor(
    element,
    (node) => tags.includes(node.localName) || roles.includes((node.getAttribute("role") ?? "").toLowerCase()),
  ) !== null;

// Unicode format characters (zero-width spaces and joiners, word joiner, byte order mark, bidi marks)
const INVISIBLE = /\p{Cf}/gu;

/** Same-site http(s) links with visible text, deduplicated by URL, excluding the page itself and any URL in `seen`. */
const collect = (
  candidates: Iterable<{ text: string; href: URL | null }>,
  site: string,
  self: string,
  seen: Set<string>,
  max: number,
): Link[] => {
  const links: Link[] = [];
  for (const { text, href } of candidates) {
    if (links.length >= max) break;
    if (!isHttp(href) || siteOf(href.hostname) !== site) continue;
    const url = withoutHash(href);
    // zero-width and other invisible format characters (U+200B, U+200C, U+2060, U+FEFF) are no text: a link of them alone is dropped
    const label = clip(foldWhitespace(text.replace(INVISIBLE, "")), MAX_LINK_TEXT);
    if (label === "" || url === self || seen.has(url)) continue;
    seen.add(url);
    links.push({ text: label, url });
  }
  return links;
};

const BREADCRUMB = /breadcrumb/i;

/** The first visible breadcrumb trail: an element labelled, classed or typed as breadcrumbs; its links in order. */
const breadcrumbsOf = (page: Page, site: string, self: string): Link[] => {
  for (const element of page.doc.querySelectorAll("[class], [id], [aria-label], [itemtype]")) {
    const label = ["class", "id", "aria-label", "itemtype"].map((name) => element.getAttribute(name) ?? "").join(" ");
    if (!BREADCRUMB.test(label) || isInert(element) || isHiddenByMarkup(element)) continue;
    const links = [...element.querySelectorAll("a[href]")].map((a) => ({
      text: a.textContent ?? "",
      href: resolveHref(page, (a.getAttribute("href") ?? "").trim()),
    }));
    const trail = collect(links, site, self, new Set(), 10);
    if (trail.length > 0) return trail;
  }
  return [];
};

/** The page's URL: its canonical when it is an absolute http(s) URL on the same site, else the final URL. */
const pageUrlOf = (page: Page, site: string): string => {
  const canonical = linkRefs(page).find((ref) => ref.source === "head" && ref.rels.includes("canonical"));
  const raw = canonical?.hrefRaw.trim() ?? "";
  if (/^https?:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      if (siteOf(url.hostname) === site) return withoutHash(url);
    } catch {
      // an unparseable canonical is the canonical check's business; the final URL stands
    }
  }
  return withoutHash(page.finalUrl);
};

export const pageFacts = perPage((page: Page): PageFacts => {
  const site = siteOf(page.finalUrl.hostname);
  const origin = page.finalUrl.origin;
  const home = `${origin}/`;
  const url = pageUrlOf(page, site);
  const title = foldWhitespace(documentTitle(page)?.textContent ?? "") || null;
  const h1Element = elementsNamed(page, "h1").find((h1) => !isInert(h1) && foldWhitespace(h1.textContent ?? "") !== "");
  const description = metaContent(metaNamed(page, "description"));
  const ogDescription = metaContent(metaKeyed(page, "og:description"));
  const ogImage = metaContent(metaKeyed(page, "og:image"));
  const image = ogImage ? resolveHref(page, ogImage) : null;
  const lang = (page.doc.documentElement?.getAttribute("lang") ?? "").trim() || null;

  const seen = new Set<string>([url, withoutHash(page.finalUrl)]);
  const usable = anchors(page).filter((anchor) => !isHiddenByMarkup(anchor.element));
  const nav = collect(
    usable.filter((anchor) => within(anchor.element, ["nav", "header"], ["navigation", "banner"])),
    site,
    url,
    seen,
    MAX_LINKS.nav,
  );
  const mainAnchors = [...page.main.root.querySelectorAll("a[href]")].map((a) => ({
    text: a.textContent ?? "",
    href: resolveHref(page, (a.getAttribute("href") ?? "").trim()),
  }));
  const contentLinks = collect(mainAnchors, site, url, seen, MAX_LINKS.content);
  const footer = collect(
    usable.filter((anchor) => within(anchor.element, ["footer"], ["contentinfo"])),
    site,
    url,
    seen,
    MAX_LINKS.footer,
  );

  return {
    page,
    url,
    origin,
    home,
    site,
    host: page.finalUrl.hostname.replace(/^www\./, ""),
    siteName: siteNameOf(page, site),
    title,
    h1: h1Element ? foldWhitespace(h1Element.textContent ?? "") : null,
    ogTitle: metaContent(metaKeyed(page, "og:title")),
    ogType: metaContent(metaKeyed(page, "og:type"))?.toLowerCase() ?? null,
    description: description
      ? { value: description, source: "meta description" }
      : ogDescription
        ? { value: ogDescription, source: "og:description" }
        : null,
    lang,
    image: isHttp(image) ? image.href : null,
    logo: logoOf(page, home),
    author: authorOf(page),
    published: dateOf(page, "published"),
    modified: dateOf(page, "modified"),
    intro: introOf(page),
    links: { nav, content: contentLinks, footer },
    breadcrumbs: breadcrumbsOf(page, site, url),
  };
});
