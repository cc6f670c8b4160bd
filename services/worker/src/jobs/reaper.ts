import type { Db } from "@scan/db";
import type { Queue } from "bullmq";
import type { Logger } from "pino";

/** Job states in which a scan is still on its way: its row is left alone. */
const ALIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

export type ReaperDeps = {
  db: Db;
  queue: Queue;
  /** a scan unchanged for this long is looked at; below it nothing is, however it looks */
  orphanAfterMs: number;
  log: Logger;
};

/**
 * One sweep for orphans: scans still `queued` or `running` whose job is gone (Redis lost it in
 * a restart without persistence) or dead (failed after stalling too often, or finished without
 * storing its result). They would otherwise look in progress for ever; they are marked failed
 * with a reason, so callers polling them stop and can submit again. A scan whose job is still
 * waiting or active is never touched, however long the queue. Safe to run in every worker at once.
 */
export const reapOrphans = async ({ db, queue, orphanAfterMs, log }: ReaperDeps): Promise<number> => {
  const stale = await db.scan.findMany({
    where: { status: { in: ["queued", "running"] }, updatedAt: { lt: new Date(Date.now() - orphanAfterMs) } },
    select: { id: true },
    orderBy: { updatedAt: "asc" },
    take: 200,
  });
  let reaped = 0;
  for (const { id } of stale) {
    const job = await queue.getJob(id);
    const state = job ? await job.getState() : "missing";
    if (ALIVE.has(state)) continue;
    const { count } = await db.scan.updateMany({
      where: { id, status: { in: ["queued", "running"] } },
      data: {
        status: "failed",
        errorCode: "internal_error",
        errorMessage:
          state === "missing"
            ? "The scan was lost from the queue (it restarted); submit it again"
            : "The scan stopped without a result; submit it again",
        completedAt: new Date(),
      },
    });
    if (count > 0) log.warn({ scanId: id, jobState: state }, "orphaned scan marked failed");
    reaped += count;
  }
  return reaped;
};

/** Sweeps every intervalMs until stopped; a sweep that fails (database away) is tried next time. */
export const startReaper = (deps: ReaperDeps, intervalMs: number): (() => Promise<void>) => {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = reapOrphans(deps).catch((error: unknown) =>
      deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, "orphan sweep failed"),
    );
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};
