import type { Plan } from "@scan/contract";
import type { Db } from "@scan/db";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** Days a completed scan keeps its full check list, by its owner's plan; anonymous scans too. */
export type RetentionDays = Record<Plan | "anonymous", number>;

export type RetentionDeps = {
  db: Db;
  days: RetentionDays;
  /** rows changed per statement: each batch is one short transaction */
  batchSize: number;
  /** rows changed per sweep at most; a longer backlog is worked off over several sweeps */
  maxPerSweep: number;
  /** rest between batches, so pruning never crowds out the scans' own writes */
  pauseMs: number;
  log: Logger;
};

export type RetentionResult = { pruned: number; batches: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Drops the full check list of scans older than their plan's retention, keeping the row with
 * its scores, grade and issue counts for the site's history. Works in small batches, each one
 * statement that locks only the rows it changes (`FOR UPDATE SKIP LOCKED`: a row a scan is
 * writing is skipped, not waited for) and reads them from a partial index of the scans that
 * still carry a check list, so no batch holds a lock for long or scans the table.
 */
export const createRetention = ({ db, days, batchSize, maxPerSweep, pauseMs, log }: RetentionDeps) => {
  const sweep = async (now: Date = new Date()): Promise<RetentionResult> => {
    let pruned = 0;
    let batches = 0;
    while (pruned < maxPerSweep) {
      const limit = Math.min(batchSize, maxPerSweep - pruned);
      const changed = await db.$executeRaw`
        WITH doomed AS (
          SELECT s.id
          FROM scans s
          LEFT JOIN users u ON u.id = s.user_id
          WHERE s.checks IS NOT NULL
            AND s.completed_at IS NOT NULL
            AND s.completed_at < ${now}::timestamptz - make_interval(days => CASE u.plan::text
              WHEN 'free' THEN ${days.free}::int
              WHEN 'starter' THEN ${days.starter}::int
              WHEN 'pro' THEN ${days.pro}::int
              WHEN 'agency' THEN ${days.agency}::int
              ELSE ${days.anonymous}::int
            END)
          ORDER BY s.completed_at
          LIMIT ${limit}
          FOR UPDATE OF s SKIP LOCKED
        )
        UPDATE scans SET checks = NULL, checks_pruned_at = ${now}
        FROM doomed WHERE scans.id = doomed.id`;
      batches += 1;
      pruned += changed;
      if (changed < limit) break;
      await sleep(pauseMs);
    }
    if (pruned > 0) log.info({ pruned, batches }, "retention dropped the check lists of old scans");
    return { pruned, batches };
  };
  return { sweep };
};

/** How long stopping waits for a sweep under way: a batch is one short statement. */
const STOP_WAIT_MS = 2_000;

/**
 * Runs a sweep every `intervalMs` on one worker at a time (a Redis key taken for the interval
 * decides which), for as long as the worker runs. Answers the stop function.
 */
export const startRetention = (
  deps: RetentionDeps & { redis: Pick<Redis, "set">; lockKey: string },
  intervalMs: number,
): (() => Promise<void>) => {
  const retention = createRetention(deps);
  let running: Promise<unknown> | null = null;
  const tick = async () => {
    if ((await deps.redis.set(deps.lockKey, "1", "PX", intervalMs, "NX")) !== "OK") return;
    await retention.sweep();
  };
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((error: unknown) =>
        deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, "retention sweep failed"),
      )
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
  };
};
