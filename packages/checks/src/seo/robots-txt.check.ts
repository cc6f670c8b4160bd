import { defineCheck } from "../check";
import { quote } from "./head";

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

/**
 * Lighthouse `robots-txt`: the file answers 2xx and every line is a known directive with a
 * well-formed value. Fails on 5xx or 429 (crawlers must then assume the whole site is
 * disallowed), on a failed fetch, and on lines that do not parse. Skips on other 4xx (no file:
 * everything may be crawled) and on an empty file, as Lighthouse does; skips when robots.txt was
 * not fetched. A body cut by the worker's size cap is judged without its unfinished last line.
 */
export const robotsTxt = defineCheck({
  id: "robots-txt",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "robots.txt is valid",
  run: ({ snapshot }) => {
    const resource = snapshot.robotsTxt;
    if (!resource) return { status: "skip", description: "robots.txt was not fetched in this scan." };
    const { status } = resource;
    if (status >= 500 || status === 429) {
      return {
        status: "fail",
        description: `robots.txt answered HTTP ${status}; crawlers treat the whole site as disallowed while it fails.`,
        fix: "Make /robots.txt answer 200 (or 404 if you want no rules).",
      };
    }
    if (status >= 400) {
      return { status: "skip", description: `There is no robots.txt (HTTP ${status}); crawlers may fetch everything.` };
    }
    if (status === 0 || status < 200 || status >= 300) {
      return {
        status: "fail",
        description: `robots.txt could not be fetched${resource.error ? ` (${resource.error})` : status ? ` (HTTP ${status})` : ""}.`,
        fix: "Make /robots.txt answer 200 with the rules, or 404 if you want none.",
      };
    }
    let body = resource.body ?? "";
    if (resource.truncated) body = body.slice(0, Math.max(0, body.search(/[^\r\n]*$/)));
    if (body.trim() === "")
      return { status: "skip", description: "robots.txt is empty; crawlers may fetch everything." };
    const errors = validateRobotsTxt(body);
    if (errors.length > 0) {
      const listed = errors
        .slice(0, 3)
        .map((error) => `line ${error.line} "${quote(error.text.trim(), 40)}": ${error.message}`)
        .join("; ");
      return {
        status: "fail",
        description: `robots.txt has ${errors.length} line${errors.length === 1 ? "" : "s"} crawlers may not understand: ${listed}${errors.length > 3 ? "; ..." : ""}.`,
        fix: "Fix or remove these lines; each line must be a directive such as User-agent:, Allow:, Disallow: or Sitemap:.",
      };
    }
    const directives = body.split(/\r\n|\r|\n/).filter((line) => (line.split("#")[0] ?? "").trim() !== "").length;
    return { status: "pass", description: `robots.txt answered ${status} and all ${directives} directives parse.` };
  },
});
