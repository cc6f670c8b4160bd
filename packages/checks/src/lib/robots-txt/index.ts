import { textOf } from "./bytes";
import { googlePathOf, type RobotsAnswer, RobotsMatcher } from "./match";
import { parseRobotsTxt, type RobotsTxt } from "./parse";
import { type RobotsReading, readingsOf } from "./readings";

export { escapePattern, textOf } from "./bytes";
export { googlePathOf, pathOfUrl, patternMatches, type RobotsAnswer, RobotsMatcher } from "./match";
export {
  type Group,
  isValidProductToken,
  MAX_LINE_BYTES,
  MAX_ROBOTS_BYTES,
  parseRobotsTxt,
  productTokenOf,
  type RobotsLine,
  type RobotsTxt,
  type Rule,
} from "./parse";
export { type RobotsReading, readingsOf } from "./readings";

/** A robots.txt parsed once, with its matcher, its Sitemap URLs and its per-line readings. */
export type RobotsFile = {
  parsed: RobotsTxt;
  matcher: RobotsMatcher;
  /** Sitemap lines resolved against the robots.txt URL; values that are not URLs are left out */
  sitemaps: string[];
  readings: RobotsReading[];
};

export const readRobotsFile = (body: string | Uint8Array, robotsUrl: string): RobotsFile => {
  const parsed = parseRobotsTxt(body);
  const sitemaps: string[] = [];
  for (const { value } of parsed.sitemaps) {
    try {
      const url = new URL(textOf(value), robotsUrl).toString();
      if (!sitemaps.includes(url)) sitemaps.push(url);
    } catch {
      // not a URL: Google cannot fetch it either
    }
  }
  let readings: RobotsReading[] | null = null;
  return {
    parsed,
    matcher: RobotsMatcher.of(parsed),
    sitemaps,
    // worked out when first asked for: answering questions does not need them
    get readings() {
      readings ??= readingsOf(parsed);
      return readings;
    },
  };
};

/**
 * Google's `OneAgentAllowedByRobots(robots, agent, url)`: the URL as given (expected
 * %-encoded already), parsed afresh, exactly as google/robotstxt answers it.
 */
export const googleAnswer = (body: string | Uint8Array, agent: string, url: string): RobotsAnswer =>
  RobotsMatcher.of(parseRobotsTxt(body)).answer(agent, googlePathOf(url));
