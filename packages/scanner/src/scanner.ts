import { lookup } from "node:dns/promises";
import { type PortPolicy, parseAllowlist, parsePorts } from "@scan/platform";
import type { Browser } from "playwright-core";
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
