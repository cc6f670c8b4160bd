import {
  type AiCatalogDiscovery,
  type CrawlerRobots,
  crawlerRobots,
  DEFAULT_SITEMAP_BOUNDS,
  normaliseAuditUrl,
  type SitemapBounds,
} from "@scan/audit";
import type { AuditDiscovery, TextResource } from "@scan/contract";
import { type FetchPolicy, fetchAiCatalog, fetchLlmsTxt, fetchRobotsTxt, siteAiCatalogSignals } from "@scan/scanner";
import { readSitemaps } from "./sitemap-reader";

export type SiteDiscovery = {
  robotsTxt: TextResource;
  robots: CrawlerRobots;
  llmsTxt: TextResource;
  aiCatalog: AiCatalogDiscovery;
  /** the sitemaps' page URLs on the site's origin, normalised, distinct, in the order read */
  sitemapUrls: string[];
  summary: AuditDiscovery;
};

/**
 * What an audit knows before it scans a page: robots.txt (its rules for the crawler, its
 * Crawl-delay and its `Sitemap:` lines), the sitemaps (those lines, else `/sitemap.xml`; indexes
 * followed, gzip read, within the bounds), llms.txt and ai-catalog.json where robots.txt's
 * `Agentmap:` or the well-known path puts it. It fetches no page: each page is fetched once, by
 * its scan, inside the host's slots and Crawl-delay. Every fetch passes the address policy.
 */
export const discoverSite = async (
  origin: string,
  policy: FetchPolicy,
  { deadline, bounds = DEFAULT_SITEMAP_BOUNDS }: { deadline: number; bounds?: SitemapBounds },
): Promise<SiteDiscovery> => {
  const [robotsTxt, llmsTxt] = await Promise.all([
    fetchRobotsTxt(origin, policy, deadline),
    fetchLlmsTxt(origin, policy, deadline),
  ]);
  const robots = crawlerRobots(robotsTxt, origin);
  // no page is fetched here: the start page's own catalog links come from its scan, in the report
  const aiCatalog = await fetchAiCatalog(siteAiCatalogSignals(origin, robotsTxt), policy, deadline);
  const starts = robots.sitemaps.length > 0 ? [...robots.sitemaps] : [new URL("/sitemap.xml", origin).toString()];
  const read = await readSitemaps(starts, policy, { bounds, deadline });
  const sitemapUrls: string[] = [];
  const seen = new Set<string>();
  let elsewhere = 0;
  for (const url of read.urls) {
    const normalised = normaliseAuditUrl(url);
    if (!normalised || new URL(normalised).origin !== origin) {
      elsewhere += 1;
      continue;
    }
    if (seen.has(normalised)) continue;
    seen.add(normalised);
    sitemapUrls.push(normalised);
  }
  return {
    robotsTxt,
    robots,
    llmsTxt,
    aiCatalog,
    sitemapUrls,
    summary: {
      robots_txt: { url: robotsTxt.url, status: robotsTxt.status, crawl_delay_s: robots.crawlDelayS },
      sitemaps: read.files,
      sitemap_urls: sitemapUrls.length,
      sitemap_urls_elsewhere: elsewhere,
      truncated: read.truncated,
      llms_txt: { url: llmsTxt.url, status: llmsTxt.status },
    },
  };
};
