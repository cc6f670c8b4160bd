import LinkHeader from "http-link-header";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { ancestor, elementsNamed } from "./dom";

const inHead = (element: Element): boolean => ancestor(element, (node) => node.localName === "head") !== null;

/**
 * The first `<meta name="...">` of that name in the head, compared case-insensitively, as
 * Lighthouse's MetaElements artifact reads it (`head meta`; later duplicates are ignored). A meta
 * that the browser's parser pushed into the body (markup such as an iframe closes the head early)
 * is not metadata of the page.
 */
export const metaNamed = (page: Page, name: string): Element | null => {
  // a browser DOM always has a <head>; a bare fragment parsed here may not, and then nothing is "in" it
  const headless = elementsNamed(page, "head").length === 0;
  for (const meta of elementsNamed(page, "meta")) {
    if ((meta.getAttribute("name") ?? "").toLowerCase() === name && (headless || inHead(meta))) return meta;
  }
  return null;
};

/** The first `<meta property="...">` (Open Graph) or `<meta name="...">` of that key. */
export const metaKeyed = (page: Page, key: string): Element | null => {
  for (const meta of elementsNamed(page, "meta")) {
    const names = [meta.getAttribute("property"), meta.getAttribute("name")];
    if (names.some((n) => (n ?? "").trim().toLowerCase() === key)) return meta;
  }
  return null;
};

/** The document's base URL: the first `<base href>` resolved against the final URL, else the final URL. */
export const baseUrl = perPage((page: Page): URL => {
  const href = elementsNamed(page, "base")
    .find((base) => base.hasAttribute("href"))
    ?.getAttribute("href");
  if (href) {
    try {
      return new URL(href, page.finalUrl);
    } catch {
      // an unparseable <base href> is ignored by browsers too
    }
  }
  return page.finalUrl;
});

/** Resolves a URL attribute against the document base; null when it does not resolve. */
export const resolveHref = (page: Page, raw: string): URL | null => {
  try {
    return new URL(raw, baseUrl(page));
  } catch {
    return null;
  }
};

/**
 * A `<link>` element of the rendered DOM or a reference in an HTTP `Link` header, as
 * Lighthouse's LinkElements artifact collects them (canonical and hreflang read both).
 */
export type LinkRef = {
  /** lower-cased rel tokens */
  rels: readonly string[];
  /** the href as written */
  hrefRaw: string;
  hreflang: string;
  /** links in <body> are not canonical or hreflang annotations (HTML "body-ok" rule) */
  source: "head" | "body" | "header";
};

const relTokens = (rel: string): string[] => rel.toLowerCase().split(/\s+/).filter(Boolean);

export const linkRefs = perPage((page: Page): LinkRef[] => {
  const refs: LinkRef[] = [];
  for (const link of elementsNamed(page, "link")) {
    refs.push({
      rels: relTokens(link.getAttribute("rel") ?? ""),
      hrefRaw: link.getAttribute("href") ?? "",
      hreflang: (link.getAttribute("hreflang") ?? "").trim(),
      source: inHead(link) ? "head" : "body",
    });
  }
  const header = page.snapshot.headers.link;
  if (header) {
    try {
      for (const ref of LinkHeader.parse(header).refs) {
        refs.push({ rels: relTokens(ref.rel ?? ""), hrefRaw: ref.uri, hreflang: ref.hreflang ?? "", source: "header" });
      }
    } catch {
      // an unparseable Link header carries no annotations; Lighthouse only warns about it
    }
  }
  return refs;
});
