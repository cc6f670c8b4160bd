import { XMLParser } from "fast-xml-parser";

/**
 * How much of a site's sitemaps an audit reads. The sitemaps protocol allows 50,000 URLs and
 * 50 MB per file and 50,000 files per index; an audit needs far less to find its pages, and a
 * hostile or broken sitemap must not cost a worker its memory.
 */
export type SitemapBounds = {
  /** sitemap files fetched, indexes included */
  maxFiles: number;
  /** bytes of one file, after gunzip */
  maxFileBytes: number;
  /** bytes of all files together, after gunzip */
  maxTotalBytes: number;
  /** page URLs collected */
  maxUrls: number;
};

export const DEFAULT_SITEMAP_BOUNDS: SitemapBounds = {
  maxFiles: 50,
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxUrls: 50_000,
};

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

export type ParsedSitemap = { kind: "urlset" | "sitemapindex"; locs: string[] } | { kind: "invalid"; error: string };

const locsOf = (entries: unknown): string[] => {
  if (!Array.isArray(entries)) return [];
  const locs: string[] = [];
  for (const entry of entries) {
    const loc = (entry as { loc?: unknown } | null)?.loc;
    if (typeof loc === "string" && loc.trim() !== "") locs.push(loc.trim());
  }
  return locs;
};

/** A sitemap's XML: a urlset's page URLs or an index's sitemap URLs, as written. */
export const parseSitemap = (xml: string): ParsedSitemap => {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    return { kind: "invalid", error: `not XML (${error instanceof Error ? error.message : String(error)})` };
  }
  const urlset = document.urlset as { url?: unknown } | undefined;
  if (urlset !== undefined) return { kind: "urlset", locs: locsOf(urlset?.url) };
  const index = document.sitemapindex as { sitemap?: unknown } | undefined;
  if (index !== undefined) return { kind: "sitemapindex", locs: locsOf(index?.sitemap) };
  return { kind: "invalid", error: "neither a <urlset> nor a <sitemapindex>" };
};
