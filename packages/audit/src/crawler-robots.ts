import { pathOfUrl, type RobotsState, readRobotsFile, robotsStatusOf } from "@scan/checks";
import type { TextResource } from "@scan/contract";

/** The product token of the audit's crawler in robots.txt (its user agent says `AEOScan/0.1`). */
export const AUDIT_CRAWLER_TOKEN = "AEOScan";
/** the longest Crawl-delay honoured; a larger one is read as this (an audit must end) */
export const MAX_CRAWL_DELAY_S = 30;

/**
 * `Crawl-delay` (not in RFC 9309, honoured by Bing, Yandex and most polite crawlers) for a
 * crawler: the value in the group naming its token, else in the `*` group. Groups are runs of
 * User-agent lines followed by their rules, as in RFC 9309.
 */
export const crawlDelayFor = (body: string, token: string): number | null => {
  const wanted = token.toLowerCase();
  let agents: string[] = [];
  let inRules = false;
  let own: number | null = null;
  let global: number | null = null;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match?.[1]) continue;
    const key = match[1].toLowerCase();
    const value = (match[2] ?? "").trim();
    if (key === "user-agent") {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase().split(/[\s/]/)[0] ?? "");
      continue;
    }
    inRules = true;
    if (key !== "crawl-delay") continue;
    const seconds = Number(value);
    if (!Number.isFinite(seconds) || seconds < 0) continue;
    if (agents.includes(wanted)) own ??= seconds;
    if (agents.includes("*")) global ??= seconds;
  }
  const delay = own ?? global;
  return delay === null ? null : Math.min(delay, MAX_CRAWL_DELAY_S);
};

/** What the audit's crawler may fetch, read from the site's robots.txt. */
export type CrawlerRobots = {
  state: RobotsState;
  /** the crawler may fetch this URL of the site's origin */
  allowsCrawler: (url: string) => boolean;
  /** Googlebot may fetch it (the sitemap checks judge for search engines, as the indexable check does) */
  allowsGooglebot: (url: string) => boolean;
  crawlDelayS: number | null;
  sitemaps: readonly string[];
};

/**
 * robots.txt as RFC 9309 section 2.3.1 reads it: a parsed file's rules, an unavailable one (4xx)
 * allows everything, an unreachable one (5xx, no answer) disallows everything.
 */
export const crawlerRobots = (resource: TextResource | null, origin: string): CrawlerRobots => {
  const status = robotsStatusOf(resource);
  if (status.state !== "parsed" || !resource) {
    const allowed = status.state === "unavailable";
    return {
      state: status.state,
      allowsCrawler: () => allowed,
      allowsGooglebot: () => allowed,
      crawlDelayS: null,
      sitemaps: [],
    };
  }
  const body = resource.body ?? "";
  const file = readRobotsFile(body, new URL("/robots.txt", origin).toString());
  const allows = (agent: string) => (url: string) => {
    const parsed = new URL(url);
    if (parsed.origin !== origin) return true;
    return file.matcher.answer(agent, pathOfUrl(parsed)).allowed;
  };
  return {
    state: "parsed",
    allowsCrawler: allows(AUDIT_CRAWLER_TOKEN),
    allowsGooglebot: allows("Googlebot"),
    crawlDelayS: crawlDelayFor(body, AUDIT_CRAWLER_TOKEN),
    sitemaps: file.sitemaps,
  };
};
