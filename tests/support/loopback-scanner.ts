import { createScanner, type Scanner } from "@scan/scanner";
import { type AgenticSite, serveSite } from "./agentic-sites";

/**
 * A scanner in real Chromium that reaches the loopback `origin` only (any port), with
 * `scanTimeoutMs` for a scan and the worker's default settle times: how the tests that serve their
 * own pages scan them in-process.
 */
export const loopbackScanner = (
  origin: string,
  scanTimeoutMs: number,
  quickRender: "auto" | "always" | "never" = "auto",
): Scanner =>
  createScanner({
    allowlist: origin.replace("http://", ""),
    ports: "*",
    egress: false,
    spare: false,
    limits: {
      scanTimeoutMs,
      settleTimeoutMs: { quick: 3_000, full: 8_000 },
      maxHtmlBytes: 5 * 1024 * 1024,
      maxRedirects: 10,
      quickRender,
    },
  });

/** Serves `site` on an origin of its own and scans its page in full with a scanner of its own; closes both. */
export const scanSiteFull = async (site: AgenticSite, scanTimeoutMs: number) => {
  const served = await serveSite(site);
  const scanner = loopbackScanner(served.origin, scanTimeoutMs);
  try {
    return await scanner.scan({ url: `${served.origin}${site.pagePath}`, mode: "full" });
  } finally {
    await scanner.close();
    await served.close();
  }
};
