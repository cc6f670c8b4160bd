import { lookup } from "node:dns/promises";
import type { Db } from "@scan/db/client";
import { parseAllowlist } from "@scan/shared/address-policy";
import { SCAN_QUEUE } from "@scan/shared/jobs";
import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Config } from "./config";
import { BrowserPool, resolveChromiumPath } from "./infra/browser-pool";
import { createScanProcessor } from "./jobs/scan.job";

export type ScanWorkerDeps = { config: Config; db: Db; connection: Redis; log: Logger };

export type ScanWorker = { worker: Worker; pool: BrowserPool; close: (timeoutMs: number) => Promise<void> };

export const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

export const SCANNER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 AEOScan/0.1";

/** Builds the scan worker: one browser pool, one BullMQ worker pulling from the scan queue. */
export const createScanWorker = ({ config, db, connection, log }: ScanWorkerDeps): ScanWorker => {
  const allowlist = parseAllowlist(config.SCAN_ALLOWLIST);
  if (allowlist.size > 0)
    log.warn({ allowlist: [...allowlist] }, "SCAN_ALLOWLIST is set: these private targets may be scanned");
  const pool = new BrowserPool({
    executablePath: resolveChromiumPath(config.CHROMIUM_PATH),
    recycleAfter: config.BROWSER_RECYCLE_AFTER,
    onLaunch: (browser) => log.info({ version: browser.version() }, "browser launched"),
    contextOptions: { userAgent: SCANNER_USER_AGENT, serviceWorkers: "block", viewport: { width: 1280, height: 800 } },
  });
  const processor = createScanProcessor({
    db,
    pool,
    log,
    policy: { allowlist, resolve: resolveAll, userAgent: SCANNER_USER_AGENT },
    limits: {
      scanTimeoutMs: config.SCAN_TIMEOUT_MS,
      settleTimeoutMs: { quick: config.SETTLE_QUICK_MS, full: config.SETTLE_FULL_MS },
      maxHtmlBytes: config.MAX_HTML_BYTES,
      maxRedirects: config.MAX_REDIRECTS,
    },
  });
  const worker = new Worker(SCAN_QUEUE, processor, {
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    // a scan that outlives its timeout by this much is considered stalled and handed back
    lockDuration: config.SCAN_TIMEOUT_MS + 10_000,
    maxStalledCount: 1,
  });
  worker.on("error", (error) => log.error({ err: error }, "worker error"));
  // a browser that cannot start now is retried by the first scan, which then fails loudly
  pool.warm().catch((error: unknown) => log.error({ err: error }, "browser did not start"));

  const close = async (timeoutMs: number) => {
    // stop taking jobs, let running scans finish within the bound, then close what we own
    const finished = worker.close();
    const bounded = await Promise.race([
      finished.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref()),
    ]);
    if (!bounded) {
      log.warn("in-flight scans did not finish in time; handing them back to the queue");
      await worker.close(true);
    }
    await pool.close();
  };
  return { worker, pool, close };
};
