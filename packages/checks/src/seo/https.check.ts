import { defineCheck } from "../check";

/** The final URL is served over HTTPS (a ranking signal, and browsers mark http pages "Not secure"). */
export const https = defineCheck({
  id: "https",
  category: "seo",
  severity: "critical",
  maxScore: 6,
  quick: true,
  title: "Page is served over HTTPS",
  run: ({ finalUrl, snapshot }) => {
    if (finalUrl.protocol === "https:") {
      const upgraded = snapshot.requestedUrl.startsWith("http:") ? " (the http URL redirects to it)" : "";
      return { status: "pass", description: `The page is served over HTTPS${upgraded}.`, evidence: [finalUrl.href] };
    }
    return {
      status: "fail",
      description: `The page is served over plain HTTP (${finalUrl.href}).`,
      fix: `Serve ${finalUrl.host} over HTTPS and redirect every http:// URL, ${finalUrl.href} included, to its https:// equivalent with a 301.`,
      evidence: [finalUrl.href],
    };
  },
});
