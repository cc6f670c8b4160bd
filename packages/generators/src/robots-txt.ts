import { AI_SEARCH_AGENTS, validateRobotsTxt } from "@scan/checks";
import type { Snapshot } from "@scan/contract";
import robotsParser from "robots-parser";
import type { TextFileFix } from "./llms-txt";
import type { PageFacts } from "./page-facts";

type Directive = { key: string; value: string };
type Group = { agentLines: number[]; ruleLines: number[]; tokens: string[] };

/** A line as robots parsers read it: comment cut, split at the first colon, key lower-cased. */
const directiveOf = (text: string): Directive | null => {
  const line = (text.split("#")[0] ?? "").trim();
  const colon = line.indexOf(":");
  if (line === "" || colon === -1) return null;
  return { key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
};

/** The product token a User-agent value names ("Googlebot/2.1" → "googlebot"), as robots-parser matches it. */
const tokenOf = (value: string): string => (value.toLowerCase().split("/")[0] ?? "").trim();

/**
 * Groups as robots-parser (and RFC 9309) form them: a run of User-agent lines starts a group,
 * and the rules up to the next such run belong to it. Comments and blank lines do not end a run.
 */
const groupsOf = (lines: readonly string[]): Group[] => {
  const groups: Group[] = [];
  let current: Group | null = null;
  let inAgentRun = false;
  lines.forEach((text, index) => {
    const directive = directiveOf(text);
    if (!directive) return;
    if (directive.key === "user-agent") {
      if (!inAgentRun || !current) {
        current = { agentLines: [], ruleLines: [], tokens: [] };
        groups.push(current);
      }
      current.agentLines.push(index);
      current.tokens.push(tokenOf(directive.value));
      inAgentRun = true;
      return;
    }
    inAgentRun = false;
    if (current && (directive.key === "allow" || directive.key === "disallow")) current.ruleLines.push(index);
  });
  return groups;
};

type ReadState =
  | { state: "parsed"; body: string }
  | { state: "missing"; status: number }
  | { state: "unreadable"; why: string };

const readState = (snapshot: Snapshot): ReadState => {
  const resource = snapshot.robotsTxt;
  if (!resource) return { state: "unreadable", why: "was not fetched" };
  const { status } = resource;
  if (status >= 200 && status < 300) return { state: "parsed", body: resource.body ?? "" };
  if (status >= 400 && status < 500 && status !== 429) return { state: "missing", status };
  return {
    state: "unreadable",
    why: status === 0 ? `could not be fetched (${resource.error ?? "no answer"})` : `answered ${status}`,
  };
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
 * - Every existing line stays, in order; a line that does not parse (robots-txt check) is kept
 *   as a comment, which changes nothing for crawlers, which ignore it already.
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
 * - Without a readable file (4xx: none; 5xx, 429, no answer: unknown) the file is new: `*` may
 *   fetch everything, as RFC 9309 reads a missing file, plus the AI group.
 */
export const generateRobotsTxt = (facts: PageFacts, snapshot: Snapshot): TextFileFix => {
  const notes: string[] = [];
  const read = readState(snapshot);
  const robotsUrl = `${facts.origin}/robots.txt`;
  const pageUrl = facts.page.finalUrl.href;
  let lines: string[];
  if (read.state === "parsed") {
    lines = read.body.replace(/\s+$/, "").split(/\r\n|\r|\n/);
    if (lines.length === 1 && lines[0] === "") lines = [];
    if (snapshot.robotsTxt?.truncated)
      notes.push("robots.txt was longer than the scanner reads; merge the rest back in.");
    for (const error of validateRobotsTxt(read.body)) {
      const index = error.line - 1;
      if (index < lines.length) {
        lines[index] = `# ${lines[index]} (not a valid robots.txt line: ${error.message})`;
        notes.push(`Line ${error.line} was not a valid robots.txt line (${error.message}); it is kept as a comment.`);
      }
    }
  } else {
    lines = ["User-agent: *", "Allow: /"];
    notes.push(
      read.state === "missing"
        ? `The site has no robots.txt (HTTP ${read.status}); this is a new file that allows every crawler, as no file does.`
        : `robots.txt ${read.why}, so its rules are unknown; this is a new file: merge in any rules the site had.`,
    );
  }

  const parsed = robotsParser(robotsUrl, lines.join("\n"));
  const groups = groupsOf(lines);
  const allows = (agent: string) =>
    parsed.isAllowed(pageUrl, agent) !== false && parsed.isAllowed(facts.home, agent) !== false;
  const blocksPage = (pattern: string): boolean => {
    const single = robotsParser(robotsUrl, `User-agent: x\nDisallow: ${pattern}`);
    return single.isAllowed(pageUrl, "x") === false || single.isAllowed(facts.home, "x") === false;
  };

  // agents to move into AI groups, bucketed by the rules that governed them
  const buckets = new Map<string, { agents: string[]; rules: string[] }>();
  const commented = new Set<number>();
  for (const agent of AI_SEARCH_AGENTS) {
    const token = agent.toLowerCase();
    const own = groups.filter((group) => group.tokens.includes(token));
    if (own.length > 0 && allows(agent)) continue;
    const governing = own.length > 0 ? own : groups.filter((group) => group.tokens.includes("*"));
    const rules = governing
      .flatMap((group) => group.ruleLines)
      .map((index) => directiveOf(lines[index] ?? ""))
      .filter((directive): directive is Directive => directive !== null && directive.value !== "")
      .filter((directive) => directive.key === "allow" || !blocksPage(directive.value))
      .map((directive) => `${directive.key === "allow" ? "Allow" : "Disallow"}: ${directive.value}`)
      .filter((rule) => rule !== "Allow: /");
    const key = rules.join("\n");
    const bucket = buckets.get(key) ?? { agents: [], rules };
    bucket.agents.push(agent);
    buckets.set(key, bucket);
    for (const group of own) {
      group.tokens.forEach((groupToken, position) => {
        if (groupToken === token) commented.add(group.agentLines[position] as number);
      });
    }
  }
  for (const group of groups) {
    if (group.agentLines.every((index) => commented.has(index))) {
      for (const index of group.ruleLines) commented.add(index);
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
  if (parsed.getSitemaps().length === 0) {
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
