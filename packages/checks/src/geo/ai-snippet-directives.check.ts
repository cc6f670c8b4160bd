import { defineCheck } from "../check";
import { type RobotsDirective, robotsDirectives } from "../lib/meta-robots";

const restricts = (directive: RobotsDirective): boolean => {
  if (directive.name === "nosnippet" || directive.name === "noai" || directive.name === "noimageai") return true;
  return directive.name === "max-snippet" && directive.value?.trim() === "0";
};

const describeDirective = (directive: RobotsDirective): string => {
  const where = directive.source === "header" ? "X-Robots-Tag" : `<meta name="${directive.agent ?? "robots"}">`;
  return `${where}: ${directive.value === null ? directive.name : `${directive.name}:${directive.value}`}`;
};

/**
 * No directive that keeps the page's text out of answers: `nosnippet` and `max-snippet:0`
 * (Google applies them to AI Overviews too), and the `noai`/`noimageai` conventions some AI
 * crawlers honour. Directives for any crawler count, since each removes the page from that
 * engine's answers. `data-nosnippet` on parts of a page is fine and not looked at.
 */
export const aiSnippetDirectives = defineCheck({
  id: "ai-snippet-directives",
  category: "geo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Answers may quote the page",
  run: (page) => {
    const found = robotsDirectives(page).filter(restricts);
    if (found.length === 0) {
      return {
        status: "pass",
        description: "No nosnippet, max-snippet:0, noai or noimageai directive limits quoting this page.",
      };
    }
    return {
      status: "fail",
      description: `The page forbids quoting it in answers: ${found.map(describeDirective).join("; ")}.`,
      fix: `Remove ${found.map(describeDirective).join("; ")}, or use data-nosnippet on only the parts that must not be quoted.`,
      evidence: found.map(describeDirective),
    };
  },
});
