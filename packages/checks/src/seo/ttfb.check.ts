import { defineCheck } from "../check";

/**
 * Time to first byte of the document: ≤ 600 ms passes, ≤ 1,800 ms warns, slower fails
 * (web.dev's "good" and "poor" TTFB thresholds). Measured once from the scanner, so network
 * distance to the server counts in it.
 */
export const ttfb = defineCheck({
  id: "ttfb",
  category: "seo",
  severity: "info",
  maxScore: 3,
  quick: true,
  title: "Server responds quickly",
  run: ({ snapshot }) => {
    const ms = snapshot.ttfbMs;
    if (ms === null) return { status: "skip", description: "The time to first byte was not measured." };
    const rounded = Math.round(ms);
    if (ms <= 600) return { status: "pass", description: `The server sent the first byte after ${rounded} ms.` };
    return {
      status: ms <= 1800 ? "warn" : "fail",
      description: `The server took ${rounded.toLocaleString("en-US")} ms to send the first byte; 600 ms or less is good.`,
      fix: `Cache rendered pages (or serve them from a CDN) and speed up the server work done before the response starts: ${rounded.toLocaleString("en-US")} ms now, 600 ms or less is the aim.`,
      evidence: [String(rounded)],
    };
  },
});
