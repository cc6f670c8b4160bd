import { defineCheck } from "../check";
import { directivesFor, type RobotsDirective } from "../lib/meta-robots";
import { robotsRules } from "../lib/robots";
import type { Page } from "../page";

const GOOGLEBOT = "Googlebot";

/** noindex, none, or an unavailable_after date already past at scan time. */
const blocks = (directive: RobotsDirective, scannedAt: Date): boolean => {
  if (directive.name === "noindex" || directive.name === "none") return true;
  if (directive.name !== "unavailable_after" || !directive.value) return false;
  const date = Date.parse(directive.value);
  return !Number.isNaN(date) && date < scannedAt.getTime();
};

const describe = (directive: RobotsDirective): string => {
  const where = directive.source === "header" ? "X-Robots-Tag header" : `<meta name="${directive.agent ?? "robots"}">`;
  const what = directive.value ? `${directive.name}: ${directive.value}` : directive.name;
  const agent = directive.source === "header" && directive.agent ? ` for ${directive.agent}` : "";
  return `${where}${agent} says "${what}"`;
};

// Meta tags of the served HTML, found without a second full parse: Google does not render a page
// whose served HTML says noindex, even if a script later removes the tag.
const RAW_META = /<meta\b[^>]*>/gi;
const attribute = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "") : null;
};
const rawNoindex = (page: Page): string | null => {
  if (page.snapshot.rawHtml === page.snapshot.renderedHtml) return null;
  for (const [tag] of page.snapshot.rawHtml.matchAll(RAW_META)) {
    const name = attribute(tag, "name")?.trim().toLowerCase();
    if (name !== "robots" && name !== "googlebot") continue;
    const content = attribute(tag, "content") ?? "";
    const tokens = content.split(",").map((token) => token.trim().toLowerCase());
    if (tokens.includes("noindex") || tokens.includes("none"))
      return `the served HTML's <meta name="${name}"> says "${content.trim()}"`;
  }
  return null;
};

/**
 * Lighthouse `is-crawlable`, judged for Google: the page is blocked when meta robots or
 * googlebot, or an X-Robots-Tag for all crawlers or Googlebot, says `noindex` or `none` or has
 * a past `unavailable_after`, or when robots.txt disallows the URL for Googlebot (its own group,
 * else `*`). Both meta tags count, as Google applies the most restrictive rule. Beyond
 * Lighthouse: a noindex in the served HTML counts even when scripts remove it (Google skips
 * rendering such pages). Deliberate difference: Lighthouse 12 fails only when every crawler it
 * knows (Googlebot, bingbot, DuckDuckBot, archive.org_bot, generic) is blocked; a page blocked
 * for Googlebot alone fails here, since it will not be in Google's index. robots.txt is read
 * exactly as Google reads it (lib/robots-txt). An unreachable robots.txt is reported by the
 * robots-txt check, not treated as a block here.
 */
export const indexable = defineCheck({
  id: "indexable",
  category: "seo",
  severity: "critical",
  maxScore: 10,
  quick: true,
  title: "Search engines may index the page",
  run: (page) => {
    const reasons = directivesFor(page, ["googlebot"])
      .filter((directive) => blocks(directive, page.scannedAt))
      .map(describe);
    const raw = rawNoindex(page);
    if (raw) reasons.push(raw);
    const robots = robotsRules(page);
    const answer = robots.answer(GOOGLEBOT);
    if (answer && !answer.allowed) {
      const line = answer.rule ? ` (line ${answer.rule.line})` : "";
      reasons.push(`robots.txt disallows ${page.finalUrl.pathname} for Googlebot${line}`);
    }
    if (reasons.length > 0) {
      return {
        status: "fail",
        description: `Search engines are told not to index this page: ${reasons.join("; ")}.`,
        fix: `If this page should appear in search results, remove what blocks it: ${reasons.join("; ")}.`,
        evidence: reasons,
      };
    }
    const robotsNote =
      robots.state === "parsed"
        ? "robots.txt allows Googlebot"
        : robots.state === "unavailable"
          ? `robots.txt ${robots.why}, so it restricts nothing`
          : page.snapshot.robotsTxt
            ? `robots.txt could not be read (it ${robots.why})`
            : "robots.txt was not fetched";
    return {
      status: "pass",
      description: `No noindex directive applies to this page, and ${robotsNote}.`,
      evidence: [robotsNote],
    };
  },
});
