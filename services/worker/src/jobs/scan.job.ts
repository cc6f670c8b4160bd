import { type Db, isDatabaseUnreachable } from "@scan/db";
import { type ScanJobOutcome, ScanJobPayload, type WebhookJobPayload } from "@scan/queue";
import { scans } from "@scan/records";
import { type Scanner, TargetError } from "@scan/scanner";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import type { DatabaseWait } from "../domain/database-wait";
import { SiteAccessError, type SiteAccessReader } from "../domain/site-access";
import { keepSnapshot, type SnapshotRetention } from "../domain/snapshot-keeper";
import type { WorkerMetrics } from "../infra/metrics";

export type ScanJobDeps = {
  db: Db;
  scanner: Pick<Scanner, "scan">;
  snapshots: SnapshotRetention;
  log: Logger;
  metrics: WorkerMetrics;
  /** queues the callback delivery of a finished scan that has a callback URL */
  enqueueCallback: (payload: WebhookJobPayload) => Promise<void>;
  /** runs a database step, waiting out a Postgres outage instead of failing the scan */
  untilStored: DatabaseWait;
  /** the credentials of the scanned site when it is behind a login */
  siteAccess: SiteAccessReader;
};

/** a scan that had ended already keeps its verdict, and its callback is left to the run that ended it */
const markFailed = async (db: Db, scanId: string, code: string, message: string) => {
  const failed = await scans.fail(db, scanId, { code, message });
  return { callbackUrl: failed.moved ? failed.callbackUrl : null };
};

/**
 * Runs one scan job: capture, judge, score, store, then hand a callback to the delivery queue.
 * The result goes to Postgres; the job's return value only says where it is. A target that
 * cannot be scanned fails the scan at once (UnrecoverableError: retrying a dead host only
 * burns the caller's budget); anything else is retried once and fails the scan when the last
 * attempt fails. Postgres being away is no failure of the scan: each database step waits for
 * it (untilStored), and when it stays away longer the job fails with the row untouched, for
 * the reaper to queue again.
 */
export const createScanProcessor =
  ({ db, scanner, snapshots, log, metrics, enqueueCallback, untilStored, siteAccess }: ScanJobDeps) =>
  async (job: Job): Promise<ScanJobOutcome> => {
    // the worker's whole hold on the job, for the log: what a caller waits beyond it is the gateway's and the queue's
    const entered = performance.now();
    const parsed = ScanJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad scan payload: ${parsed.error.message}`);
    const { scanId, url, mode, requestId, keepSnapshot: keep } = parsed.data;
    const jobLog = log.child({ scanId, requestId, mode });
    const started = await untilStored("start", () => scans.markRunning(db, scanId));
    if (!started.moved) {
      // already finished (a stalled job picked up again after its scan was stored) or unknown
      const existing = await untilStored("read", () =>
        db.scan.findUnique({
          where: { id: scanId },
          select: { status: true, callbackUrl: true, callbackState: true },
        }),
      );
      if (existing && (existing.status === "completed" || existing.status === "failed")) {
        // the run that stored it may have stopped before handing its callback over
        if (existing.callbackState === "pending") await enqueueCallback({ scanId, requestId });
        return { scanId, status: existing.status };
      }
      throw new UnrecoverableError(`scan ${scanId} does not exist`);
    }
    const stopTimer = metrics.scanDuration.startTimer({ mode });
    const finished = async (stored: { callbackUrl: string | null }) => {
      // the job id is the scan id, so a second hand-off for one scan is a no-op
      if (stored.callbackUrl) await enqueueCallback({ scanId, requestId });
    };
    const pickedUp = performance.now();
    let stored: { callbackUrl: string | null };
    try {
      const access = await untilStored("credentials", () => siteAccess(scanId));
      const { outcome, timings, renderReason, snapshot } = await scanner.scan({ url, mode, access });
      const judgedAt = performance.now();
      if (keep) {
        const kept = await untilStored("snapshot", () => keepSnapshot(db, scanId, snapshot, snapshots));
        if (!kept.kept) jobLog.warn({ reason: kept.reason }, "snapshot not kept");
      }
      // written again as a whole when Postgres was away: the transaction stored all or nothing
      const completed = await untilStored("store", () => scans.complete(db, scanId, outcome, mode));
      if (!completed.stored) {
        // the reaper failed it, or another run of it stored it, meanwhile: the stored verdict stands
        stopTimer({ outcome: "error" });
        jobLog.warn({ status: completed.status }, "scan result not stored: the scan had ended already");
        if (completed.status === "completed" || completed.status === "failed")
          return { scanId, status: completed.status };
        // its row is gone (its owner was deleted while it ran): nothing to store it in
        return { scanId, status: "failed" };
      }
      stored = { callbackUrl: completed.callbackUrl };
      stopTimer({ outcome: "completed" });
      for (const check of outcome.checks) metrics.checksRun.inc({ area: check.category, status: check.status });
      if (outcome.renderFailure) metrics.renderFallbacks.inc({ mode, reason: outcome.renderFailure });
      jobLog.info(
        {
          grade: outcome.grade,
          overall: outcome.scores.overall,
          renderReason,
          ...timings,
          storeMs: Math.round(performance.now() - judgedAt),
          totalMs: Math.round(performance.now() - pickedUp),
          jobMs: Math.round((performance.now() - entered) * 10) / 10,
        },
        "scan completed",
      );
    } catch (error) {
      if (error instanceof SiteAccessError) {
        stopTimer({ outcome: "error" });
        const stored = await untilStored("fail", () => markFailed(db, scanId, "site_credentials", error.message));
        jobLog.warn({ reason: error.message }, "scan failed: the site's credentials cannot be read");
        await finished(stored);
        throw new UnrecoverableError(error.message);
      }
      if (error instanceof TargetError) {
        stopTimer({ outcome: "upstream_failure" });
        const stored = await untilStored("fail", () => markFailed(db, scanId, "upstream_failure", error.message));
        jobLog.info({ reason: error.message }, "scan failed: target unreachable");
        await finished(stored);
        throw new UnrecoverableError(error.message);
      }
      stopTimer({ outcome: "error" });
      if (isDatabaseUnreachable(error)) {
        // not the scan's fault: the row stays queued or running, and the reaper queues it again once Postgres is back
        jobLog.warn({ err: (error as Error).message }, "scan not stored: the database stayed unreachable");
        throw error;
      }
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      jobLog.error({ err: error, lastAttempt }, "scan attempt failed");
      if (lastAttempt)
        await finished(
          await untilStored("fail", () => markFailed(db, scanId, "internal_error", "The scan could not be completed")),
        );
      throw error;
    }
    await finished(stored);
    return { scanId, status: "completed" };
  };
