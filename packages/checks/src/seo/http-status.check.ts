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
        fix: `Break the redirect loop of ${snapshot.requestedUrl} so the URL ends at a page that answers 200.`,
        evidence: snapshot.redirects.map((hop) => `${hop.url} ${hop.status}`),
      };
    }
    const { status } = snapshot;
    const url = snapshot.finalUrl;
    if (status === 0) {
      return {
        status: "fail",
        description: `${url} sent no response.`,
        fix: `Make sure the server answers ${url} with the page and a 200 status.`,
        evidence: [url, "0"],
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
            ? `Fix the server error (HTTP ${status}) so ${url} answers 200.`
            : `Serve ${url} with 200 instead of ${status}, or redirect (301) a moved page to its new URL.`,
        evidence: [url, String(status)],
      };
    }
    return {
      status: "fail",
      description: `The page answered HTTP ${status}, which is not a page search engines can index.`,
      fix: `Serve the page itself at ${url} with a 200 status instead of ${status}.`,
      evidence: [url, String(status)],
    };
  },
});
