import { binaryOf, escapePattern, stripAsciiWhitespace } from "./bytes";

/**
 * robots.txt read line by line as Google's open-source parser (google/robotstxt, the reference
 * implementation of RFC 9309) reads it. Everything works on bytes: the body is UTF-8 encoded
 * and held as a "binary" string, one char per byte, so that the byte-order mark, the line
 * limit and the escaping of non-ASCII octets behave exactly as in Google's C++ code.
 */

/** Google's crawler reads the first 500 KiB of robots.txt and ignores the rest. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** Google's line buffer is 2083 * 8 bytes with room for a terminator: the rest of a longer line is dropped. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

export type DirectiveKind = "user-agent" | "allow" | "disallow" | "sitemap" | "other";

/** The canonical key of each kind, as RFC 9309 (and the Sitemaps protocol) spell it. */
export const CANONICAL_KEY: Record<Exclude<DirectiveKind, "other">, string> = {
  "user-agent": "User-agent",
  allow: "Allow",
  disallow: "Disallow",
  sitemap: "Sitemap",
};

export type Directive = {
  kind: DirectiveKind;
  /** the key as written (binary string), whitespace stripped */
  key: string;
  /** the value as written (binary string), whitespace stripped */
  value: string;
  /** the pattern Google matches: `value` with %xx upper-cased and non-ASCII octets %-encoded (rules only) */
  pattern: string;
  /** Google took whitespace for the missing colon ("Disallow /x") */
  missingColon: boolean;
};

export type RobotsLine = {
  /** 1-based, counted as Google counts: CR, LF and CRLF each end a line */
  number: number;
  /** the line's bytes as a binary string, cut to MAX_LINE_BYTES */
  raw: string;
  tooLong: boolean;
  directive: Directive | null;
};

export type UserAgentLine = {
  line: number;
  /** the product token Google reads, lower-cased: the value up to the first char outside [a-zA-Z_-] */
  token: string;
  /** "*", or "*" followed by whitespace and anything: the group for every crawler */
  global: boolean;
};

export type Rule = { line: number; allow: boolean; pattern: string };

/** User-agent lines in a row (lines Google ignores do not end the run), then the rules up to the next such run. */
export type Group = { agents: UserAgentLine[]; rules: Rule[] };

export type RobotsTxt = {
  lines: RobotsLine[];
  groups: Group[];
  /** Allow/Disallow lines before any User-agent line: they belong to no group and apply to no crawler */
  orphanRules: number[];
  /** the values of Sitemap lines, in file order (binary strings) */
  sitemaps: { line: number; value: string }[];
  /** the body was longer than MAX_ROBOTS_BYTES; the rest was not read */
  truncated: boolean;
};

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = new TextEncoder();

const startsWithAny = (key: string, prefixes: readonly string[]): boolean =>
  prefixes.some((prefix) => key.startsWith(prefix));

// The typos Google accepts (robots.cc, kAllowFrequentTypos); every key is matched by prefix.
const USER_AGENT_KEYS = ["user-agent", "useragent", "user agent"];
const DISALLOW_KEYS = ["disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"];
const SITEMAP_KEYS = ["sitemap", "site-map"];

const kindOf = (key: string): DirectiveKind => {
  const lower = key.toLowerCase();
  if (startsWithAny(lower, USER_AGENT_KEYS)) return "user-agent";
  if (lower.startsWith("allow")) return "allow";
  if (startsWithAny(lower, DISALLOW_KEYS)) return "disallow";
  if (startsWithAny(lower, SITEMAP_KEYS)) return "sitemap";
  return "other";
};

const isBlank = (char: string | undefined): boolean => char === " " || char === "\t";

/**
 * Key and value of one line: the comment cut, then `key:value`; without a colon, Google takes
 * whitespace for it when the line is exactly two words ("Disallow /x"). Null for a line that
 * holds no directive (blank, comment, garbage).
 */
export const directiveOf = (raw: string): Directive | null => {
  const hash = raw.indexOf("#");
  const line = stripAsciiWhitespace(hash === -1 ? raw : raw.slice(0, hash));
  if (line === "") return null;
  let separator = line.indexOf(":");
  let missingColon = false;
  if (separator === -1) {
    const space = line.indexOf(" ");
    const tab = line.indexOf("\t");
    separator = space === -1 ? tab : tab === -1 ? space : Math.min(space, tab);
    if (separator === -1) return null;
    let value = separator;
    while (isBlank(line[value])) value++;
    for (let index = value; index < line.length; index++) if (isBlank(line[index])) return null;
    missingColon = true;
  }
  const key = stripAsciiWhitespace(line.slice(0, separator));
  if (key === "") return null;
  const value = stripAsciiWhitespace(line.slice(separator + 1));
  const kind = kindOf(key);
  // Google escapes every value but those of User-agent and Sitemap lines
  const pattern = kind === "user-agent" || kind === "sitemap" ? value : escapePattern(value);
  return { kind, key, value, pattern, missingColon };
};

const isTokenChar = (code: number): boolean =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d || code === 0x5f;

/** The product token of a User-agent value as Google reads it: up to the first char outside [a-zA-Z_-]. */
export const productTokenOf = (value: string): string => {
  let end = 0;
  while (end < value.length && isTokenChar(value.charCodeAt(end))) end++;
  return value.slice(0, end);
};

/** Whether a name is a whole product token (RFC 9309: letters, "_" and "-", at least one). */
export const isValidProductToken = (value: string): boolean => value.length > 0 && productTokenOf(value) === value;

const C_SPACE = new Set([" ", "\t", "\n", "\v", "\f", "\r"]);
/** Google reads "*", and "*" followed by whitespace and anything, as the global group. */
const isGlobalAgent = (value: string): boolean =>
  value[0] === "*" && (value.length === 1 || C_SPACE.has(value[1] ?? ""));

/** Splits the bytes into lines as Google does: a BOM (or its start) skipped, CR, LF and CRLF ending lines. */
const linesOf = (bytes: Uint8Array): RobotsLine[] => {
  const lines: RobotsLine[] = [];
  let start = 0;
  while (start < BOM.length && start < bytes.length && bytes[start] === BOM[start]) start++;
  const binary = binaryOf(bytes);
  const emit = (from: number, to: number) => {
    const tooLong = to - from > MAX_LINE_BYTES;
    const raw = binary.slice(from, tooLong ? from + MAX_LINE_BYTES : to);
    lines.push({ number: lines.length + 1, raw, tooLong, directive: directiveOf(raw) });
  };
  let lineStart = start;
  let lastWasCarriageReturn = false;
  for (let index = start; index < binary.length; index++) {
    const byte = binary.charCodeAt(index);
    if (byte !== 0x0a && byte !== 0x0d) continue;
    // the LF of a CRLF ends no line of its own
    const crlfContinuation = index === lineStart && lastWasCarriageReturn && byte === 0x0a;
    if (!crlfContinuation) emit(lineStart, index);
    lineStart = index + 1;
    lastWasCarriageReturn = byte === 0x0d;
  }
  emit(lineStart, binary.length);
  return lines;
};

/**
 * Parses a robots.txt body (text, or the bytes as served). Groups form as in Google's matcher:
 * a User-agent line after a rule starts a new group; lines Google does not act on (Sitemap,
 * Crawl-delay, unknown keys, garbage) neither end a run of User-agent lines nor close a group.
 */
export const parseRobotsTxt = (body: string | Uint8Array): RobotsTxt => {
  const encoded = typeof body === "string" ? utf8.encode(body) : body;
  const truncated = encoded.length > MAX_ROBOTS_BYTES;
  const lines = linesOf(truncated ? encoded.subarray(0, MAX_ROBOTS_BYTES) : encoded);
  const groups: Group[] = [];
  const orphanRules: number[] = [];
  const sitemaps: { line: number; value: string }[] = [];
  let current: Group | null = null;
  for (const line of lines) {
    const directive = line.directive;
    if (!directive) continue;
    if (directive.kind === "user-agent") {
      if (!current || current.rules.length > 0) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push({
        line: line.number,
        token: productTokenOf(directive.value).toLowerCase(),
        global: isGlobalAgent(directive.value),
      });
    } else if (directive.kind === "allow" || directive.kind === "disallow") {
      if (!current) orphanRules.push(line.number);
      else current.rules.push({ line: line.number, allow: directive.kind === "allow", pattern: directive.pattern });
    } else if (directive.kind === "sitemap") {
      sitemaps.push({ line: line.number, value: directive.value });
    }
  }
  return { lines, groups, orphanRules, sitemaps, truncated };
};
