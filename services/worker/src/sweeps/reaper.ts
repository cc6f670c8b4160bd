import type { Db } from "@scan/db";
import { atMost } from "@scan/platform";
import { type PriorityWeights, SCAN_JOB, scanJob, scanPriority } from "@scan/queue";
import { SCAN_WHERE, scans } from "@scan/records";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** Job states in which a scan is still on its way: its row is left alone. */
const ALIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

/** BullMQ's reason for a job that stalled more often than maxStalledCount */
const STALLED_OUT = /stalled more than allowable limit/;

/** rows looked at per query, and per sweep at most (a longer backlog is covered over several sweeps) */
const PAGE = 200;
const MOST_PER_SWEEP = 2_000;
/** rows settled at once: well below the database pool, so requests served beside a sweep still find connections */
const AT_ONCE = 4;
/** how long stopping waits for a sweep under way */
const STOP_WAIT_MS = 2_000;

export type ReaperDeps = {
  db: Db;
  queue: Queue;
  /** takes the sweep for this interval, so one worker sweeps at a time */
  redis: Pick<Redis, "set">;
  /**
   * a queued scan unchanged this long whose job is gone is queued again: the gateway queues a
   * job milliseconds after it stores the row, so a longer gap means the queue lost it
   */
  orphanAfterMs: number;
  /**
   * a running scan whose job is gone is queued again once it has run this long: until then the
   * worker that started it may still be running it (a Redis restart does not stop workers),
   * and it stores its result in Postgres without the job
   */
  runningAfterMs: number;
  /** PLAN_PRIORITY_WEIGHTS: the gateway's queue order, for the scans queued again */
  weights: PriorityWeights;
  maxRequeues?: number;
  log: Logger;
};

export type SweepResult = { requeued: number; failed: number };

type Row = {
  id: string;
  url: string;
  mode: "quick" | "full";
  status: string;
  requestId: string | null;
  keepSnapshot: boolean;
  requeues: number;
  workspaceId: string | null;
  createdAt: Date;
  updatedAt: Date;
  workspace: { plan: "free" | "starter" | "pro" | "agency" } | null;
};

export type Reaper = {
  /** Queues again the open scans whose job the queue lost, or fails those that cannot run; answers how many of each. */
  sweep: () => Promise<SweepResult>;
};

/**
 * The row is the truth, for the queue too. A sweep finds scans Postgres holds as `queued` or
 * `running` whose job the queue no longer has (Redis restarted empty, evicted it, failed over
 * to a replica behind it) or whose job is dead (it failed while Postgres was away, so its
 * result could not be stored) and queues them again from the row: same job id (the scan id),
 * same priority rule as the gateway's, same attempts. A scan is failed instead when it cannot
 * run: its job stalled out (it stopped two workers in a row), or it was queued again
 * `maxRequeues` times already. A scan whose job is waiting or active is never touched.
 */
export const createReaper = ({
  db,
  queue,
  orphanAfterMs,
  runningAfterMs,
  weights,
  maxRequeues = SCAN_JOB.maxRequeues,
  log,
}: ReaperDeps): Reaper => {
  /** the row as the sweep read it: a row changed since (started, stored, claimed by another sweep) is left alone */
  const unchanged = (row: Row) => ({ updatedAt: row.updatedAt, requeues: row.requeues });

  /** where the last sweep stopped, when the backlog was longer than one sweep looks at */
  let cursor: { updatedAt: Date; id: string } | null = null;

  const fail = async (row: Row, message: string, jobState: string) => {
    const { moved } = await scans.fail(db, row.id, { code: "internal_error", message }, unchanged(row));
    if (moved) log.warn({ scanId: row.id, jobState, requeues: row.requeues }, "orphaned scan failed");
    return moved ? 1 : 0;
  };

  /** the gateway's rule: a caller's n-th waiting scan gets 1 + n × weight(plan) */
  const priorityOf = async (row: Row): Promise<number> => {
    const ahead = await db.scan.count({
      where: { workspaceId: row.workspaceId, status: "queued", createdAt: { lt: row.createdAt }, id: { not: row.id } },
    });
    return scanPriority(ahead, weights[row.workspace?.plan ?? "anonymous"]);
  };

  const requeue = async (row: Row, jobState: string): Promise<number> => {
    // claim the row first, so no other sweep queues it too
    const claimed = await scans.requeue(db, row.id, unchanged(row));
    if (!claimed.moved) return 0;
    try {
      // a dead job keeps the id: it goes first, or the add would be a no-op
      if (jobState !== "missing") await (await queue.getJob(row.id))?.remove();
      const job = scanJob(row, await priorityOf(row));
      await queue.add(job.name, job.data, job.opts);
    } catch (error) {
      // not queued after all: give the attempt back, the next sweep tries again
      await scans.returnRequeue(db, row.id, { requeues: row.requeues + 1 });
      throw error;
    }
    log.warn({ scanId: row.id, jobState, requeues: row.requeues + 1 }, "scan queued again from its row");
    return 1;
  };

  const settle = async (row: Row, now: number): Promise<keyof SweepResult | null> => {
    const job = await queue.getJob(row.id);
    const jobState = job ? await job.getState() : "missing";
    if (ALIVE.has(jobState)) return null;
    // its worker may still be at it, and will store it without the job
    if (jobState === "missing" && row.status === "running" && now - row.updatedAt.getTime() < runningAfterMs)
      return null;
    if (jobState === "failed" && STALLED_OUT.test(job?.failedReason ?? "")) {
      const failed = await fail(
        row,
        "The scan stopped the workers running it twice (it may need more memory than a worker has); it was not tried again",
        jobState,
      );
      return failed > 0 ? "failed" : null;
    }
    if (row.requeues >= maxRequeues) {
      const failed = await fail(
        row,
        `The scan lost its place in the queue ${row.requeues + 1} times (the queue restarted or its workers stopped); submit it again`,
        jobState,
      );
      return failed > 0 ? "failed" : null;
    }
    return (await requeue(row, jobState)) > 0 ? "requeued" : null;
  };

  const sweep = async (): Promise<SweepResult> => {
    const result: SweepResult = { requeued: 0, failed: 0 };
    const now = Date.now();
    for (let looked = 0; looked < MOST_PER_SWEEP; looked += PAGE) {
      const after = cursor;
      const rows: Row[] = await db.scan.findMany({
        where: {
          ...SCAN_WHERE.open,
          updatedAt: { lt: new Date(now - orphanAfterMs) },
          ...(after
            ? { OR: [{ updatedAt: { gt: after.updatedAt } }, { updatedAt: after.updatedAt, id: { gt: after.id } }] }
            : {}),
        },
        select: {
          id: true,
          url: true,
          mode: true,
          status: true,
          requestId: true,
          keepSnapshot: true,
          requeues: true,
          workspaceId: true,
          createdAt: true,
          updatedAt: true,
          workspace: { select: { plan: true } },
        },
        orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
        take: PAGE,
      });
      const last = rows.at(-1);
      cursor = rows.length === PAGE && last ? { updatedAt: last.updatedAt, id: last.id } : null;
      // a page's rows are settled a few at a time: a burst of hundreds of queries at once waits
      // past the database pool's limit on a busy machine and leaves those rows for another sweep
      const outcomes = await atMost(rows, AT_ONCE, (row) => settle(row, now));
      for (const outcome of outcomes) if (outcome) result[outcome] += 1;
      if (!cursor) break;
    }
    return result;
  };

  return { sweep };
};

/**
 * Sweeps every intervalMs until stopped, one worker at a time (a Redis key held for the
 * interval); a sweep that fails (database or Redis away) is tried at the next tick, and a
 * sweep still running when the next tick comes is not doubled.
 */
export const startReaper = (
  deps: ReaperDeps,
  intervalMs: number,
  /** further sweeps of rows whose jobs the queue lost (the audits'), run after the scans' in the same turn */
  more: ReadonlyArray<() => Promise<unknown>> = [],
): (() => Promise<void>) => {
  const reaper = createReaper(deps);
  let running: Promise<unknown> | null = null;
  const tick = async () => {
    const mine = await deps.redis.set(deps.queue.toKey("reaper"), "1", "PX", intervalMs, "NX");
    if (mine !== "OK") return;
    await reaper.sweep();
    for (const sweep of more) await sweep();
  };
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((error: unknown) =>
        deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, "orphan sweep failed"),
      )
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    // a sweep stuck on a Redis or Postgres that is away is not waited for long: it only reads and claims rows
    await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
  };
};
