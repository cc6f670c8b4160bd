import robotsParser from "robots-parser";
import type { Page } from "../page";
import { perPage } from "./memo";

/**
 * How robots.txt governs the final origin, per RFC 9309 section 2.3.1: a file that answers
 * 2xx is parsed; 4xx means no restrictions ("missing"); 5xx, 429 or no answer at all means
 * crawlers must assume complete disallow ("unreachable"). The matching itself (groups by
 * product token, longest path match, Allow wins ties, `*` and `$`) is robots-parser's.
 */
export type RobotsRules = {
  state: "parsed" | "missing" | "unreachable";
  status: number;
  /** whether `userAgent` may fetch `url` (default: the final URL) under these rules */
  allows: (userAgent: string, url?: string) => boolean;
  /** Sitemap: lines, absolute */
  sitemaps: readonly string[];
};

export const robotsRules = perPage((page: Page): RobotsRules => {
  const resource = page.snapshot.robotsTxt;
  const finalUrl = page.finalUrl.toString();
  const status = resource?.status ?? 0;
  if (resource && status >= 200 && status < 300) {
    const robotsUrl = new URL("/robots.txt", page.finalUrl).toString();
    const parsed = robotsParser(robotsUrl, resource.body ?? "");
    return {
      state: "parsed",
      status,
      // robots-parser answers undefined for a URL of another origin: that file does not govern it
      allows: (userAgent, url = finalUrl) => parsed.isAllowed(url, userAgent) !== false,
      sitemaps: parsed.getSitemaps(),
    };
  }
  if (resource && status >= 400 && status < 500 && status !== 429) {
    return { state: "missing", status, allows: () => true, sitemaps: [] };
  }
  return { state: "unreachable", status, allows: () => false, sitemaps: [] };
});
