import type { TextResource } from "@scan/contract";
import type { Page } from "../page";
import { perPage } from "./memo";
import { pathOfUrl, type RobotsAnswer, type RobotsFile, type RobotsReading, readRobotsFile } from "./robots-txt";

/**
 * How robots.txt governs the final origin, per RFC 9309 section 2.3.1 and Google's crawler:
 * - `parsed`: the file answered 2xx and is read as Google reads it (lib/robots-txt);
 * - `unavailable`: it answered 4xx (429 aside), or was still redirecting after five
 *   redirects: crawlers may fetch everything;
 * - `unreachable`: it answered 5xx or 429, or not at all: crawlers must assume everything is
 *   disallowed.
 */
export type RobotsState = "parsed" | "unavailable" | "unreachable";

export type RobotsStatus = {
  state: RobotsState;
  status: number;
  /** why, in a few words: "answered 404", "redirected more than five times", "could not be fetched (...)" */
  why: string;
};

export type RobotsRules = RobotsStatus & {
  /** whether `userAgent` may fetch `url` (default: the final URL) under these rules */
  allows: (userAgent: string, url?: string) => boolean;
  /** the rule that decided, for a parsed file and a URL of its origin; null otherwise */
  answer: (userAgent: string, url?: string) => RobotsAnswer | null;
  /** Sitemap: lines, absolute */
  sitemaps: readonly string[];
  /** lines Google and a strict RFC 9309 parser read differently, or that have no effect */
  readings: readonly RobotsReading[];
  file: RobotsFile | null;
};

/** RFC 9309 section 2.3.1 over the fetched file; `null` means robots.txt was not fetched. */
export const robotsStatusOf = (resource: TextResource | null): RobotsStatus => {
  if (!resource) return { state: "unreachable", status: 0, why: "was not fetched" };
  const { status } = resource;
  if (status >= 200 && status < 300) return { state: "parsed", status, why: `answered ${status}` };
  if (resource.tooManyRedirects) return { state: "unavailable", status, why: "redirected more than five times" };
  // a redirect the fetch could not follow (no Location): Google treats a robots.txt it cannot reach by redirects as 404
  if (status >= 300 && status < 400)
    return { state: "unavailable", status, why: `answered ${status} without a usable redirect` };
  if (status >= 400 && status < 500 && status !== 429)
    return { state: "unavailable", status, why: `answered ${status}` };
  if (status === 0) {
    return { state: "unreachable", status, why: `could not be fetched${resource.error ? ` (${resource.error})` : ""}` };
  }
  return { state: "unreachable", status, why: `answered ${status}` };
};

/** The rules as one sentence's basis, in the words of RFC 9309 section 2.3.1. */
export const robotsBasis = (rules: RobotsStatus): string => {
  if (rules.state === "parsed") return `robots.txt (status ${rules.status})`;
  if (rules.state === "unavailable")
    return `robots.txt ${rules.why}; under RFC 9309 an unavailable robots.txt (4xx, or more than five redirects) allows every crawler everything`;
  return `robots.txt ${rules.why}; under RFC 9309 an unreachable robots.txt (5xx, 429 or no answer) means every crawler must assume everything is disallowed`;
};

export const robotsRules = perPage((page: Page): RobotsRules => {
  const resource = page.snapshot.robotsTxt;
  const status = robotsStatusOf(resource);
  const finalUrl = page.finalUrl;
  if (status.state !== "parsed") {
    const allowed = status.state === "unavailable";
    return { ...status, allows: () => allowed, answer: () => null, sitemaps: [], readings: [], file: null };
  }
  const robotsUrl = new URL("/robots.txt", finalUrl);
  const file = readRobotsFile(resource?.body ?? "", robotsUrl.toString());
  const answer = (userAgent: string, url?: string): RobotsAnswer | null => {
    let target: URL;
    try {
      target = url === undefined ? finalUrl : new URL(url, finalUrl);
    } catch {
      return null;
    }
    // a robots.txt governs its own origin only
    if (target.origin !== robotsUrl.origin) return null;
    return file.matcher.answer(userAgent, pathOfUrl(target));
  };
  return {
    ...status,
    allows: (userAgent, url) => answer(userAgent, url)?.allowed ?? true,
    answer,
    sitemaps: file.sitemaps,
    readings: file.readings,
    file,
  };
});
