import type { Db } from "@scan/db";
import { atMost } from "@scan/platform";
import { visibilitySampleJob, visibilitySampleJobId } from "@scan/queue";
import { RUN_WHERE, visibilityRuns } from "@scan/records";
import type { Queue } from "bullmq";
import type { Logger } from "pino";

/** Job states in which a sample is still on its way. */
const ALIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
const PAGE = 200;
const AT_ONCE = 4;

export type VisibilitySweep = { samplesRequeued: number; samplesCancelled: number; runsFinished: number };

/**
 * Visibility runs survive a worker kill and a Redis that restarted empty from their rows: a
 * sample `queued` or `running` inside its run's window on the queue (the samples beyond it have
 * no job yet: each sample that ends queues the next) whose job is gone or dead is queued again under the same job id
 * (a running one only once its worker has had `runningAfterMs` to store it), a sample of a run
 * that ended is cancelled, and a running run with no open sample left is completed. A sample
 * asked again is stored once (its row's state is checked under the claim).
 */
export const createVisibilityReaper = ({
  db,
  queue,
  orphanAfterMs,
  runningAfterMs,
  onRunCompleted,
  queueAlerts,
  log,
}: {
  db: Db;
  queue: Queue;
  orphanAfterMs: number;
  runningAfterMs: number;
  /** written with a run this sweep completes: its alerts, as a sample's end would */
  onRunCompleted?: visibilityRuns.OnRunCompleted;
  queueAlerts?: (runId: string) => Promise<void>;
  log: Logger;
}) => {
  const sweep = async (): Promise<VisibilitySweep> => {
    const result: VisibilitySweep = { samplesRequeued: 0, samplesCancelled: 0, runsFinished: 0 };
    const now = Date.now();
    const rows = await visibilityRuns.staleOpenSamples(db, new Date(now - orphanAfterMs), PAGE);
    await atMost(rows, AT_ONCE, async (row) => {
      if (!visibilityRuns.isRunUnderWay(row.runStatus)) {
        if ((await visibilityRuns.cancelSample(db, row.id)).moved) result.samplesCancelled += 1;
        return;
      }
      const job = await queue.getJob(visibilitySampleJobId(row.id));
      const state = job ? await job.getState() : "missing";
      if (ALIVE.has(state)) return;
      if (row.status === "running" && now - row.updatedAt.getTime() < runningAfterMs) return;
      if (job) await job.remove();
      const next = visibilitySampleJob({ runId: row.runId, sampleId: row.id });
      await queue.add(next.name, next.data, next.opts);
      result.samplesRequeued += 1;
      log.warn({ runId: row.runId, sampleId: row.id, jobState: state }, "visibility sample queued again from its row");
    });
    const running = await db.visibilityRun.findMany({
      where: { ...RUN_WHERE.underWay, status: "running", updatedAt: { lt: new Date(now - orphanAfterMs) } },
      select: { id: true },
      take: PAGE,
    });
    for (const run of running)
      if (await visibilityRuns.finishWith(db, run.id, onRunCompleted)) {
        result.runsFinished += 1;
        await queueAlerts?.(run.id);
      }
    return result;
  };
  return { sweep };
};
