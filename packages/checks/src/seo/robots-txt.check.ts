import { defineCheck } from "../check";
import { robotsRules } from "../lib/robots";
import type { RobotsReading } from "../lib/robots-txt";
import { clip } from "../lib/text";

// Directives Lighthouse accepts: the standard ones, widely supported extensions, and a few
// unofficial ones common in the wild. Anything else is reported as an error, as Lighthouse does.
const KNOWN_DIRECTIVES = new Set([
  "user-agent",
  "disallow",
  "allow",
  "sitemap",
  "crawl-delay",
  "clean-param",
  "host",
  "request-rate",
  "visit-time",
  "noindex",
  "content-signal",
  "license",
]);
const SITEMAP_PROTOCOLS = new Set(["http:", "https:", "ftp:"]);

type LineError = { line: number; text: string; message: string };

const directiveError = (name: string, value: string): string | null => {
  if (!KNOWN_DIRECTIVES.has(name)) return `unknown directive "${name}"`;
  if (name === "sitemap") {
    try {
      if (!SITEMAP_PROTOCOLS.has(new URL(value).protocol)) return "the sitemap URL is not http(s) or ftp";
    } catch {
      return "the sitemap URL is not an absolute URL";
    }
  }
  if (name === "user-agent" && value === "") return "no user agent is named";
  if (name === "allow" || name === "disallow") {
    if (value !== "" && !value.startsWith("/") && !value.startsWith("*")) return 'a path must start with "/" or "*"';
    const dollar = value.indexOf("$");
    if (dollar !== -1 && dollar !== value.length - 1) return '"$" may only end a pattern';
  }
  return null;
};

/** Lighthouse's robots.txt validation: every line parses, and rules follow a User-agent line. */
export const validateRobotsTxt = (content: string): LineError[] => {
  const errors: LineError[] = [];
  let inGroup = false;
  content.split(/\r\n|\r|\n/).forEach((text, index) => {
    const line = (text.split("#")[0] ?? "").trim();
    if (line === "") return;
    const colon = line.indexOf(":");
    if (colon === -1) {
      errors.push({ line: index + 1, text, message: "no colon: the line is not a directive" });
      return;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const error = directiveError(name, value);
    if (error) {
      errors.push({ line: index + 1, text, message: error });
      return;
    }
    if (name === "user-agent") inGroup = true;
    else if (!inGroup && (name === "allow" || name === "disallow")) {
      errors.push({ line: index + 1, text, message: "a rule before any User-agent line" });
    }
  });
  return errors;
};

const listed = <T>(items: readonly T[], show: (item: T) => string): string =>
  `${items.slice(0, 3).map(show).join("; ")}${items.length > 3 ? "; ..." : ""}`;

const lineLabel = (line: number, text: string): string => `line ${line} "${clip(text, 60)}"`;

const describeReading = (reading: RobotsReading): string =>
  `${lineLabel(reading.line, reading.text)}: Google: ${reading.google}; strict RFC 9309: ${reading.strict}`;

/**
 * Lighthouse `robots-txt`: the file answers 2xx and every line is a known directive with a
 * well-formed value. Fails on 5xx or 429 (crawlers must then assume the whole site is
 * disallowed), on a failed fetch, and on lines that do not parse. Skips on other 4xx (no file:
 * everything may be crawled) and on an empty file, as Lighthouse does, and on a robots.txt still
 * redirecting after five redirects (RFC 9309: unavailable, like a 404); skips when robots.txt
 * was not fetched. A body cut by the worker's size cap is judged without its unfinished last
 * line. Beyond Lighthouse: a file whose lines all parse warns when some line reads differently
 * to Google than to a strict RFC 9309 parser (lib/robots-txt/readings.ts: "User-agent: A, B",
 * "Disalow:", "Disallow /x", "Disallow: *.gif", ...), naming the line and both readings, since
 * other AI crawlers may obey it otherwise; Lighthouse passes such a file.
 */
export const robotsTxt = defineCheck({
  id: "robots-txt",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "robots.txt is valid",
  run: (page) => {
    const resource = page.snapshot.robotsTxt;
    if (!resource) return { status: "skip", description: "robots.txt was not fetched in this scan." };
    const rules = robotsRules(page);
    const { status } = resource;
    if (rules.state === "unreachable") {
      const answered = status >= 500 || status === 429;
      return {
        status: "fail",
        description: answered
          ? `robots.txt answered HTTP ${status}; crawlers treat the whole site as disallowed while it fails.`
          : `robots.txt ${rules.why}; crawlers treat the whole site as disallowed while it does.`,
        fix: answered
          ? `Make ${resource.url} answer 200 instead of ${status} (or 404 if you want no rules).`
          : `Make ${resource.url} answer 200 with the rules, or 404 if you want none; it ${rules.why}.`,
        evidence: [resource.url, String(status), rules.why],
      };
    }
    if (rules.state === "unavailable") {
      const what = status >= 400 ? `There is no robots.txt (HTTP ${status})` : `robots.txt ${rules.why}`;
      return { status: "skip", description: `${what}; crawlers may fetch everything.` };
    }
    let body = resource.body ?? "";
    if (resource.truncated) body = body.slice(0, Math.max(0, body.search(/[^\r\n]*$/)));
    if (body.trim() === "")
      return { status: "skip", description: "robots.txt is empty; crawlers may fetch everything." };
    const errors = validateRobotsTxt(body);
    const readings = rules.readings;
    if (errors.length > 0) {
      const obeyed = readings.filter(
        (reading) => reading.kind === "differs" && errors.some((error) => error.line === reading.line),
      );
      const google =
        obeyed.length > 0
          ? ` Google obeys ${obeyed.length === 1 ? "one of them" : `${obeyed.length} of them`} all the same: ${listed(obeyed, (reading) => `line ${reading.line} as ${reading.google}`)}.`
          : "";
      return {
        status: "fail",
        description: `robots.txt has ${errors.length} line${errors.length === 1 ? "" : "s"} crawlers may not understand: ${listed(errors, (error) => `${lineLabel(error.line, error.text.trim())}: ${error.message}`)}.${google}`,
        fix: `Fix or remove ${listed(errors, (error) => lineLabel(error.line, error.text.trim()))}; each line must be a directive such as User-agent:, Allow:, Disallow: or Sitemap:.`,
        evidence: errors.map((error) => `${error.line}: ${error.text}`),
      };
    }
    const directives = body.split(/\r\n|\r|\n/).filter((line) => (line.split("#")[0] ?? "").trim() !== "").length;
    if (readings.length > 0) {
      return {
        status: "warn",
        description: `robots.txt answered ${status} and all ${directives} directives parse, but ${readings.length} line${readings.length === 1 ? " reads" : "s read"} differently to other crawlers than to Google: ${listed(readings, describeReading)}.`,
        fix: `Write ${listed(readings, (reading) => `line ${reading.line}`)} in RFC 9309's plain form, so that every crawler reads them as Google does: one product token per User-agent line, the exact names User-agent, Allow and Disallow followed by a colon, and paths that start with "/", %-encoded; a rule before the first User-agent line applies to no crawler.`,
        evidence: readings.map(describeReading),
      };
    }
    return { status: "pass", description: `robots.txt answered ${status} and all ${directives} directives parse.` };
  },
});
