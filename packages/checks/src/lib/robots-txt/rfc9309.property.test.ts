import fc from "fast-check";
import { pathOfUrl, readRobotsFile } from "./index";

/**
 * A second, independent reading of robots.txt written from RFC 9309's text alone, slow and
 * literal: the grammar of section 2.2 (exact keys with a colon, product tokens of [a-zA-Z_-]
 * or "*", paths starting with "/" without space or control characters), "crawlers MUST use
 * the parseable rules" (any other line is skipped, and other records never end a group),
 * groups combined per agent else the "*" groups, %-encoding before comparison (non-ASCII as
 * UTF-8, unreserved characters decoded), a brute-force `*`/`$` matcher, the most octets
 * winning and Allow on a tie.
 */
const strictAllowed = (body: string, agent: string, url: string): boolean => {
  type StrictGroup = { agents: string[]; rules: { allow: boolean; pattern: string }[] };
  const groups: StrictGroup[] = [];
  let current: StrictGroup | null = null;
  for (const text of body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = (text.split("#")[0] ?? "").replace(/^[ \t]+|[ \t]+$/g, "");
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const key = line
      .slice(0, colon)
      .replace(/[ \t]+$/, "")
      .toLowerCase();
    const value = line.slice(colon + 1).replace(/^[ \t]+/, "");
    if (key === "user-agent") {
      if (value !== "*" && !/^[A-Za-z_-]+$/.test(value)) continue;
      if (!current || current.rules.length > 0) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
    } else if (key === "allow" || key === "disallow") {
      const validPath = value.startsWith("/") && [...value].every((char) => (char.codePointAt(0) ?? 0) > 0x20);
      if (value !== "" && !validPath) continue;
      if (current) current.rules.push({ allow: key === "allow", pattern: value });
    }
  }
  const own = groups.filter((group) => group.agents.includes(agent.toLowerCase()));
  const applicable = own.length > 0 ? own : groups.filter((group) => group.agents.includes("*"));
  const target = normalize(new URL(url).pathname + new URL(url).search);
  let best: { octets: number; allow: boolean } | null = null;
  for (const rule of applicable.flatMap((group) => group.rules)) {
    if (rule.pattern === "") continue;
    const pattern = normalize(rule.pattern);
    if (!bruteForceMatch(pattern, 0, target, 0)) continue;
    if (!best || pattern.length > best.octets || (pattern.length === best.octets && rule.allow)) {
      best = { octets: pattern.length, allow: rule.allow };
    }
  }
  return best?.allow ?? true;
};

const normalize = (path: string): string =>
  [...new TextEncoder().encode(path)]
    .map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("")
    .replace(/%[0-9a-fA-F]{2}/g, (sequence) => {
      const char = String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
      return /[A-Za-z0-9\-._~]/.test(char) ? char : sequence.toUpperCase();
    });

const bruteForceMatch = (pattern: string, p: number, path: string, s: number): boolean => {
  if (p === pattern.length) return true;
  if (pattern[p] === "$" && p === pattern.length - 1) return s === path.length;
  if (pattern[p] === "*") {
    for (let next = s; next <= path.length; next++) if (bruteForceMatch(pattern, p + 1, path, next)) return true;
    return false;
  }
  return s < path.length && path[s] === pattern[p] && bruteForceMatch(pattern, p + 1, path, s + 1);
};

// Files built from the shapes real robots.txt files have, Google's leniencies among them.
const VALID_AGENTS = ["*", "FooBot", "OAI-SearchBot", "GPTBot", "PerplexityBot", "Googlebot", "foobot", "gptbot"];
const ODD_AGENTS = ["OAI-SearchBot, PerplexityBot", "Googlebot/2.1", "* extra", "Foo Bar", "", "ツ", "GPTBot*"];
const VALID_PATHS = [
  "/",
  "/private/",
  "/private",
  "/*.pdf$",
  "/a*b",
  "/fish",
  "/fish/",
  "/page$",
  "/p?x=1",
  "/café",
  "/%e3%83%84",
  "/%20x",
  "/*",
  "/$",
  "/a$b",
  "",
];
const ODD_PATHS = ["/dir/index.html", "/%7Euser", "*.gif", "foo", "/a b", "/%2A"];
const KEYS = {
  agent: ["User-agent", "user-agent", "USER-AGENT", "User-Agent"],
  oddAgent: ["Useragent", "User agent", "User-agents"],
  allow: ["Allow", "allow", "ALLOW"],
  oddAllow: ["Allowed"],
  disallow: ["Disallow", "disallow", "DISALLOW"],
  oddDisallow: ["Disalow", "Dissallow", "Disallowed"],
};
const OTHER_LINES = [
  "Sitemap: https://x.test/sitemap.xml",
  "Crawl-delay: 10",
  "# a comment",
  "",
  "",
  "garbage line here",
  "Site-map: /s.xml",
  "Host: x.test",
];

const pick = <T>(valid: readonly T[], odd: readonly T[]) =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
const separator = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(": ", ":", " : ", ":\t") },
  { weight: 1, arbitrary: fc.constant(" ") },
);
const comment = fc.oneof({ weight: 5, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constant(" # note") });
const agentLine = fc
  .tuple(pick(KEYS.agent, KEYS.oddAgent), separator, pick(VALID_AGENTS, ODD_AGENTS), comment)
  .map((parts) => parts.join(""));
const ruleLine = fc
  .tuple(
    fc.oneof(pick(KEYS.allow, KEYS.oddAllow), pick(KEYS.disallow, KEYS.oddDisallow)),
    separator,
    pick(VALID_PATHS, ODD_PATHS),
    comment,
  )
  .map((parts) => parts.join(""));
const line = fc.oneof(
  { weight: 3, arbitrary: agentLine },
  { weight: 5, arbitrary: ruleLine },
  { weight: 2, arbitrary: fc.constantFrom(...OTHER_LINES) },
);
const robotsFile = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 14 }), fc.constantFrom("\n", "\r\n", "\r"))
  .map(([lines, end]) => lines.join(end));

const AGENTS = ["FooBot", "OAI-SearchBot", "PerplexityBot", "GPTBot", "Googlebot", "OtherBot"];
// URLs as a crawler requests them (WHATWG-serialized); none %-encodes an unreserved character
const URLS = [
  "/",
  "/private/x",
  "/private",
  "/privatex",
  "/doc.pdf",
  "/doc.pdf?x=1",
  "/a/b/c",
  "/axb",
  "/fish",
  "/fish/",
  "/fish.html",
  "/dir/",
  "/dir/index.html",
  "/page",
  "/page?x",
  "/p?x=1",
  "/café",
  "/caf%c3%a9",
  "/~user",
  "/ツ",
  "/x.gif",
  "/a b",
  "/*",
  "/a$b",
].map((path) => `https://x.test${path}`);

const seed = Number(process.env.ROBOTS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe(`RFC 9309 read strictly against the reader (seed ${seed}; replay with ROBOTS_PROPERTY_SEED=${seed})`, () => {
  it("agrees on every question for every file in which Google's leniencies do not apply", () => {
    let compared = 0;
    let flagged = 0;
    let flaggedDisagreeing = 0;
    fc.assert(
      fc.property(robotsFile, (body) => {
        const file = readRobotsFile(body, "https://x.test/robots.txt");
        const lenient = file.readings.some((reading) => reading.kind === "differs");
        const disagreements = AGENTS.flatMap((agent) =>
          URLS.filter(
            (url) => file.matcher.answer(agent, pathOfUrl(new URL(url))).allowed !== strictAllowed(body, agent, url),
          ).map((url) => `${agent} ${url}`),
        );
        if (lenient) {
          flagged++;
          if (disagreements.length > 0) flaggedDisagreeing++;
          return true;
        }
        compared++;
        expect(disagreements).toEqual([]);
        return true;
      }),
      { seed, numRuns: 600 },
    );
    // neither side of the property is empty: plain files are compared, and the leniencies matter
    expect(compared).toBeGreaterThan(100);
    expect(flagged).toBeGreaterThan(50);
    expect(flaggedDisagreeing).toBeGreaterThan(10);
  });
});
