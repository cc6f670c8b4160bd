import {
  ancestor,
  anchors,
  breadcrumbTrail,
  countWords,
  documentTitle,
  elementsNamed,
  foldWhitespace,
  inNavigation,
  isHiddenByMarkup,
  isInert,
  linkCandidates,
  linkRefs,
  mainAncestorNamed,
  metaKeyed,
  metaNamed,
  NOT_RUNNING_TEXT,
  type OwnLink,
  type OwnLinkRule,
  ownLinks,
  type Page,
  perPage,
  resolveHref,
  type Sourced,
  siteNameOf,
  siteOf,
  withoutHash,
} from "@scan/checks";
import { type Author, authorOf, dateOf, isHttp, logoOf, metaContent } from "./page-metadata";

export type { Sourced } from "@scan/checks";

/** A link of the page: its text and absolute URL (without fragment). */
export type Link = OwnLink;

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

/** The first paragraph of 5 or more words in the main content, outside figures, quotes and asides (as summary-intro reads it). */
const introOf = (page: Page): string | null => {
  for (const paragraph of page.main.root.querySelectorAll("p")) {
    const text = foldWhitespace(paragraph.textContent ?? "");
    if (countWords(text) < 5) continue;
    if (mainAncestorNamed(page, paragraph, NOT_RUNNING_TEXT) === null) return text;
  }
  return null;
};

const inFooter = (element: Element): boolean =>
  ancestor(
    element,
    (node) => node.localName === "footer" || (node.getAttribute("role") ?? "").toLowerCase() === "contentinfo",
  ) !== null;

// a generated file lists every link the page has, its text clipped at a word, not only its content pages
const listed = (seen: Set<string>, max: number): OwnLinkRule => ({
  max,
  seen,
  longText: { over: MAX_LINK_TEXT, becomes: "clipped" },
  keyPagesOnly: false,
});

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
  const nav = ownLinks(
    page,
    usable.filter((anchor) => inNavigation(anchor.element)),
    listed(seen, MAX_LINKS.nav),
  );
  const mainAnchors = linkCandidates(page, page.main.root.querySelectorAll("a[href]"));
  const contentLinks = ownLinks(page, mainAnchors, listed(seen, MAX_LINKS.content));
  const footer = ownLinks(
    page,
    usable.filter((anchor) => inFooter(anchor.element)),
    listed(seen, MAX_LINKS.footer),
  );

  return {
    page,
    url,
    origin,
    home,
    site,
    host: page.finalUrl.hostname.replace(/^www\./, ""),
    siteName: siteNameOf(page),
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
    breadcrumbs: breadcrumbTrail(page, (links) => ownLinks(page, links, listed(new Set([url]), 10))),
  };
});
