import { intFrom } from "@scan/platform";
import { z } from "zod";
import type { CaptureLimits } from "./capture";

// @scan/scanner/settings: read by the command-line client's config without the pipeline and its
// browser driver, which a run through the API does not need

/**
 * The settings a scan of one page reads, from the environment; the worker's and the
 * command-line client's config schemas both spread them, so both read them alike.
 */
export const ScanSettings = {
  CHROMIUM_PATH: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the browser; unset: Playwright's browser if installed, else Debian's headless shell `/usr/lib/chromium/chromium-headless-shell`, else `/usr/lib/chromium/chromium`, else `/usr/bin/chromium`",
    ),
  SCAN_TIMEOUT_MS: intFrom(20_000, 1_000, 120_000).describe("one page's whole capture, fetch and render"),
  SETTLE_QUICK_MS: intFrom(3_000, 100, 60_000).describe(
    "how long a quick scan's render may take to reach DOMContentLoaded",
  ),
  SETTLE_FULL_MS: intFrom(8_000, 100, 60_000).describe(
    "how long a full scan's render may take to reach the load event",
  ),
  MAX_HTML_BYTES: intFrom(5 * 1024 * 1024, 64 * 1024, 50 * 1024 * 1024).describe(
    "HTML read from the target; the rest is cut",
  ),
  MAX_REDIRECTS: intFrom(10, 0, 20).describe("redirect hops followed"),
  SCAN_RENDERS_AT_ONCE: intFrom(0, 0, 32).describe(
    "captures (fetch and render; a full scan's until its axe-core run ends) at once per process, 0 for as many as scans at once; with `WORKER_CONCURRENCY` one more than it, one scan's checks run while the next page renders",
  ),
  BROWSER_WEBMCP: z
    .enum(["on", "off"])
    .default("on")
    .describe(
      "`on` launches Chromium with WebMCP enabled (`--enable-features=WebMCP`), so full scans read the tools a page registers for agents; `off` without it (the WebMCP checks then skip)",
    ),
  QUICK_RENDER: z
    .enum(["auto", "always", "never"])
    .default("auto")
    .describe(
      "quick scans: `auto` judges server-rendered pages on their served HTML and renders the rest; `always` renders every page; `never` renders none",
    ),
};

type ScanSettingValues = { [K in keyof typeof ScanSettings]: z.infer<(typeof ScanSettings)[K]> };

/** The capture's limits, from the settings the worker and the in-process client both read. */
export const captureLimitsOf = (
  config: Omit<ScanSettingValues, "CHROMIUM_PATH" | "BROWSER_WEBMCP">,
): CaptureLimits => ({
  scanTimeoutMs: config.SCAN_TIMEOUT_MS,
  settleTimeoutMs: { quick: config.SETTLE_QUICK_MS, full: config.SETTLE_FULL_MS },
  maxHtmlBytes: config.MAX_HTML_BYTES,
  maxRedirects: config.MAX_REDIRECTS,
  quickRender: config.QUICK_RENDER,
  rendersAtOnce: config.SCAN_RENDERS_AT_ONCE,
});
