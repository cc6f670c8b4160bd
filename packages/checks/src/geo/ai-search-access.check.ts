import { defineCheck } from "../check";
import { robotsRules } from "../lib/robots";

/** The agents that fetch pages to answer a user's question (search indexes and live fetches). */
export const AI_SEARCH_AGENTS = [
  "OAI-SearchBot",
  "ChatGPT-User",
  "Claude-SearchBot",
  "Claude-User",
  "PerplexityBot",
  "Perplexity-User",
] as const;

/** Crawlers that collect training data: blocking them is the site's choice, so not scored. */
export const AI_TRAINING_AGENTS = [
  "GPTBot",
  "ClaudeBot",
  "Google-Extended",
  "Applebot-Extended",
  "CCBot",
  "Meta-ExternalAgent",
  "Bytespider",
] as const;

/**
 * Whether robots.txt lets the AI search and user agents fetch this URL, with RFC 9309 matching
 * (robots-parser: the agent's own group, else `*`; longest rule wins). Per RFC 9309 a robots.txt
 * that answers 4xx allows everything and one that answers 5xx or not at all disallows
 * everything. ChatGPT-User and Perplexity-User are documented as fetching on a user's request
 * and possibly ignoring robots.txt; they are judged by the file all the same, since the file
 * states the site's intent.
 */
export const aiSearchAccess = defineCheck({
  id: "ai-search-access",
  category: "geo",
  severity: "critical",
  maxScore: 8,
  quick: true,
  title: "AI search engines may fetch the page",
  run: (page) => {
    const rules = robotsRules(page);
    const blocked = AI_SEARCH_AGENTS.filter((agent) => !rules.allows(agent));
    const training = AI_TRAINING_AGENTS.filter((agent) => !rules.allows(agent));
    const trainingNote =
      training.length === 0
        ? "Training crawlers (GPTBot, ClaudeBot, Google-Extended, ...) are allowed too; that is the site's choice and not scored."
        : `Training crawlers blocked: ${training.join(", ")} (the site's choice; not scored).`;
    const basis =
      rules.state === "parsed"
        ? "robots.txt"
        : rules.state === "missing"
          ? `robots.txt answers ${rules.status}, which allows every crawler`
          : `robots.txt could not be read (${rules.status === 0 ? "no answer" : `status ${rules.status}`}), which tells crawlers to assume everything is disallowed`;
    if (blocked.length === 0) {
      return {
        status: "pass",
        description: `${basis === "robots.txt" ? "robots.txt lets" : `${basis}; so`} all six AI search and user agents fetch this URL. ${trainingNote}`,
      };
    }
    const status = blocked.length === AI_SEARCH_AGENTS.length ? "fail" : "warn";
    return {
      status,
      description: `${basis === "robots.txt" ? "robots.txt" : basis}: ${blocked.length === AI_SEARCH_AGENTS.length ? "every AI search and user agent is" : `${blocked.join(", ")} ${blocked.length === 1 ? "is" : "are"}`} blocked from this URL, so AI answers cannot cite it. ${trainingNote}`,
      fix:
        rules.state === "unreachable"
          ? "Make /robots.txt answer 200 (or 404 if you have no rules); a 5xx or timeout tells every crawler to stay away."
          : `Allow ${blocked.join(", ")} in robots.txt (a group "User-agent: OAI-SearchBot" with "Allow: /", for example); training crawlers can stay blocked separately.`,
    };
  },
});
