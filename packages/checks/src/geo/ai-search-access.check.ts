import { defineCheck } from "../check";
import { type RobotsRules, robotsRules } from "../lib/robots";

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

/** What the rules rest on, in the words of RFC 9309 section 2.3.1. */
const basisOf = (rules: RobotsRules): string => {
  if (rules.state === "parsed") return `robots.txt (status ${rules.status})`;
  if (rules.state === "missing")
    return `robots.txt answers ${rules.status}; under RFC 9309 a robots.txt that answers 4xx allows every crawler everything`;
  const failure = rules.status === 0 ? "could not be fetched" : `answers ${rules.status}`;
  return `robots.txt ${failure}; under RFC 9309 an unreachable robots.txt (5xx, 429 or no answer) means every crawler must assume everything is disallowed`;
};

const trainingPolicy = (rules: RobotsRules): string => {
  const blocked = AI_TRAINING_AGENTS.filter((agent) => !rules.allows(agent));
  const allowed = AI_TRAINING_AGENTS.filter((agent) => rules.allows(agent));
  const parts = [
    blocked.length > 0 ? `blocked: ${blocked.join(", ")}` : null,
    allowed.length > 0 ? `allowed: ${allowed.join(", ")}` : null,
  ].filter((part): part is string => part !== null);
  return `Training crawlers ${parts.join("; ")} (the site's choice; not scored).`;
};

/**
 * Whether robots.txt lets the AI search and user agents fetch this URL, with RFC 9309 matching
 * (lib/robots.ts: the agent's own group by product token, else `*`; the longest rule wins, Allow
 * on ties). Per RFC 9309 a robots.txt that answers 4xx allows everything, and one that answers
 * 5xx, 429 or not at all disallows everything. ChatGPT-User, Claude-User and Perplexity-User
 * fetch on a user's request and may not honour robots.txt; they are judged by the file all the
 * same, since the file states what the site wants. The training crawlers' policy is reported,
 * not scored: keeping a site out of training data is a legitimate choice that does not keep it
 * out of AI answers.
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
    const basis = basisOf(rules);
    const training = trainingPolicy(rules);
    if (blocked.length === 0) {
      return {
        status: "pass",
        description: `${basis}: all six AI search and user agents (${AI_SEARCH_AGENTS.join(", ")}) may fetch this URL. ${training}`,
      };
    }
    const all = blocked.length === AI_SEARCH_AGENTS.length;
    const who = all
      ? "every AI search and user agent is"
      : `${blocked.join(", ")} ${blocked.length === 1 ? "is" : "are"}`;
    return {
      status: all ? "fail" : "warn",
      description: `${basis}: ${who} blocked from this URL, so ${all ? "AI answers" : "those services' answers"} cannot cite it. ${training}`,
      fix:
        rules.state === "unreachable"
          ? "Make /robots.txt answer 200 with your rules (or 404 if you have none): a 5xx, 429 or timeout tells every crawler to stay away."
          : `Allow ${blocked.join(", ")} in robots.txt, for example a group "User-agent: ${blocked[0] ?? "OAI-SearchBot"}" with "Allow: /"; training crawlers such as GPTBot can stay blocked in their own groups.`,
    };
  },
});
