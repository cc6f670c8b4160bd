import { lookup } from "node:dns/promises";
import type { Db } from "@scan/db/client";
import { parseAllowlist, parsePorts } from "@scan/shared/address-policy";
import { SCAN_QUEUE, WEBHOOK_JOB, WEBHOOK_QUEUE, type WebhookJobPayload } from "@scan/shared/jobs";
import { probeAll, type Readiness } from "@scan/shared/readiness";
import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { type Config, captureLimitsOf } from "./config";
import { BrowserPool, resolveChromiumPath } from "./infra/browser-pool";
import { createCachingResolver } from "./infra/dns-cache";
import { type EgressProxy, startEgressProxy } from "./infra/egress-proxy";
import { createWorkerMetrics, type WorkerMetrics } from "./infra/metrics";
import { startReaper } from "./jobs/reaper";
import { createScanProcessor } from "./jobs/scan.job";
import { createWebhookProcessor } from "./jobs/webhook.job";

export type ScanWorkerDeps = { config: Config; db: Db; connection: Redis; log: Logger };

export type ScanWorker = {
  worker: Worker;
  /** delivers callbacks of finished scans */
  webhookWorker: Worker;
  pool: BrowserPool;
  egress: EgressProxy;
  metrics: WorkerMetrics;
  /** browser launched, Redis and Postgres answering: the worker's /readyz */
  readiness: () => Promise<Readiness>;
  close: (timeoutMs: number) => Promise<void>;
};

export const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

export const SCANNER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 AEOScan/0.1";

export const WEBHOOK_USER_AGENT = "AEOScan-Webhook/0.1";

/** how long a queue client gets to close once its work is done or abandoned */
const CLIENT_CLOSE_MS = 2_000;

/** true when the promise settles within ms, false when the time runs out first */
const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
  ]);

/**
 * Builds the worker: one browser pool, one BullMQ worker pulling scans, one delivering
 * callbacks, and the metrics and readiness its ops port serves.
 */
export const createScanWorker = ({ config, db, connection, log }: ScanWorkerDeps): ScanWorker => {
  const allowlist = parseAllowlist(config.SCAN_ALLOWLIST);
  if (allowlist.size > 0)
    log.warn({ allowlist: [...allowlist] }, "SCAN_ALLOWLIST is set: these private targets may be scanned");
  const ports = parsePorts(config.SCAN_PORTS);
  const dns = createCachingResolver(resolveAll, {
    ttlMs: config.DNS_CACHE_TTL_MS,
    negativeTtlMs: Math.floor(config.DNS_CACHE_TTL_MS / 10),
    maxEntries: 10_000,
  });
  const resolveSubresource = dns(config.SUBRESOURCE_DNS_TIMEOUT_MS);
  const egress = startEgressProxy({ allowlist, resolve: resolveSubresource, ports });
  if (!config.WEBHOOK_SECRET) log.info("WEBHOOK_SECRET is not set: callbacks cannot be signed and will not be sent");
  const metrics = createWorkerMetrics();
  const pool = new BrowserPool({
    executablePath: resolveChromiumPath(config.CHROMIUM_PATH),
    proxyServer: () => egress.url,
    recycleAfter: config.BROWSER_RECYCLE_AFTER,
    onLaunch: (browser) => log.info({ version: browser.version() }, "browser launched"),
    onRestart: (reason) => metrics.browserRestarts.inc({ reason }),
    contextOptions: { userAgent: SCANNER_USER_AGENT, serviceWorkers: "block", viewport: { width: 1280, height: 800 } },
  });
  metrics.watchPool(pool);

  const webhooks = new Queue(WEBHOOK_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  webhooks.on("error", (error) => log.warn({ err: error.message }, "webhook queue error"));
  const enqueueCallback = async (payload: WebhookJobPayload) => {
    await webhooks.add(WEBHOOK_JOB.name, payload, {
      jobId: payload.scanId,
      attempts: config.WEBHOOK_ATTEMPTS,
      backoff: { type: "exponential", delay: config.WEBHOOK_BACKOFF_MS },
      removeOnComplete: WEBHOOK_JOB.keepCompleted,
      removeOnFail: WEBHOOK_JOB.keepFailed,
    });
  };

  const processor = createScanProcessor({
    db,
    pool,
    log,
    metrics,
    enqueueCallback,
    policy: {
      allowlist,
      // the page's own hosts get the scan's whole budget to resolve
      resolve: dns(config.SCAN_TIMEOUT_MS),
      resolveSubresource,
      ports,
      userAgent: SCANNER_USER_AGENT,
    },
    limits: captureLimitsOf(config),
    snapshots: { maxBytes: config.SNAPSHOT_MAX_BYTES, retentionS: config.SNAPSHOT_RETENTION_S },
  });
  const worker = new Worker(SCAN_QUEUE, processor, {
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    // a scan that outlives its timeout by this much is considered stalled and handed back
    lockDuration: config.SCAN_TIMEOUT_MS + 10_000,
    // checked as often as a lock can expire, so a killed worker's scan is picked up again soon
    stalledInterval: Math.min(30_000, config.SCAN_TIMEOUT_MS + 10_000),
    maxStalledCount: 1,
  });
  // the reaper reads job states; a Queue on the worker's connection (the Worker blocks on its own)
  const queue = new Queue(SCAN_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  queue.on("error", (error) => log.warn({ err: error.message }, "queue error"));
  const stopReaper = startReaper(
    { db, queue, orphanAfterMs: config.ORPHAN_AFTER_MS ?? 2 * (config.SCAN_TIMEOUT_MS + 10_000), log },
    config.REAPER_INTERVAL_MS,
  );
  worker.on("error", (error) => log.error({ err: error }, "worker error"));

  const webhookWorker = new Worker(
    WEBHOOK_QUEUE,
    createWebhookProcessor({
      db,
      secret: config.WEBHOOK_SECRET,
      policy: { allowlist, resolve: resolveAll, userAgent: WEBHOOK_USER_AGENT },
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      backoffMs: config.WEBHOOK_BACKOFF_MS,
      log,
      metrics,
    }),
    {
      connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WEBHOOK_CONCURRENCY,
      lockDuration: config.WEBHOOK_TIMEOUT_MS + 10_000,
    },
  );
  webhookWorker.on("error", (error) => log.error({ err: error }, "webhook worker error"));

  // a browser that cannot start now is retried by the first scan, which then fails loudly
  pool.warm().catch((error: unknown) => log.error({ err: error }, "browser did not start"));

  const readiness = () =>
    probeAll(
      {
        browser: async () => pool.ready,
        // the shared connection queues commands while it reconnects: ask only when it is up
        redis: async () => {
          if (connection.status !== "ready") throw new Error(`redis connection is ${connection.status}`);
          return connection.ping();
        },
        postgres: () => db.$queryRaw`SELECT 1`,
      },
      config.READY_TIMEOUT_MS,
      (name, cause) => log.warn({ dependency: name, err: (cause as Error).message }, "readiness probe failed"),
    );

  const close = async (timeoutMs: number) => {
    // stop taking jobs, let running scans and deliveries finish within the bound, then close what we own
    const drained = await within(Promise.all([worker.close(), webhookWorker.close()]), timeoutMs);
    if (!drained) {
      log.warn("in-flight work did not finish in time; handing it back to the queue");
      // a client caught between reconnect attempts never reports its end: bound the forced close too
      await within(Promise.all([worker.close(true), webhookWorker.close(true)]), CLIENT_CLOSE_MS);
    }
    await stopReaper();
    await within(queue.close(), CLIENT_CLOSE_MS);
    await within(webhooks.close(), CLIENT_CLOSE_MS);
    await pool.close();
    await egress.close();
  };
  return { worker, webhookWorker, pool, egress, metrics, readiness, close };
};
