import { isDatabaseUnreachable } from "@scan/db";
import type { Logger } from "pino";

/** Runs one database step, waiting out an outage; what it runs must be safe to run again. */
export type DatabaseWait = <T>(step: string, work: () => Promise<T>) => Promise<T>;

export type DatabaseWaitOptions = {
  /** how long one step may wait for Postgres to come back before its error is thrown */
  budgetMs: number;
  log: Logger;
  /** the first pause; each next one doubles, up to maxDelayMs */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** aborted when the worker stops for good: a step waiting for the database gives up at once */
  signal?: AbortSignal;
};

/**
 * A worker that cannot read or store a scan because Postgres is away (restarting, failing
 * over, the network cut) waits and tries again, with backoff, instead of failing the scan;
 * the job keeps its lock meanwhile (renewed through Redis), so nobody else takes it. Any
 * other error is thrown at once. After budgetMs the outage's error is thrown: the job fails
 * without touching the row, and the reaper queues the scan again once Postgres is back.
 */
export const createDatabaseWait =
  ({ budgetMs, log, firstDelayMs = 250, maxDelayMs = 5_000, signal }: DatabaseWaitOptions): DatabaseWait =>
  async (step, work) => {
    const deadline = Date.now() + budgetMs;
    let delay = firstDelayMs;
    let waited = false;
    for (;;) {
      try {
        const result = await work();
        if (waited) log.info({ step }, "database answers again");
        return result;
      } catch (error) {
        const left = deadline - Date.now();
        if (!isDatabaseUnreachable(error) || left <= 0 || signal?.aborted) throw error;
        if (!waited)
          log.warn(
            { step, err: error instanceof Error ? error.message : String(error), waitMs: budgetMs },
            "database unreachable: waiting for it",
          );
        waited = true;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(delay, left));
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            resolve();
          }
          signal?.addEventListener("abort", done, { once: true });
        });
        delay = Math.min(delay * 2, maxDelayMs);
      }
    }
  };
