import { SCAN_QUEUE, WEBHOOK_JOB, WEBHOOK_QUEUE, type WebhookJobPayload } from "@scan/contract";
import type { Db } from "@scan/db";
import { probeAll, type Readiness } from "@scan/platform";
import { type BrowserPool, captureLimitsOf, createScanner, resolveAll, type Scanner } from "@scan/scanner";
import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Config } from "./config";
import { createWorkerMetrics, type WorkerMetrics } from "./infra/metrics";
import { startReaper } from "./jobs/reaper";
import { createScanProcessor } from "./jobs/scan.job";
import { createWebhookProcessor } from "./jobs/webhook.job";

export type ScanWorkerDeps = { config: Config; db: Db; connection: Redis; log: Logger };

export type ScanWorker = {
  worker: Worker;
  /** delivers callbacks of finished scans */
  webhookWorker: Worker;
  scanner: Scanner;
  pool: BrowserPool;
  metrics: WorkerMetrics;
  /** browser launched, Redis and Postgres answering: the worker's /readyz */
  readiness: () => Promise<Readiness>;
  close: (timeoutMs: number) => Promise<void>;
};

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
  const metrics = createWorkerMetrics();
  const scanner = createScanner({
    chromiumPath: config.CHROMIUM_PATH,
    allowlist: config.SCAN_ALLOWLIST,
    ports: config.SCAN_PORTS,
    limits: captureLimitsOf(config),
    egress: true,
    dnsCacheTtlMs: config.DNS_CACHE_TTL_MS,
    subresourceDnsTimeoutMs: config.SUBRESOURCE_DNS_TIMEOUT_MS,
    recycleAfter: config.BROWSER_RECYCLE_AFTER,
    onLaunch: (browser) => log.info({ version: browser.version() }, "browser launched"),
    onRestart: (reason) => metrics.browserRestarts.inc({ reason }),
  });
  const { pool, allowlist } = scanner;
  if (allowlist.size > 0)
    log.warn({ allowlist: [...allowlist] }, "SCAN_ALLOWLIST is set: these private targets may be scanned");
  if (!config.WEBHOOK_SECRET) log.info("WEBHOOK_SECRET is not set: callbacks cannot be signed and will not be sent");
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
    scanner,
    log,
    metrics,
    enqueueCallback,
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
    await scanner.close();
  };
  return { worker, webhookWorker, scanner, pool, metrics, readiness, close };
};
