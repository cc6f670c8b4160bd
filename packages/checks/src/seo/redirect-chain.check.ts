import { defineCheck } from "../check";

/**
 * Redirect hops before the final document: 0 or 1 pass (http→https or a moved page), 2 warn,
 * 3 or more fail, as does a loop. Each hop costs a round trip and crawlers follow only a few.
 */
export const redirectChain = defineCheck({
  id: "redirect-chain",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: false,
  title: "Few redirects before the page",
  run: ({ snapshot }) => {
    const hops = snapshot.redirects;
    const chain = [...hops.map((hop) => `${hop.url} (${hop.status})`), snapshot.finalUrl].join(" → ");
    const fix = `Link and redirect straight to the final URL (${snapshot.finalUrl}) in a single hop.`;
    if (snapshot.redirectLoop) {
      return { status: "fail", description: `The redirects loop: ${chain}.`, fix, evidence: [chain] };
    }
    if (hops.length === 0) return { status: "pass", description: "The URL answers without redirects." };
    if (hops.length === 1) return { status: "pass", description: `One redirect: ${chain}.` };
    return {
      status: hops.length === 2 ? "warn" : "fail",
      description: `${hops.length} redirects before the page: ${chain}.`,
      fix,
      evidence: [chain],
    };
  },
});
