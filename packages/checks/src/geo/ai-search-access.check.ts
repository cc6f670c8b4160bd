import { defineCheck } from "../check";
import { AI_SEARCH_AGENTS, AI_TRAINING_AGENTS, OTHER_AI_SEARCH_AGENTS } from "../lib/ai-crawlers";
import { type RobotsRules, robotsBasis, robotsRules } from "../lib/robots";

export { AI_SEARCH_AGENTS, AI_TRAINING_AGENTS } from "../lib/ai-crawlers";

/** Who of `agents` robots.txt blocks and allows, as "blocked: A, B; allowed: C". */
const policy = (rules: RobotsRules, agents: readonly string[]): string => {
  const blocked = agents.filter((agent) => !rules.allows(agent));
  const allowed = agents.filter((agent) => rules.allows(agent));
  return [
    blocked.length > 0 ? `blocked: ${blocked.join(", ")}` : null,
    allowed.length > 0 ? `allowed: ${allowed.join(", ")}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join("; ");
};

const notScored = (rules: RobotsRules): string =>
  `Training crawlers ${policy(rules, AI_TRAINING_AGENTS)} (the site's choice; not scored). Other AI search agents ${policy(rules, OTHER_AI_SEARCH_AGENTS)} (not scored).`;

/**
 * Whether robots.txt lets the AI search and user agents fetch this URL, read exactly as Google
 * reads it (lib/robots-txt: the agent's own groups by product token, else `*`; the longest rule
 * wins, Allow on ties). Per RFC 9309 a robots.txt that answers 4xx, or still redirects after
 * five redirects, allows everything; one that answers 5xx, 429 or not at all disallows
 * everything; the description says which. ChatGPT-User, Claude-User and Perplexity-User fetch
 * on a user's request and may not honour robots.txt; they are judged by the file all the same,
 * since the file states what the site wants. The agents scored are the six of checks.md; the
 * training crawlers and the other AI search agents of lib/ai-crawlers.ts are reported, not
 * scored: keeping a site out of training data is a legitimate choice that does not keep it out
 * of AI answers.
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
    const basis = robotsBasis(rules);
    const training = notScored(rules);
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
          ? `Make ${page.finalUrl.origin}/robots.txt answer 200 with your rules (or 404 if you have none): a 5xx, 429 or timeout tells every crawler to stay away.`
          : `Allow ${blocked.join(", ")} in robots.txt, for example a group "User-agent: ${blocked[0] ?? "OAI-SearchBot"}" with "Allow: /"; training crawlers such as GPTBot can stay blocked in their own groups.`,
      evidence: [rules.state, ...blocked],
    };
  },
});
