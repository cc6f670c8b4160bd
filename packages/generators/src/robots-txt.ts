import {
  AI_SEARCH_AGENTS,
  type Group,
  pathOfUrl,
  patternMatches,
  productTokenOf,
  type RobotsFile,
  readRobotsFile,
  robotsStatusOf,
  robotsText,
  validateRobotsTxt,
} from "@scan/checks";
import type { Snapshot } from "@scan/contract";
import type { TextFileFix } from "./llms-txt";
import type { PageFacts } from "./page-facts";

const CANONICAL = { "user-agent": "User-agent", allow: "Allow", disallow: "Disallow", sitemap: "Sitemap" } as const;

/**
 * A line Lighthouse rejects but Google obeys ("Disalow: /x", "Disallow /x", "User agent: X"),
 * written the way Google reads it; a User-agent value Google reads up to its first character
 * outside [a-zA-Z_-] ("A, B", "Googlebot/2.1"), cut there. Null when the line stays as it is.
 */
const asGoogleReadsIt = (file: RobotsFile, index: number): string | null => {
  const line = file.parsed.lines[index];
  const directive = line?.directive;
  if (!line || !directive || directive.kind === "other" || line.tooLong) return null;
  const orphan = file.parsed.orphanRules.includes(line.number);
  if (orphan) return null;
  let value = robotsText(directive.value);
  if (directive.kind === "user-agent" && value !== "*") {
    const global = value[0] === "*" && /\s/.test(value[1] ?? "");
    const token = global ? "*" : productTokenOf(directive.value);
    // a value with no token names no crawler, and no valid line says that: it stays
    if (token === "") return null;
    value = token;
  }
  const rewritten = `${CANONICAL[directive.kind]}: ${value}`;
  return rewritten === robotsText(line.raw).trim() ? null : rewritten;
};

type ReadState = { state: "parsed"; body: string } | { state: "unavailable" | "unreachable"; why: string };

const readState = (snapshot: Snapshot): ReadState => {
  const status = robotsStatusOf(snapshot.robotsTxt);
  if (status.state === "parsed") return { state: "parsed", body: snapshot.robotsTxt?.body ?? "" };
  return { state: status.state, why: status.why };
};

/** A sitemap the scan found and that is one (urlset or sitemapindex XML). */
const knownSitemap = (snapshot: Snapshot): string | null => {
  const sitemap = snapshot.sitemap;
  if (!sitemap || sitemap.status < 200 || sitemap.status >= 300) return null;
  return /<(?:[\w-]+:)?(?:urlset|sitemapindex)[\s>]/.test(sitemap.body ?? "") ? sitemap.url : null;
};

const AI_COMMENT = "# AI search and answer engines may fetch the site, so that their answers can cite it.";

/**
 * robots.txt that keeps the site's rules and lets the AI search and user agents of the
 * ai-search-access check (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User,
 * PerplexityBot, Perplexity-User) fetch the page, and that names the sitemap.
 *
 * - Every existing line stays, in order. A line Google obeys but other parsers may not
 *   ("Disalow: /x", "Disallow /x", "User-agent: A, B") is written as Google reads it
 *   ("Disallow: /x", "User-agent: A"), so every crawler reads it so; any other line that does
 *   not parse (robots-txt check) is kept as a comment, which changes nothing for Google.
 * - An AI agent whose own group already lets it fetch the page (and the home page) is left alone.
 *   The others get a group of their own at the end, holding `Allow: /` and the rules that
 *   governed them until now (their own group's, else the `*` group's) minus the Disallow rules
 *   that block the page or the home page; so /admin stays closed to them if it was. An agent
 *   named in a group that blocked it is taken out of that group (the line is commented); a group
 *   left with no agent is commented whole, so its rules do not fall to the group before it.
 * - Every other crawler, the training crawlers (GPTBot, ClaudeBot, Google-Extended, ...)
 *   included, is governed exactly as before: blocking those is the site's choice.
 * - The Sitemap lines stay; without one, the sitemap the scan found (robots.txt's or
 *   /sitemap.xml) is named. None is invented.
 * - Without a readable file (4xx or more than five redirects: none; 5xx, 429, no answer:
 *   unknown) the file is new: `*` may fetch everything, as RFC 9309 reads a missing file, plus
 *   the AI group.
 */
export const generateRobotsTxt = (facts: PageFacts, snapshot: Snapshot): TextFileFix => {
  const notes: string[] = [];
  const read = readState(snapshot);
  const robotsUrl = `${facts.origin}/robots.txt`;
  let lines: string[];
  if (read.state === "parsed") {
    lines = read.body.replace(/\s+$/, "").split(/\r\n|\r|\n/);
    if (lines.length === 1 && lines[0] === "") lines = [];
    if (snapshot.robotsTxt?.truncated)
      notes.push("robots.txt was longer than the scanner reads; merge the rest back in.");
    const original = readRobotsFile(read.body, robotsUrl);
    const errors = new Map(validateRobotsTxt(read.body).map((error) => [error.line, error]));
    const differs = new Set(original.readings.filter((reading) => reading.kind === "differs").map((r) => r.line));
    lines.forEach((text, index) => {
      const number = index + 1;
      const error = errors.get(number);
      if (!error && !differs.has(number)) return;
      const rewritten = asGoogleReadsIt(original, index);
      if (rewritten) {
        lines[index] = rewritten;
        const agent = original.parsed.lines[index]?.directive?.kind === "user-agent";
        notes.push(
          `Line ${number} "${text.trim()}" is now "${rewritten}", which every crawler reads as Google read the old line${agent ? "; name any other crawler it meant on a User-agent line of its own" : ""}.`,
        );
      } else if (error) {
        lines[index] = `# ${text} (not a valid robots.txt line: ${error.message})`;
        notes.push(`Line ${number} was not a valid robots.txt line (${error.message}); it is kept as a comment.`);
      } else {
        const reading = original.readings.find((candidate) => candidate.line === number);
        if (reading) {
          notes.push(
            `Line ${number} "${text.trim()}" is kept as it is; Google reads ${reading.google}, a strict RFC 9309 parser ${reading.strict}.`,
          );
        }
      }
    });
  } else {
    lines = ["User-agent: *", "Allow: /"];
    notes.push(
      read.state === "unavailable"
        ? `robots.txt ${read.why}, so crawlers may fetch everything; this is a new file that allows every crawler, as no file does.`
        : `robots.txt ${read.why}, so its rules are unknown; this is a new file: merge in any rules the site had.`,
    );
  }

  const file = readRobotsFile(lines.join("\n"), robotsUrl);
  const groups: readonly Group[] = file.parsed.groups;
  const pagePath = pathOfUrl(facts.page.finalUrl);
  const homePath = pathOfUrl(new URL(facts.home));
  const allows = (agent: string) =>
    file.matcher.answer(agent, pagePath).allowed && file.matcher.answer(agent, homePath).allowed;
  const blocksPage = (pattern: string): boolean =>
    patternMatches(pagePath, pattern) || patternMatches(homePath, pattern);
  const valueAt = (line: number): string => robotsText(file.parsed.lines[line - 1]?.directive?.value ?? "");

  // agents to move into AI groups, bucketed by the rules that governed them
  const buckets = new Map<string, { agents: string[]; rules: string[] }>();
  const commented = new Set<number>();
  for (const agent of AI_SEARCH_AGENTS) {
    const token = agent.toLowerCase();
    const names = (group: Group) => group.agents.some((line) => !line.global && line.token === token);
    const own = groups.filter(names);
    if (own.length > 0 && allows(agent)) continue;
    const governing = own.length > 0 ? own : groups.filter((group) => group.agents.some((line) => line.global));
    const rules = governing
      .flatMap((group) => group.rules)
      .filter((rule) => rule.pattern !== "" && (rule.allow || !blocksPage(rule.pattern)))
      .map((rule) => `${rule.allow ? "Allow" : "Disallow"}: ${valueAt(rule.line)}`)
      .filter((rule) => rule !== "Allow: /");
    const key = rules.join("\n");
    const bucket = buckets.get(key) ?? { agents: [], rules };
    bucket.agents.push(agent);
    buckets.set(key, bucket);
    for (const group of own) {
      for (const line of group.agents) if (!line.global && line.token === token) commented.add(line.line - 1);
    }
  }
  for (const group of groups) {
    if (group.agents.every((line) => commented.has(line.line - 1))) {
      for (const rule of group.rules) commented.add(rule.line - 1);
    }
  }
  const kept = lines.map((text, index) =>
    commented.has(index) ? `# ${text} (moved to the AI search group below)` : text,
  );

  const aiGroups = [...buckets.values()].map((bucket) =>
    [...bucket.agents.map((agent) => `User-agent: ${agent}`), "Allow: /", ...bucket.rules].join("\n"),
  );
  const moved = [...buckets.values()].flatMap((bucket) => bucket.agents);
  if (moved.length > 0) notes.push(`Allowed explicitly: ${moved.join(", ")}.`);

  const sitemapLines: string[] = [];
  if (file.sitemaps.length === 0) {
    const sitemap = knownSitemap(snapshot);
    if (sitemap) sitemapLines.push(`Sitemap: ${sitemap}`);
    else notes.push("No sitemap was found; add a Sitemap: line when the site publishes one.");
  }

  const parts = [kept.join("\n").trim()];
  if (aiGroups.length > 0) parts.push([AI_COMMENT, aiGroups.join("\n\n")].join("\n"));
  if (sitemapLines.length > 0) parts.push(sitemapLines.join("\n"));
  const content = `${parts.filter((part) => part !== "").join("\n\n")}\n`;
  return {
    addresses: ["ai-search-access", "robots-txt"],
    path: "/robots.txt",
    contentType: "text/plain; charset=utf-8",
    content,
    placement: `Serve this as ${facts.origin}/robots.txt (text/plain, status 200), replacing the current file.`,
    notes,
  };
};
