import {
  ancestor,
  anchors,
  authorNameOf,
  elementsNamed,
  foldWhitespace,
  isInert,
  isOrganization,
  isUrl,
  type JsonLdNode,
  jsonLd,
  linkRefs,
  metaKeyed,
  nodesById,
  type Page,
  pageDates,
  publishedDate,
  resolveHref,
  type Sourced,
  TITLE_SUFFIX,
  textOf,
  visibleByline,
  withoutHash,
} from "@scan/checks";

export type { Sourced } from "@scan/checks";

/**
 * Who and what a page says it is: site name, logo, author and dates, each read from the page's
 * own metadata, markup or JSON-LD, with where it was found.
 */

export type Author = { name: string; url: string | null; source: string };

export const isHttp = (url: URL | null): url is URL =>
  url !== null && (url.protocol === "http:" || url.protocol === "https:");

/** A meta element's content, whitespace folded; null when blank. */
export const metaContent = (element: Element | null): string | null => {
  const text = foldWhitespace(element?.getAttribute("content") ?? "");
  return text === "" ? null : text;
};

/**
 * The note a generated file carries when it names the site by the end of the page's <title>
 * (`siteNameOf`'s last source): a reading for the owner to check, not a name the page declares.
 */
export const siteNameNotes = (siteName: Sourced | null, where: string): string[] =>
  siteName?.source === TITLE_SUFFIX
    ? [
        `${where} "${siteName.value}" is read from the end of the page's <title>: check that it is the site's name, and declare it as og:site_name or a WebSite's name in JSON-LD.`,
      ]
    : [];

/** The JSON-LD nodes (nested ones included) that are organizations. */
const organizations = (page: Page): JsonLdNode[] => jsonLd(page).nodes.filter(isOrganization);

/** An image URL from a logo value: a URL string, or an ImageObject's url / contentUrl. */
const imageUrlOf = (value: unknown, page: Page): string | null => {
  if (Array.isArray(value)) {
    for (const item of value) {
      const url = imageUrlOf(item, page);
      if (url) return url;
    }
    return null;
  }
  const raw =
    typeof value === "string"
      ? value
      : typeof value === "object" && value !== null
        ? (textOf((value as JsonLdNode).url) ?? textOf((value as JsonLdNode).contentUrl))
        : null;
  if (!raw) return null;
  const url = resolveHref(page, raw.trim());
  return isHttp(url) ? url.href : null;
};

const LOGO_HINT = /logo/i;

/**
 * The site's logo: an Organization's logo in the page's JSON-LD; else an `<img>` that says it is
 * a logo (alt, class, id or file name) inside the header, navigation or a link to the home page;
 * else the apple-touch-icon (a square icon of 180 px, which search engines accept as a logo).
 */
export const logoOf = (page: Page, home: string): Sourced | null => {
  for (const node of organizations(page)) {
    const url = imageUrlOf(node.logo, page);
    if (url) return { value: url, source: "JSON-LD Organization logo" };
  }
  for (const img of elementsNamed(page, "img")) {
    if (isInert(img)) continue;
    const hints = ["alt", "class", "id", "src"].map((name) => img.getAttribute(name) ?? "").join(" ");
    if (!LOGO_HINT.test(hints)) continue;
    const src = resolveHref(page, (img.getAttribute("src") ?? "").trim());
    if (!isHttp(src) || (img.getAttribute("src") ?? "").trim() === "") continue;
    const inBanner = ancestor(
      img,
      (node) =>
        ["header", "nav"].includes(node.localName) ||
        ["banner", "navigation"].includes(node.getAttribute("role") ?? ""),
    );
    const homeLink = ancestor(img, (node) => {
      if (node.localName !== "a") return false;
      const href = resolveHref(page, (node.getAttribute("href") ?? "").trim());
      return isHttp(href) && withoutHash(href) === home;
    });
    if (inBanner || homeLink) return { value: src.href, source: "logo <img>" };
  }
  for (const ref of linkRefs(page)) {
    if (ref.source === "header" || !ref.rels.includes("apple-touch-icon")) continue;
    const url = resolveHref(page, ref.hrefRaw.trim());
    if (isHttp(url) && ref.hrefRaw.trim() !== "") return { value: url.href, source: "apple-touch-icon" };
  }
  return null;
};

// the metas that carry a byline, as the author check reads them
const AUTHOR_META = ["author", "article:author", "dc.creator", "byl", "sailthru.author", "parsely-author"];

/** The author as the author check finds one: JSON-LD, author metas, rel="author", itemprop="author", a visible byline. */
export const authorOf = (page: Page): Author | null => {
  const byId = nodesById(page);
  for (const node of jsonLd(page).nodes) {
    if (!("author" in node)) continue;
    const name = foldWhitespace(authorNameOf(node.author, byId) ?? "");
    if (name) return { name, url: null, source: "JSON-LD author" };
  }
  for (const key of AUTHOR_META) {
    const text = metaContent(metaKeyed(page, key));
    // NYT-style bylines ("By Jane Doe") keep the name only; it is still a quote of the page
    const name = text?.replace(/^by\s+/i, "");
    if (name && !isUrl(name)) return { name, url: null, source: `<meta ${key}>` };
  }
  const rel = anchors(page).find(
    (anchor) =>
      anchor.text !== "" &&
      (anchor.element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).includes("author") &&
      !isUrl(anchor.text),
  );
  if (rel) return { name: rel.text, url: isHttp(rel.href) ? rel.href.href : null, source: 'rel="author" link' };
  for (const element of page.doc.querySelectorAll('[itemprop~="author"]')) {
    if (isInert(element)) continue;
    const named = element.querySelector('[itemprop~="name"]');
    const text = foldWhitespace(named?.getAttribute("content") ?? named?.textContent ?? element.textContent ?? "");
    if (text !== "" && !isUrl(text) && text.length <= 100)
      return { name: text, url: null, source: 'itemprop="author"' };
  }
  const byline = visibleByline(page);
  return byline ? { name: byline.name, url: null, source: `the byline "${byline.line}"` } : null;
};

/**
 * A date as the page writes it, from the page's own dates as publish-date reads them (the
 * checks' `pageDates`: JSON-LD of the nodes describing the page, date metas, `<time>` of its
 * content, never a sidebar's). A published date may also be the content's plain `<time>`: the
 * date an article shows is its publication date.
 */
export const dateOf = (page: Page, kind: "published" | "modified"): Sourced | null => {
  const { dates } = pageDates(page);
  const found = kind === "published" ? publishedDate(dates) : dates.find((date) => date.kind === kind);
  return found ? { value: found.raw, source: found.source } : null;
};
