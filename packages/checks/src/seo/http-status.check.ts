import { defineCheck } from "../check";

/**
 * Lighthouse `http-status-code`: the final document must not answer 4xx or 5xx. A redirect
 * loop and no response at all fail too (nothing was served). A final 1xx or 3xx (a redirect
 * that could not be followed) also fails: no page was served at that URL, though Lighthouse,
 * which only looks for 400-599, would let it pass.
 */
export const httpStatus = defineCheck({
  id: "http-status",
  category: "seo",
  severity: "critical",
  maxScore: 10,
  quick: true,
  title: "Page answers with a success status",
  run: ({ snapshot }) => {
    if (snapshot.redirectLoop) {
      return {
        status: "fail",
        description: `The URL redirects in a loop after ${snapshot.redirects.length} hops; no page is served.`,
        fix: "Break the redirect loop so the URL ends at a page that answers 200.",
      };
    }
    const { status } = snapshot;
    if (status === 0) {
      return {
        status: "fail",
        description: "The page sent no response.",
        fix: "Make sure the server answers this URL with the page and a 200 status.",
      };
    }
    if (status >= 200 && status < 300) {
      return { status: "pass", description: `The page answered HTTP ${status}.` };
    }
    if (status >= 400 && status < 600) {
      return {
        status: "fail",
        description: `The page answered HTTP ${status}; search engines do not index ${status >= 500 ? "server errors" : "error pages"}.`,
        fix:
          status >= 500
            ? "Fix the server error so the page answers 200."
            : "Serve the page with 200, or redirect (301) a moved page to its new URL.",
      };
    }
    return {
      status: "fail",
      description: `The page answered HTTP ${status}, which is not a page search engines can index.`,
      fix: "Serve the page itself with a 200 status.",
    };
  },
});
