import type { Page } from "../page";
import { perPage } from "./memo";

/**
 * One indexing directive from `<meta name="robots|googlebot|...">` or an `X-Robots-Tag`
 * header. `agent` is the crawler it is addressed to, lower-cased, or null for all crawlers.
 */
export type RobotsDirective = {
  source: "meta" | "header";
  agent: string | null;
  /** lower-cased directive name: noindex, nofollow, none, nosnippet, max-snippet, noai, ... */
  name: string;
  /** the value after the colon, for max-snippet:0, unavailable_after:<date>, ... */
  value: string | null;
};

// <meta name> values that carry robots directives: "robots" for all crawlers, or one crawler's
// token. Other meta names (description, viewport, ...) are not directives.
const META_AGENTS = new Set([
  "googlebot",
  "googlebot-news",
  "googlebot-image",
  "bingbot",
  "msnbot",
  "slurp",
  "yandex",
  "duckduckbot",
  "applebot",
  "gptbot",
  "oai-searchbot",
  "chatgpt-user",
  "claudebot",
  "claude-searchbot",
  "claude-user",
  "perplexitybot",
  "perplexity-user",
]);

// Directives that take a value ("max-snippet: 0"); anything else before a colon names a crawler.
const VALUED = new Set(["max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"]);

const parseList = (text: string, source: RobotsDirective["source"], agent: string | null): RobotsDirective[] => {
  const directives: RobotsDirective[] = [];
  let current = agent;
  for (const part of text.split(",")) {
    let token = part.trim();
    if (token === "") continue;
    const colon = token.indexOf(":");
    if (source === "header" && colon > 0) {
      const head = token.slice(0, colon).trim().toLowerCase();
      if (!VALUED.has(head)) {
        // "googlebot: noindex" switches the agent for this and the following directives
        current = head;
        token = token.slice(colon + 1).trim();
        if (token === "") continue;
      }
    }
    const at = token.indexOf(":");
    const name = (at > 0 ? token.slice(0, at) : token).trim().toLowerCase();
    const value = at > 0 ? token.slice(at + 1).trim() : null;
    directives.push({ source, agent: current, name, value });
  }
  return directives;
};

/** Every directive on the page, from the rendered DOM's meta tags and the response headers. */
export const robotsDirectives = perPage((page: Page): RobotsDirective[] => {
  const directives: RobotsDirective[] = [];
  for (const meta of page.doc.querySelectorAll("meta[name][content]")) {
    const name = (meta.getAttribute("name") ?? "").trim().toLowerCase();
    if (name !== "robots" && !META_AGENTS.has(name)) continue;
    const content = meta.getAttribute("content") ?? "";
    directives.push(...parseList(content, "meta", name === "robots" ? null : name));
  }
  const header = page.snapshot.headers["x-robots-tag"];
  if (header) directives.push(...parseList(header, "header", null));
  return directives;
});

/** The directives that apply to any of these crawlers (addressed to them or to all). */
export const directivesFor = (page: Page, agents: readonly string[]): RobotsDirective[] => {
  const wanted = new Set(agents.map((agent) => agent.toLowerCase()));
  return robotsDirectives(page).filter((d) => d.agent === null || wanted.has(d.agent));
};
