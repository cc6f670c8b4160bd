import { runChecks } from "@scan/checks/run";
import type { Db } from "@scan/db/client";
import { type ScanJobOutcome, ScanJobPayload } from "@scan/shared/jobs";
import { ScanOutcome } from "@scan/shared/scan";
import { scoreChecks } from "@scan/shared/scorer";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { type CaptureLimits, captureSnapshot } from "../domain/capture";
import { type FetchPolicy, TargetError } from "../domain/http-fetch";
import type { BrowserPool } from "../infra/browser-pool";

export type ScanJobDeps = {
  db: Db;
  pool: BrowserPool;
  policy: FetchPolicy;
  limits: CaptureLimits;
  log: Logger;
};

const markFailed = (db: Db, scanId: string, errorCode: string, errorMessage: string) =>
  db.scan.update({
    where: { id: scanId },
    data: { status: "failed", errorCode, errorMessage: errorMessage.slice(0, 1000), completedAt: new Date() },
  });

/**
 * Runs one scan job: capture, judge, score, store. The result goes to Postgres; the job's
 * return value only says where it is. A target that cannot be scanned fails the scan at once
 * (UnrecoverableError: retrying a dead host only burns the caller's budget); anything else is
 * retried once and fails the scan when the last attempt fails.
 */
export const createScanProcessor =
  ({ db, pool, policy, limits, log }: ScanJobDeps) =>
  async (job: Job): Promise<ScanJobOutcome> => {
    const parsed = ScanJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad scan payload: ${parsed.error.message}`);
    const { scanId, url, mode, requestId } = parsed.data;
    const jobLog = log.child({ scanId, requestId, mode });
    const started = await db.scan.updateMany({
      where: { id: scanId, status: { in: ["queued", "running"] } },
      data: { status: "running", startedAt: new Date() },
    });
    if (started.count === 0) {
      // already finished (a stalled job picked up again after its scan was stored) or unknown
      const existing = await db.scan.findUnique({ where: { id: scanId }, select: { status: true } });
      if (existing && (existing.status === "completed" || existing.status === "failed")) {
        return { scanId, status: existing.status };
      }
      throw new UnrecoverableError(`scan ${scanId} does not exist`);
    }
    try {
      const startedAt = performance.now();
      const snapshot = await pool.use((browser) =>
        captureSnapshot(() => pool.openPage(browser), { url, mode }, policy, limits),
      );
      const scannedAt = new Date();
      const capturedAt = performance.now();
      const checks = runChecks(snapshot, { mode, scannedAt });
      const judgedAt = performance.now();
      const card = scoreChecks(checks);
      const outcome = ScanOutcome.parse({ finalUrl: snapshot.finalUrl, ...card, checks });
      const scan = await db.scan.findUniqueOrThrow({ where: { id: scanId }, select: { createdAt: true } });
      const completedAt = new Date();
      await db.scan.update({
        where: { id: scanId },
        data: {
          status: "completed",
          finalUrl: outcome.finalUrl,
          seo: outcome.scores.seo,
          aeo: outcome.scores.aeo,
          geo: outcome.scores.geo,
          overall: outcome.scores.overall,
          grade: outcome.grade,
          issuesCritical: outcome.issues.critical,
          issuesWarning: outcome.issues.warning,
          issuesInfo: outcome.issues.info,
          checks: outcome.checks,
          durationMs: completedAt.getTime() - scan.createdAt.getTime(),
          completedAt,
          errorCode: null,
          errorMessage: null,
        },
      });
      const timings = {
        captureMs: Math.round(capturedAt - startedAt),
        checksMs: Math.round(judgedAt - capturedAt),
        storeMs: Math.round(performance.now() - judgedAt),
      };
      jobLog.info({ grade: outcome.grade, overall: outcome.scores.overall, ...timings }, "scan completed");
      return { scanId, status: "completed" };
    } catch (error) {
      if (error instanceof TargetError) {
        await markFailed(db, scanId, "upstream_failure", error.message);
        jobLog.info({ reason: error.message }, "scan failed: target unreachable");
        throw new UnrecoverableError(error.message);
      }
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      jobLog.error({ err: error, lastAttempt }, "scan attempt failed");
      if (lastAttempt) await markFailed(db, scanId, "internal_error", "The scan could not be completed");
      throw error;
    }
  };
