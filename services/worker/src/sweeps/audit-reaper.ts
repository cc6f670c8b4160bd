import type { Db } from "@scan/db";
import { atMost } from "@scan/platform";
import { AUDIT_JOB, auditPageJob, auditStepJob, auditStepJobId } from "@scan/queue";
import { AUDIT_PAGE_WHERE, AUDIT_WHERE, auditPages, audits as auditRows } from "@scan/records";
import type { Queue } from "bullmq";
import type { Logger } from "pino";

/** Job states in which a page or step is still on its way. */
const ALIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
const PAGE = 200;
/** pages settled at once: well below the database pool, so requests served beside a sweep still find connections */
const AT_ONCE = 4;

export type AuditSweep = {
  pagesRequeued: number;
  pagesFailed: number;
  stepsRequeued: number;
  finished: number;
};

/**
 * Audits survive a Redis that restarted empty the way scans do: from their rows. A sweep finds
 * audit pages `queued` or `running` whose job is gone or dead and queues them again (same job
 * id, the page's), or fails them after `maxRequeues`; audits `discovering` or `finalizing`
 * whose step job is gone get it again; and an audit `running` with no page left (its last
 * worker died between storing its page and moving the audit on) moves on to its report.
 */
export const createAuditReaper = ({
  db,
  queue,
  orphanAfterMs,
  runningAfterMs,
  log,
}: {
  db: Db;
  queue: Queue;
  orphanAfterMs: number;
  runningAfterMs: number;
  log: Logger;
}) => {
  const stateOf = async (jobId: string): Promise<string> => {
    const job = await queue.getJob(jobId);
    return job ? await job.getState() : "missing";
  };

  const sweepPages = async (result: AuditSweep, now: number) => {
    const rows = await db.auditPage.findMany({
      where: { ...AUDIT_PAGE_WHERE.open, updatedAt: { lt: new Date(now - orphanAfterMs) } },
      select: {
        id: true,
        auditId: true,
        url: true,
        status: true,
        requeues: true,
        updatedAt: true,
        audit: { select: { mode: true, status: true } },
      },
      orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
      take: PAGE,
    });
    await atMost(rows, AT_ONCE, async (row) => {
      const state = await stateOf(row.id);
      if (ALIVE.has(state)) return;
      // its worker may still be at it, and stores it without the job
      if (state === "missing" && row.status === "running" && now - row.updatedAt.getTime() < runningAfterMs) return;
      const unchanged = { updatedAt: row.updatedAt, requeues: row.requeues };
      const auditRuns = row.audit.status === "running" || row.audit.status === "discovering";
      if (row.requeues >= AUDIT_JOB.maxRequeues || !auditRuns) {
        const { moved } = auditRuns
          ? await auditPages.fail(db, row.id, { message: "The page lost its place in the queue too often" }, unchanged)
          : await auditPages.cancel(db, row.id, unchanged);
        if (moved) result.pagesFailed += 1;
        if (moved && (await auditRows.finishIfDone(db, row.auditId))) await queueStep("report", row.auditId);
        return;
      }
      const claimed = await auditPages.requeue(db, row.id, unchanged);
      if (!claimed.moved) return;
      if (state !== "missing") await (await queue.getJob(row.id))?.remove();
      const job = auditPageJob({ auditId: row.auditId, pageId: row.id, url: row.url, mode: row.audit.mode });
      await queue.add(job.name, job.data, job.opts);
      result.pagesRequeued += 1;
      log.warn({ auditId: row.auditId, pageId: row.id, jobState: state }, "audit page queued again from its row");
    });
  };

  const queueStep = async (step: "discover" | "report", auditId: string) => {
    const job = auditStepJob(step, { auditId });
    await queue.add(job.name, job.data, job.opts);
  };

  const sweepAudits = async (result: AuditSweep, now: number) => {
    const audits = await db.audit.findMany({
      where: {
        ...AUDIT_WHERE.underWay,
        updatedAt: { lt: new Date(now - orphanAfterMs) },
      },
      select: { id: true, status: true, requeues: true, updatedAt: true },
      orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
      take: PAGE,
    });
    for (const audit of audits) {
      if (audit.status === "running") {
        if (await auditRows.finishIfDone(db, audit.id)) {
          await queueStep("report", audit.id);
          result.finished += 1;
        }
        continue;
      }
      const step = audit.status === "discovering" ? "discover" : "report";
      const state = await stateOf(auditStepJobId(step, audit.id));
      if (ALIVE.has(state)) continue;
      const unchanged = { updatedAt: audit.updatedAt, requeues: audit.requeues };
      if (audit.requeues >= AUDIT_JOB.maxRequeues) {
        await auditRows.fail(
          db,
          audit.id,
          { code: "internal_error", message: `The audit's ${step} step could not be completed` },
          unchanged,
        );
        continue;
      }
      const claimed = await auditRows.requeueStep(db, audit.id, unchanged);
      if (!claimed.moved) continue;
      if (state !== "missing") await (await queue.getJob(auditStepJobId(step, audit.id)))?.remove();
      await queueStep(step, audit.id);
      result.stepsRequeued += 1;
      log.warn({ auditId: audit.id, step, jobState: state }, "audit step queued again from its row");
    }
  };

  const sweep = async (): Promise<AuditSweep> => {
    const result: AuditSweep = { pagesRequeued: 0, pagesFailed: 0, stepsRequeued: 0, finished: 0 };
    const now = Date.now();
    await sweepPages(result, now);
    await sweepAudits(result, now);
    return result;
  };
  return { sweep };
};
