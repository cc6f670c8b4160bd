import { hostname } from "node:os";
import { resolve as resolvePath } from "node:path";
import { createReportRenderer } from "@scan/client-reports";
import type { Db } from "@scan/db";
import { probeAll, type Readiness, siteSecretsBox, warnIfRedisEvicts } from "@scan/platform";
import {
  ALERT_JOB,
  type AlertJobPayload,
  AUDIT_JOBS,
  alertJobId,
  REPORT_MAIL_JOB,
  type ReportMailJobPayload,
  reportMailJobId,
  SCAN_JOB,
  SCAN_QUEUE,
  VISIBILITY_JOBS,
  VISIBILITY_QUEUE,
  visibilitySampleJob,
  WEBHOOK_JOB,
  WEBHOOK_QUEUE,
  WebhookJobPayload,
} from "@scan/queue";
import { captureLimitsOf, createScanner, resolveAll, type Scanner } from "@scan/scanner";
import { operatorEnginesOf, visibilityBudgetsOf } from "@scan/visibility";
import { type Job, type MinimalJob, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { createTransport } from "nodemailer";
import type { Logger } from "pino";
import type { Config } from "./config";
import { createDatabaseWait } from "./domain/database-wait";
import { createRedirectFollower } from "./domain/follow-redirect";
import { createHostSlots } from "./domain/host-slots";
import { createScanGate, scanQueueLoad } from "./domain/scan-gate";
import { createSiteAccessReader } from "./domain/site-access";
import { pendingAlertsOf, visibilityAlertsOnCompletion } from "./domain/visibility-alerts";
import { createWorkerMetrics, type WorkerMetrics } from "./infra/metrics";
import { createAlertProcessor } from "./jobs/alert.job";
import { createAuditDiscoverJob } from "./jobs/audit-discover.job";
import { createAuditPageJob } from "./jobs/audit-page.job";
import { createAuditReportJob } from "./jobs/audit-report.job";
import { createAuditScheduledJob } from "./jobs/audit-scheduled.job";
import { type AuditJobDeps, createAuditSteps } from "./jobs/audit-steps";
import { dispatcherFor, type JobProcessors } from "./jobs/registry";
import { createReportMailProcessor } from "./jobs/report-mail.job";
import { createScanProcessor } from "./jobs/scan.job";
import { createVisibilitySampleJob } from "./jobs/visibility-sample.job";
import { createWebhookProcessor, retryDelayMs } from "./jobs/webhook.job";
import { createAuditReaper } from "./sweeps/audit-reaper";
import { createDeliveryReaper, type Resumed } from "./sweeps/delivery-reaper";
import { startReaper } from "./sweeps/reaper";
import { createPruner, pruneEvery } from "./sweeps/retention";
import { createScheduleSync } from "./sweeps/schedule-sync";
import { createVisibilityReaper } from "./sweeps/visibility-reaper";

export type ScanWorkerDeps = { config: Config; db: Db; connection: Redis; log: Logger };

export type ScanWorker = {
  worker: Worker;
  /** asks the AI engines a visibility run's samples, with slots of its own */
  visibilityWorker: Worker;
  /** delivers callbacks of finished scans */
  webhookWorker: Worker;
  scanner: Scanner;
  metrics: WorkerMetrics;
  /** browser launched, Redis and Postgres answering: the worker's /readyz */
  readiness: () => Promise<Readiness>;
  close: (timeoutMs: number) => Promise<void>;
};

export const WEBHOOK_USER_AGENT = "AEOScan-Webhook/0.1";

/** how long a queue client gets to close once its work is done or abandoned */
const CLIENT_CLOSE_MS = 2_000;
/** The dashboard's build in this checkout (`pnpm --filter @scan/dashboard build` writes it): its print view makes the client reports. */
const DASHBOARD_BUILD = resolvePath(__dirname, "../../dashboard/dist");

/**
 * Stalled-job recovery, for a worker killed mid-scan (SIGKILL, out of memory, node lost).
 * While its process lives, BullMQ renews an active job's lock every lockDuration/2 at the
 * latest, however long the scan takes, so the lock need not outlast the scan's time-out; it
 * only has to outlast the longest pause of the event loop with room to spare (the checks let
 * the loop run between two checks, so the longest is one check or one shared reading of a page:
 * a second or so on a page of megabytes, several on a loaded machine): 10 s. It is renewed every
 * 1 to 2 s (LOCK_RENEW_MS), not BullMQ's default of every 2.5 to 5 s: a pause of up to 8 s, not
 * 5, then leaves it held, for one more small Redis command a running job every second or two. A dead worker's lock expires at most
 * 10 s after its death; the stalled check (every 5 s, by any live worker) marks active jobs
 * and hands back the marked ones whose lock is gone, so the scan is queued again within
 * 10 + 5 = 15 s, and finishes within its own time-out after that.
 */
const LOCK_DURATION_MS = 10_000;
/** BullMQ looks every LOCK_RENEW_MS / 2 and renews the locks it took more than that long ago */
const LOCK_RENEW_MS = 2_000;
const STALLED_INTERVAL_MS = 5_000;
/**
 * One stall is a worker that died under a scan (a deploy's SIGKILL, another scan's memory):
 * run it again. A second in a row is likely the scan itself killing its workers: it fails
 * (the reaper marks it so) rather than take down a third.
 */
const MAX_STALLED_COUNT = 1;
/**
 * A running scan whose job Redis lost may still be running on a live worker, which stores its
 * result without the job: the reaper leaves it this long past its time-out before queueing it again.
 */
const RUNNING_GRACE_MS = 15_000;

/** the attempts a delivery made before this job: none for a job queued when its delivery became due */
const deliveryAttemptsBefore = (job: MinimalJob | undefined): number => {
  const parsed = WebhookJobPayload.pick({ attemptsBefore: true }).safeParse(job?.data);
  return parsed.success ? (parsed.data.attemptsBefore ?? 0) : 0;
};

/** true when the promise settles within ms, false when the time runs out first */
const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
  ]);

/** how long the samples' scan gate waits for its read of the scan queue (Redis answers in milliseconds) */
const SCAN_LOAD_READ_MS = 500;

/**
 * Builds the worker: one browser pool, one BullMQ worker pulling scans and audit pages, one
 * asking the AI engines visibility samples, one delivering callbacks, and the metrics and readiness its ops port serves.
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
    webmcp: config.BROWSER_WEBMCP === "on",
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
  /** a delivery's job: its attempts left, and a backoff that goes on from the attempts made before it */
  const deliveryJob = (jobId: string, resumed: Resumed = { attemptsBefore: 0, delayMs: 0 }) => ({
    jobId,
    attempts: Math.max(1, config.WEBHOOK_ATTEMPTS - resumed.attemptsBefore),
    backoff:
      resumed.attemptsBefore === 0
        ? { type: "exponential", delay: config.WEBHOOK_BACKOFF_MS }
        : { type: WEBHOOK_JOB.resumedBackoff },
    ...(resumed.delayMs > 0 ? { delay: resumed.delayMs } : {}),
    removeOnComplete: WEBHOOK_JOB.keepCompleted,
    removeOnFail: WEBHOOK_JOB.keepFailed,
  });
  const enqueueCallback = async (payload: WebhookJobPayload, resumed?: Resumed) => {
    await webhooks.add(WEBHOOK_JOB.name, payload, deliveryJob(payload.scanId, resumed));
  };
  const enqueueAlert = async (payload: AlertJobPayload, resumed?: Resumed) => {
    await webhooks.add(ALERT_JOB.name, payload, deliveryJob(alertJobId(payload.alertId), resumed));
  };
  const enqueueReportMail = async (payload: ReportMailJobPayload) => {
    await webhooks.add(REPORT_MAIL_JOB.name, payload, deliveryJob(reportMailJobId(payload.auditId)));
  };

  // a run's alerts are stored with its completion and queued after it, on the alerts' delivery
  const visibilityAlerts = {
    onRunCompleted: visibilityAlertsOnCompletion(config.DASHBOARD_URL),
    queueAlerts: async (runId: string) => {
      for (const alertId of await pendingAlertsOf(db, runId)) await enqueueAlert({ alertId, kind: "visibility" });
    },
  };

  const siteAccess = createSiteAccessReader({ db, box: siteSecretsBox(config.SITE_SECRETS_KEY) });
  // aborted when the worker gives up on its in-flight scans: a scan waiting for Postgres stops waiting
  const stopping = new AbortController();
  const processor = createScanProcessor({
    db,
    untilStored: createDatabaseWait({ budgetMs: config.DATABASE_WAIT_MS, log, signal: stopping.signal }),
    scanner,
    log,
    metrics,
    enqueueCallback,
    snapshots: { maxBytes: config.SNAPSHOT_MAX_BYTES, retentionS: config.SNAPSHOT_RETENTION_S },
    siteAccess: siteAccess.forScan,
  });
  // the queue the scans' and audits' jobs are added to (the reaper reads job states on it too);
  // a Queue on the worker's connection (the Worker blocks on its own)
  const queue = new Queue(SCAN_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  queue.on("error", (error) => log.warn({ err: error.message }, "queue error"));
  const auditDeps: AuditJobDeps = {
    db,
    scanner,
    queue,
    hostSlots: createHostSlots({
      redis: connection,
      prefix: config.QUEUE_PREFIX,
      limit: config.AUDIT_HOST_CONCURRENCY,
      leaseMs: config.SCAN_TIMEOUT_MS + 30_000,
    }),
    discoveryTimeoutMs: config.AUDIT_DISCOVERY_TIMEOUT_MS,
    reportFetchTimeoutMs: config.AUDIT_DISCOVERY_TIMEOUT_MS,
    enqueueAlert,
    enqueueReportMail,
    siteAccess: siteAccess.forAudit,
    log,
  };
  const auditSteps = createAuditSteps(auditDeps);
  // Visibility samples give way to interactive scans: each CPU or database step of a sample waits
  // while a scan runs in this process (known at once), runs in another worker or waits on the
  // queue (read from Redis at most every VISIBILITY_GIVE_WAY_CHECK_MS), for at most
  // VISIBILITY_GIVE_WAY_MS per step. Audit pages, queued below every scan, are not waited for.
  const scanGate = createScanGate({
    // the shared connection queues commands while Redis is away: a read that does not answer
    // in time counts as no scan waiting
    readLoad: () => scanQueueLoad(queue),
    readTimeoutMs: SCAN_LOAD_READ_MS,
    cacheMs: config.VISIBILITY_GIVE_WAY_CHECK_MS,
    maxWaitMs: config.VISIBILITY_GIVE_WAY_MS,
    onWaited: (step, outcome, waitedMs) => metrics.visibilityGiveWay.observe({ step, outcome }, waitedMs / 1_000),
    onReadError: (error) =>
      log.debug({ err: (error as Error).message }, "scan queue not read; visibility samples go on"),
    signal: stopping.signal,
  });
  // the jobs deliveries run are built below; the scan queue's are here. One queue, one set of
  // workers: an audit's pages run on the scan workers, below interactive scans in priority
  const scanQueueJobs = {
    [SCAN_JOB.name]: (job: Job) => scanGate.during(String(job.id), () => processor(job)),
    [AUDIT_JOBS.scheduled]: createAuditScheduledJob(auditDeps),
    [AUDIT_JOBS.discover]: createAuditDiscoverJob(auditDeps, auditSteps),
    [AUDIT_JOBS.page]: createAuditPageJob(auditDeps, auditSteps),
    [AUDIT_JOBS.report]: createAuditReportJob(auditDeps),
  };
  // the samples' queue, apart: a sample waits seconds on its engine, and would hold a scan slot all along
  const visibilityQueue = new Queue(VISIBILITY_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  visibilityQueue.on("error", (error) => log.warn({ err: error.message }, "visibility queue error"));
  const visibilityQueueJobs = {
    [VISIBILITY_JOBS.sample]: createVisibilitySampleJob({
      db,
      box: siteSecretsBox(config.SITE_SECRETS_KEY),
      engines: operatorEnginesOf(config),
      perEngine: config.VISIBILITY_ENGINE_CONCURRENCY,
      attempts: config.VISIBILITY_SAMPLE_ATTEMPTS,
      backoffMs: config.VISIBILITY_BACKOFF_MS,
      budgetByPlan: visibilityBudgetsOf(config),
      projectedUsage: {
        inputTokens: config.VISIBILITY_PROJECTED_INPUT_TOKENS,
        outputTokens: config.VISIBILITY_PROJECTED_OUTPUT_TOKENS,
        searchCalls: config.VISIBILITY_PROJECTED_SEARCHES,
      },
      timeoutMs: config.VISIBILITY_TIMEOUT_MS,
      redirects: {
        hosts: config.VISIBILITY_REDIRECT_HOSTS,
        follow: createRedirectFollower(scanner.policy, config.VISIBILITY_REDIRECT_TIMEOUT_MS),
      },
      ...visibilityAlerts,
      queueSample: async (payload) => {
        const next = visibilitySampleJob(payload);
        await visibilityQueue.add(next.name, next.data, next.opts);
      },
      giveWay: scanGate.giveWay,
      log,
    }),
  };
  const deliveryPolicy = { allowlist, resolve: resolveAll, userAgent: WEBHOOK_USER_AGENT };
  const deliverCallback = createWebhookProcessor({
    db,
    secret: config.WEBHOOK_SECRET,
    policy: deliveryPolicy,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    backoffMs: config.WEBHOOK_BACKOFF_MS,
    log,
    metrics,
  });
  // the SMTP server alert mails go through; its URL holds a password, so it is never logged
  const mailer = config.SMTP_URL ? createTransport(config.SMTP_URL) : null;
  const deliverAlert = createAlertProcessor({
    db,
    mailer,
    from: config.ALERT_FROM,
    dashboardUrl: config.DASHBOARD_URL,
    secret: config.WEBHOOK_SECRET,
    policy: deliveryPolicy,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    backoffMs: config.WEBHOOK_BACKOFF_MS,
    log,
    metrics,
  });
  // client reports mailed for schedules: the gateway's renderer and the dashboard's print view, one PDF at a time
  const renderer = createReportRenderer({
    dashboardDir: config.DASHBOARD_DIR ?? DASHBOARD_BUILD,
    chromiumPath: config.REPORT_CHROMIUM_PATH,
    concurrency: 1,
    timeoutMs: config.REPORT_PDF_TIMEOUT_MS,
    // a report per scheduled audit: no Chromium kept idle beside the scanner's between them
    idleCloseMs: 60_000,
    log,
  });
  const mailReport = createReportMailProcessor({
    db,
    mailer,
    from: config.ALERT_FROM,
    dashboardUrl: config.DASHBOARD_URL,
    renderer,
    log,
  });
  // every kind of job in the queue contract, each with its processor (jobs/registry.ts)
  const processors: JobProcessors = {
    ...scanQueueJobs,
    ...visibilityQueueJobs,
    [WEBHOOK_JOB.name]: deliverCallback,
    [ALERT_JOB.name]: deliverAlert,
    [REPORT_MAIL_JOB.name]: mailReport,
  };
  const worker = new Worker(SCAN_QUEUE, dispatcherFor(SCAN_QUEUE, processors), {
    // how operators tell workers apart (GET /api/v1/operations lists the connected ones by it)
    name: `${hostname()}:${process.pid}`,
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    lockDuration: LOCK_DURATION_MS,
    lockRenewTime: LOCK_RENEW_MS,
    stalledInterval: STALLED_INTERVAL_MS,
    maxStalledCount: MAX_STALLED_COUNT,
  });
  // Redis restarted empty with scans queued: they are queued again at the first sweep after it
  // is back (REAPER_INTERVAL_MS, 5 s) once their rows are ORPHAN_AFTER_MS (10 s) old, so within
  // about 5 to 15 s; a running one whose worker lived stores itself, one whose worker died too
  // is queued again SCAN_TIMEOUT_MS + 15 s after it started.
  const stopReaper = startReaper(
    {
      db,
      queue,
      redis: connection,
      orphanAfterMs: config.ORPHAN_AFTER_MS,
      runningAfterMs: config.SCAN_TIMEOUT_MS + RUNNING_GRACE_MS,
      weights: config.PLAN_PRIORITY_WEIGHTS,
      log,
    },
    config.REAPER_INTERVAL_MS,
    [
      createAuditReaper({
        db,
        queue,
        orphanAfterMs: config.ORPHAN_AFTER_MS,
        runningAfterMs: config.SCAN_TIMEOUT_MS + RUNNING_GRACE_MS,
        log,
      }).sweep,
      createVisibilityReaper({
        db,
        queue: visibilityQueue,
        orphanAfterMs: config.ORPHAN_AFTER_MS,
        runningAfterMs: config.VISIBILITY_TIMEOUT_MS + RUNNING_GRACE_MS,
        ...visibilityAlerts,
        log,
      }).sweep,
      // callbacks and alerts whose jobs Redis lost: queued again at the attempt they had reached
      createDeliveryReaper({
        db,
        queue: webhooks,
        enqueueCallback,
        enqueueAlert,
        attempts: config.WEBHOOK_ATTEMPTS,
        orphanAfterMs: config.ORPHAN_AFTER_MS,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        log,
      }).sweep,
      createScheduleSync({ db, queue, redis: connection, log }).sweep,
      pruneEvery(
        createPruner({
          db,
          days: {
            anonymous: config.RETENTION_DAYS_ANONYMOUS,
            free: config.RETENTION_DAYS_FREE,
            starter: config.RETENTION_DAYS_STARTER,
            pro: config.RETENTION_DAYS_PRO,
            agency: config.RETENTION_DAYS_AGENCY,
          },
          auditLogDays: {
            free: config.AUDIT_LOG_RETENTION_DAYS_FREE ?? config.AUDIT_LOG_RETENTION_DAYS,
            starter: config.AUDIT_LOG_RETENTION_DAYS_STARTER ?? config.AUDIT_LOG_RETENTION_DAYS,
            pro: config.AUDIT_LOG_RETENTION_DAYS_PRO ?? config.AUDIT_LOG_RETENTION_DAYS,
            agency: config.AUDIT_LOG_RETENTION_DAYS_AGENCY ?? config.AUDIT_LOG_RETENTION_DAYS,
          },
          batchSize: 500,
          maxBatches: 20,
          log,
        }),
        { redis: connection, key: queue.toKey("retention"), intervalMs: config.RETENTION_INTERVAL_MS },
      ),
    ],
  );
  void warnIfRedisEvicts(connection, log);
  worker.on("error", (error) => log.error({ err: error }, "worker error"));

  // Samples mostly wait on the network: several run at once in their own slots (never a scan's),
  // each engine still limited to VISIBILITY_ENGINE_CONCURRENCY of them (a sample that finds its
  // engine's slots taken is put back on the delayed set). The same lock and stall rules as scans:
  // BullMQ renews the lock through an engine's wait, and a killed worker's samples are taken again.
  const visibilityWorker = new Worker(VISIBILITY_QUEUE, dispatcherFor(VISIBILITY_QUEUE, processors), {
    name: `${hostname()}:${process.pid}`,
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.VISIBILITY_WORKER_CONCURRENCY,
    lockDuration: LOCK_DURATION_MS,
    lockRenewTime: LOCK_RENEW_MS,
    stalledInterval: STALLED_INTERVAL_MS,
    maxStalledCount: MAX_STALLED_COUNT,
  });
  visibilityWorker.on("error", (error) => log.error({ err: error }, "visibility worker error"));

  const webhookWorker = new Worker(WEBHOOK_QUEUE, dispatcherFor(WEBHOOK_QUEUE, processors), {
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    lockDuration: config.WEBHOOK_TIMEOUT_MS + 10_000,
    settings: {
      // a delivery queued again from its row waits as it would have: from the attempts made before the job
      backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob) =>
        retryDelayMs(deliveryAttemptsBefore(job) + attemptsMade, config.WEBHOOK_BACKOFF_MS),
    },
  });
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
  metrics.watchDependencies(readiness);

  const close = async (timeoutMs: number) => {
    // stop taking jobs, let running scans and deliveries finish within the bound, then close what we own
    const workers = [worker, visibilityWorker, webhookWorker];
    const drained = await within(Promise.all(workers.map((each) => each.close())), timeoutMs);
    if (!drained) {
      log.warn("in-flight work did not finish in time; handing it back to the queue");
      stopping.abort();
      // a client caught between reconnect attempts never reports its end: bound the forced close too
      await within(Promise.all(workers.map((each) => each.close(true))), CLIENT_CLOSE_MS);
    }
    await stopReaper();
    await within(queue.close(), CLIENT_CLOSE_MS);
    await within(visibilityQueue.close(), CLIENT_CLOSE_MS);
    await within(webhooks.close(), CLIENT_CLOSE_MS);
    mailer?.close();
    await within(renderer.close(), CLIENT_CLOSE_MS);
    await scanner.close();
  };
  return { worker, visibilityWorker, webhookWorker, scanner, metrics, readiness, close };
};
