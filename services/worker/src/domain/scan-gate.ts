import { AUDIT_PAGE_PRIORITY, SCAN_JOB } from "@scan/queue";
import type { Queue } from "bullmq";

/** What the scan queue holds for interactive scans, as last read from Redis. */
export type ScanQueueLoad = {
  /**
   * scans queued and not yet taken: interactive scans, and the audits' discovery, report and
   * scheduled steps, which are queued at the interactive scans' priority and cannot be told apart
   * from them (audit pages, queued below every scan, left out)
   */
  waiting: number;
  /** the ids of the `scan` jobs running in any worker process, this one's included */
  running: string[];
};

/**
 * Reads the scan queue's load: the jobs waiting (with a priority or without) less the audit pages,
 * which wait below every interactive scan, and the `scan` jobs among the active ones (at most the
 * workers' scan slots, each read by its id).
 */
export const scanQueueLoad = async (queue: Queue): Promise<ScanQueueLoad> => {
  const [counts, below, active] = await Promise.all([
    queue.getJobCounts("waiting", "prioritized"),
    queue.getCountsPerPriority([AUDIT_PAGE_PRIORITY]),
    queue.getActive(),
  ]);
  return {
    waiting: Math.max(0, (counts.waiting ?? 0) + (counts.prioritized ?? 0) - (below[AUDIT_PAGE_PRIORITY] ?? 0)),
    running: active.filter((job) => job?.name === SCAN_JOB.name && job.id !== undefined).map((job) => String(job.id)),
  };
};

/** How a step's wait ended: the scans were done, the bound was reached, or the worker is stopping. */
export type GiveWayOutcome = "clear" | "bound" | "stopping";

export type ScanGateOptions = {
  /** reads the scan queue's load; asked at most once per cacheMs, however many samples ask */
  readLoad: () => Promise<ScanQueueLoad>;
  /** how long a read load is taken as true (and how often a waiting step looks again) */
  cacheMs: number;
  /** the longest one step waits in all, the read of the load included; 0: steps never wait */
  maxWaitMs: number;
  /**
   * the longest a read of the load is waited for: one that has not answered by then is a failed
   * read (as Redis away is), and the next step reads again; unset: a read is waited for as long as
   * the steps' bound allows
   */
  readTimeoutMs?: number;
  /** every step that paused at least once: the step, how its wait ended, and how long it waited */
  onWaited?: (step: string, outcome: GiveWayOutcome, waitedMs: number) => void;
  /** a read that failed or did not answer within readTimeoutMs: the step goes on as if no scan waited */
  onReadError?: (error: unknown) => void;
  /** aborted when the worker stops: waiting steps go on at once */
  signal?: AbortSignal;
  /** the clock and the pause (ended early when its signal aborts): the timers' own unless a test gives others */
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

export type ScanGate = {
  /** runs the scan job of this id, counted as in progress in this process until it settles */
  during: <T>(jobId: string, work: () => Promise<T>) => Promise<T>;
  /**
   * Resolves once no interactive scan is in progress in this process, running elsewhere or
   * waiting on the queue, or once maxWaitMs has gone by, whichever is first, even when a read of
   * the load never answers. Never rejects.
   */
  giveWay: (step: string) => Promise<void>;
  /** scans in progress in this process now */
  readonly active: number;
  /** the scan jobs of this process the gate remembers: those running, and those settled within cacheMs */
  readonly remembered: number;
};

const timerSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** the first of the promises to settle, or "paused" after ms: the pause's timer is cleared once the race is decided */
const racing = async <T>(
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  ms: number,
  others: Promise<T>[],
): Promise<T | "paused"> => {
  const decided = new AbortController();
  try {
    return await Promise.race([...others, sleep(ms, decided.signal).then(() => "paused" as const)]);
  } finally {
    decided.abort();
  }
};

/**
 * The gate a visibility sample's CPU and database steps pass before they run: a sample gives way
 * while interactive scans are in progress in this process (known at once), running in another
 * worker process or waiting on the scan queue (read from Redis, at most once per cacheMs). Its
 * wait is bounded by maxWaitMs per step, so samples are never starved and a run always ends.
 */
export const createScanGate = (options: ScanGateOptions): ScanGate => {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? timerSleep;
  /** the scan jobs of this process: running (null) or when they settled */
  const own = new Map<string, number | null>();
  let active = 0;
  /** resolved each time a scan of this process settles: a waiting step looks again at once */
  let settled: { promise: Promise<void>; resolve: () => void } | null = null;
  const scanSettled = () => {
    if (!settled) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      settled = { promise, resolve };
    }
    return settled.promise;
  };
  /** resolved when the worker stops */
  const stopped = new Promise<void>((resolve) => {
    if (options.signal?.aborted) resolve();
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });

  let cached: { at: number; elsewhere: number; waiting: number } | null = null;
  let reading: Promise<void> | null = null;
  /** forgets the scans of this process that settled longer than cacheMs ago: no read can list them as running any more */
  const forgetSettled = () => {
    for (const [id, at] of own) if (at !== null && at < now() - options.cacheMs) own.delete(id);
  };
  const failed = (error: unknown) => {
    cached = { at: now(), elsewhere: 0, waiting: 0 };
    options.onReadError?.(error);
  };
  const refresh = (): Promise<void> => {
    if (!reading) {
      const startedAt = now();
      const read = options.readLoad().then(
        (load) => {
          // a scan of this process that settled since just before the read may still be listed as
          // running (its job is moved to completed after it settles): it is not counted elsewhere
          const known = (id: string) => {
            const at = own.get(id);
            return at === null || (at !== undefined && at >= startedAt - options.cacheMs);
          };
          cached = { at: now(), elsewhere: load.running.filter((id) => !known(id)).length, waiting: load.waiting };
        },
        (error: unknown) => failed(error),
      );
      const limit = options.readTimeoutMs;
      reading = (
        limit === undefined
          ? read
          : racing(sleep, limit, [read.then(() => "read" as const)]).then((won) => {
              if (won === "paused") failed(new Error(`the scan queue did not answer within ${limit} ms`));
            })
      ).finally(() => {
        reading = null;
        forgetSettled();
      });
    }
    return reading;
  };
  /** whether scans are in progress or waiting; "late" when the load was not read within ms */
  const busy = async (ms: number): Promise<boolean | "late"> => {
    if (active > 0) return true;
    if (!cached || now() - cached.at >= options.cacheMs) {
      if ((await racing(sleep, ms, [refresh().then(() => "read" as const)])) === "paused") return "late";
    }
    return cached !== null && (cached.elsewhere > 0 || cached.waiting > 0);
  };

  const during = async <T>(jobId: string, work: () => Promise<T>): Promise<T> => {
    active += 1;
    own.set(jobId, null);
    try {
      return await work();
    } finally {
      active -= 1;
      // forgotten as it settles too: a worker whose samples never read the queue still remembers
      // only the scans of the last cacheMs, however many it runs
      forgetSettled();
      own.set(jobId, now());
      const wake = settled;
      settled = null;
      wake?.resolve();
    }
  };

  const giveWay = async (step: string): Promise<void> => {
    if (options.maxWaitMs <= 0 || options.signal?.aborted) return;
    const started = now();
    const left = () => options.maxWaitMs - (now() - started);
    let outcome: GiveWayOutcome = "clear";
    let paused = false;
    for (;;) {
      const state = await busy(Math.max(0, left()));
      if (state === false) break;
      if (state === "late") {
        // the read did not answer within the time left: the step has reached its bound
        paused = true;
        outcome = "bound";
        break;
      }
      if (options.signal?.aborted) {
        outcome = "stopping";
        break;
      }
      const ms = left();
      if (ms <= 0) {
        outcome = "bound";
        break;
      }
      paused = true;
      await racing(sleep, Math.min(options.cacheMs, ms), [scanSettled(), stopped]);
    }
    if (paused) options.onWaited?.(step, outcome, now() - started);
  };

  return {
    during,
    giveWay,
    get active() {
      return active;
    },
    get remembered() {
      return own.size;
    },
  };
};
