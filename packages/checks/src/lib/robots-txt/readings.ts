import { textOf } from "./bytes";
import {
  CANONICAL_KEY,
  type Directive,
  isValidProductToken,
  MAX_LINE_BYTES,
  productTokenOf,
  type RobotsTxt,
} from "./parse";

/**
 * A line that Google reads one way and a strict RFC 9309 parser another, or that no crawler
 * acts on. RFC 9309's grammar (section 2.2) accepts exactly `user-agent`, `allow` and
 * `disallow` with a colon, a product token of [a-zA-Z_-] or "*", and a path that starts with
 * "/" and holds no space or control character; "crawlers MUST use the parseable rules", so a
 * strict parser skips any other line, and other records (Sitemap, Crawl-delay) never end a
 * group. Google is lenient in the ways listed here (robots.cc).
 *
 * - `differs`: the two readings give the line different effects (other AI crawlers may obey it
 *   differently from Google);
 * - `no-effect`: both readings ignore the line, which was surely meant to do something;
 * - `encoding`: both readings %-encode the path's non-ASCII characters as UTF-8, but a parser
 *   that compares raw text (or reads the file in another encoding) does not.
 */
export type RobotsReading = {
  line: number;
  /** the line as written, trimmed, for showing to a person */
  text: string;
  kind: "differs" | "no-effect" | "encoding";
  google: string;
  strict: string;
};

const quote = (binary: string): string => `"${textOf(binary)}"`;

// RFC 3986 unreserved characters, and RFC 9309's special ones, which a %-escape hides from Google
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const hiddenEscapes = (value: string): string[] =>
  [...value.matchAll(/%([0-9a-fA-F]{2})/g)]
    .map((match) => match[0])
    .filter((sequence) => {
      const char = String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
      return UNRESERVED.test(char) || char === "*" || char === "$";
    });

// RFC 9309 path-pattern: "/" then UTF8-char-noctl, i.e. no control character, no space, no "#"
const strictPathProblem = (value: string): string | null => {
  if (!value.startsWith("/")) return 'it does not start with "/"';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code <= 0x20) return "it holds a space or a control character";
  }
  return null;
};

const keyProblem = (directive: Directive): string | null => {
  if (directive.kind === "other") return null;
  const canonical = CANONICAL_KEY[directive.kind];
  if (directive.missingColon) return `it has no colon after "${textOf(directive.key)}"`;
  if (directive.key.toLowerCase() !== canonical.toLowerCase())
    return `"${textOf(directive.key)}" is not "${canonical}"`;
  return null;
};

const describeAgent = (value: string): string => {
  if (value[0] === "*" && (value.length === 1 || /\s/.test(value[1] ?? ""))) return "the group for every crawler (*)";
  const token = productTokenOf(value);
  if (token === "") return "a group that names no crawler";
  const rest = value.slice(token.length);
  return `a group for ${token} only (the name is read up to ${JSON.stringify(textOf(rest[0] ?? ""))})`;
};

const readingOf = (directive: Directive, inGroup: boolean): Omit<RobotsReading, "line" | "text"> | null => {
  const { kind, value } = directive;
  const rule = kind === "allow" || kind === "disallow";
  if (rule && !inGroup) {
    return {
      kind: "no-effect",
      google: "nothing: it comes before any User-agent line, so it belongs to no group",
      strict: "nothing either: rules belong in groups",
    };
  }
  const keyIssue = keyProblem(directive);
  if (keyIssue && kind !== "other") {
    return {
      kind: "differs",
      google: `"${CANONICAL_KEY[kind]}: ${textOf(value)}"`,
      strict: `${directive.missingColon ? "not a valid line" : "an unknown record"} (${keyIssue}), skipped`,
    };
  }
  if (kind === "user-agent" && value !== "*" && !isValidProductToken(value)) {
    return {
      kind: "differs",
      google: describeAgent(value),
      strict: `${quote(value)} is not a product token (letters, "-" and "_" only, or "*"), so the line is skipped`,
    };
  }
  if (!rule) return null;
  if (value === "") return null;
  const pathIssue = strictPathProblem(value);
  if (pathIssue) {
    const matches = value.startsWith("*") ? `the pattern ${quote(value)}` : "a rule that matches no URL";
    return {
      kind: "differs",
      google: `${matches}, which also ends the run of User-agent lines above it`,
      strict: `not a path (${pathIssue}), so the line is skipped`,
    };
  }
  const hidden = hiddenEscapes(value);
  if (hidden.length > 0) {
    return {
      kind: "differs",
      google: `matches ${hidden.join(", ")} only where the URL has it escaped`,
      strict: `${hidden.join(", ")} decoded to ${hidden.length === 1 ? "its character" : "their characters"} before comparing`,
    };
  }
  if (kind === "allow" && directive.pattern.slice(directive.pattern.lastIndexOf("/")).startsWith("/index.htm")) {
    const directory = directive.pattern.slice(0, directive.pattern.lastIndexOf("/") + 1);
    return {
      kind: "differs",
      google: `allows ${textOf(value)} and the directory URL ${textOf(directory)} itself`,
      strict: `allows ${textOf(value)} only`,
    };
  }
  if (/[\u0080-\u00ff]/.test(value)) {
    return {
      kind: "encoding",
      google: `the path %-encoded as UTF-8 (${directive.pattern}), as RFC 9309 requires too`,
      strict: "the same, but a parser that compares raw text never matches the %-encoded URL",
    };
  }
  return null;
};

/** Every line whose reading differs between Google and a strict RFC 9309 parser, or that has no effect. */
export const readingsOf = (robots: RobotsTxt): RobotsReading[] => {
  const readings: RobotsReading[] = [];
  const orphans = new Set(robots.orphanRules);
  for (const line of robots.lines) {
    if (line.tooLong) {
      readings.push({
        line: line.number,
        text: textOf(line.raw).trim(),
        kind: "differs",
        google: `only the first ${MAX_LINE_BYTES.toLocaleString("en")} bytes of the line`,
        strict: "the whole line",
      });
      continue;
    }
    if (!line.directive) continue;
    const reading = readingOf(line.directive, !orphans.has(line.number));
    if (reading) readings.push({ line: line.number, text: textOf(line.raw).trim(), ...reading });
  }
  return readings;
};
