import { lookup } from "node:dns/promises";
import { intFrom, type PortPolicy, parseAllowlist, parsePorts } from "@scan/platform";
import type { Browser } from "playwright-core";
import { z } from "zod";
import { BrowserPool, type RestartReason, resolveChromiumPath } from "./browser-pool";
import type { CaptureLimits } from "./capture";
import { createCachingResolver } from "./dns-cache";
import { type EgressProxy, startEgressProxy } from "./egress-proxy";
import type { FetchPolicy } from "./http-fetch";
import { type ScannedPage, type ScanRequest, scanPage } from "./scan-page";
import { createServedReader } from "./served-reader";
import { turns } from "./turns";

/** The system resolver's every address for a host: what the address policy vets. */
export const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

export const SCANNER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 AEOScan/0.1";

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
    "captures (fetch and render) at once per process, 0 for as many as scans at once; with `WORKER_CONCURRENCY` one more than it, one scan's checks run while the next page renders",
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

export type ScannerOptions = {
  chromiumPath?: string | undefined;
  /** `SCAN_ALLOWLIST`: host:port pairs that may be scanned although private */
  allowlist: string;
  /** `SCAN_PORTS`: ports a target may use */
  ports: string;
  limits: CaptureLimits;
  /**
   * Route every browser request through an address-checked egress proxy (the service does;
   * the command-line client on the caller's own machine vets each request in the page instead).
   */
  egress: boolean;
  /** reuse DNS answers across scans this long (0: no cache) */
  dnsCacheTtlMs?: number;
  /** how long a subresource's host may take to resolve before its request is blocked */
  subresourceDnsTimeoutMs?: number;
  recycleAfter?: number;
  /** launch Chromium with WebMCP enabled (`BROWSER_WEBMCP`; default true) */
  webmcp?: boolean;
  /** open the next scan's browser context ahead of time */
  spare?: boolean;
  onLaunch?: (browser: Browser) => void;
  onRestart?: (reason: RestartReason) => void;
  /**
   * Read a full scan's HTML as served on a thread of its own while the page renders
   * (served-reader.ts); default true.
   */
  readServedInThread?: boolean;
};

export type Scanner = {
  pool: BrowserPool;
  /** what every fetch of a scan obeys: the address policy, its resolvers and the user agent */
  policy: FetchPolicy;
  allowlist: ReadonlySet<string>;
  ports: PortPolicy;
  /** one page captured and judged; a target that cannot be fetched throws TargetError */
  scan: (request: ScanRequest) => Promise<ScannedPage>;
  close: () => Promise<void>;
};

/**
 * The page-scan pipeline, wired once per process: a browser pool, the address policy with its
 * resolvers, and (in the service) the egress proxy the browser's requests go through.
 * Throws when no Chromium is found.
 */
export const createScanner = (options: ScannerOptions): Scanner => {
  const allowlist = parseAllowlist(options.allowlist);
  const ports = parsePorts(options.ports);
  const executablePath = resolveChromiumPath(options.chromiumPath);
  const ttlMs = options.dnsCacheTtlMs ?? 0;
  const dns = createCachingResolver(resolveAll, {
    ttlMs,
    negativeTtlMs: Math.floor(ttlMs / 10),
    maxEntries: 10_000,
  });
  const resolveSubresource = dns(options.subresourceDnsTimeoutMs ?? 1_000);
  const egress: EgressProxy | null = options.egress
    ? startEgressProxy({ allowlist, resolve: resolveSubresource, ports })
    : null;
  const pool = new BrowserPool({
    executablePath,
    ...(egress ? { proxyServer: () => egress.url } : {}),
    recycleAfter: options.recycleAfter ?? 200,
    spare: options.spare ?? true,
    webmcp: options.webmcp ?? true,
    ...(options.onLaunch ? { onLaunch: options.onLaunch } : {}),
    ...(options.onRestart ? { onRestart: options.onRestart } : {}),
    contextOptions: { userAgent: SCANNER_USER_AGENT, serviceWorkers: "block", viewport: { width: 1280, height: 800 } },
  });
  const policy: FetchPolicy = {
    allowlist,
    // the page's own hosts get the scan's whole budget to resolve
    resolve: dns(options.limits.scanTimeoutMs),
    resolveSubresource,
    ports,
    userAgent: SCANNER_USER_AGENT,
  };
  const renderTurn = turns(options.limits.rendersAtOnce ?? 0);
  const servedReader =
    (options.readServedInThread ?? true) ? createServedReader({ timeoutMs: options.limits.scanTimeoutMs }) : undefined;
  return {
    pool,
    policy,
    allowlist,
    ports,
    scan: (request) => scanPage({ pool, policy, limits: options.limits, servedReader, renderTurn }, request),
    close: async () => {
      await pool.close();
      await egress?.close();
      await servedReader?.close();
    },
  };
};
