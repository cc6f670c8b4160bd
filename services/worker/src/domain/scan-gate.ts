import { AUDIT_PAGE_PRIORITY, SCAN_JOB } from "@scan/queue";
import type { Queue } from "bullmq";

/** What the scan queue holds for interactive scans, as last read from Redis. */
export type ScanQueueLoad = {
  /** interactive scans queued and not yet taken (audit pages, queued below every scan, left out) */
  waiting: number;
  /** scan jobs running in any worker process, this one's included */
  active: number;
};

/**
 * Reads the scan queue's load: the jobs waiting (with a priority or without) less the audit pages,
 * which wait below every interactive scan, and the `scan` jobs among the active ones (at most the
 * workers' scan slots, each read by its id).
 */
export const scanQueueLoad = async (queue: Queue): Promise<ScanQueueLoad> => {
  const [counts, below, running] = await Promise.all([
    queue.getJobCounts("waiting", "prioritized"),
    queue.getCountsPerPriority([AUDIT_PAGE_PRIORITY]),
    queue.getActive(),
  ]);
  return {
    waiting: Math.max(0, (counts.waiting ?? 0) + (counts.prioritized ?? 0) - (below[AUDIT_PAGE_PRIORITY] ?? 0)),
    active: running.filter((job) => job?.name === SCAN_JOB.name).length,
  };
};

/** How a step's wait ended: the scans were done, the bound was reached, or the worker is stopping. */
export type GiveWayOutcome = "clear" | "bound" | "stopping";

export type ScanGateOptions = {
  /** reads the scan queue's load; asked at most once per cacheMs, however many samples ask */
  readLoad: () => Promise<ScanQueueLoad>;
  /** how long a read load is taken as true (and how often a waiting step looks again) */
  cacheMs: number;
  /** the longest one step waits in all; 0: steps never wait */
  maxWaitMs: number;
  /** every step that paused at least once: the step, how its wait ended, and how long it waited */
  onWaited?: (step: string, outcome: GiveWayOutcome, waitedMs: number) => void;
  /** a read that failed (Redis away): the step goes on as if no scan waited */
  onReadError?: (error: unknown) => void;
  /** aborted when the worker stops: waiting steps go on at once */
  signal?: AbortSignal;
  /** the clock and the pause: the timers' own unless a test gives others */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

export type ScanGate = {
  /** runs one scan job, counted as in progress in this process until it settles */
  during: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Resolves once no interactive scan is in progress in this process, running elsewhere or
   * waiting on the queue, or once maxWaitMs has gone by, whichever is first. Never rejects.
   */
  giveWay: (step: string) => Promise<void>;
  /** scans in progress in this process now */
  readonly active: number;
};

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The gate a visibility sample's CPU and database steps pass before they run: a sample gives way
 * while interactive scans are in progress in this process (known at once), running in another
 * worker process or waiting on the scan queue (read from Redis, at most once per cacheMs). Its
 * wait is bounded by maxWaitMs per step, so samples are never starved and a run always ends.
 */
export const createScanGate = (options: ScanGateOptions): ScanGate => {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? timerSleep;
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

  let cached: { at: number; elsewhere: number; waiting: number } | null = null;
  let reading: Promise<void> | null = null;
  const refresh = (): Promise<void> => {
    if (!reading) {
      const localAtRead = active;
      reading = options
        .readLoad()
        .then(
          (load) => {
            // the scans of this process are counted apart, as they start and settle
            cached = { at: now(), elsewhere: Math.max(0, load.active - localAtRead), waiting: load.waiting };
          },
          (error: unknown) => {
            cached = { at: now(), elsewhere: 0, waiting: 0 };
            options.onReadError?.(error);
          },
        )
        .finally(() => {
          reading = null;
        });
    }
    return reading;
  };
  const queueBusy = async (): Promise<boolean> => {
    if (!cached || now() - cached.at >= options.cacheMs) await refresh();
    return cached !== null && (cached.elsewhere > 0 || cached.waiting > 0);
  };
  const busy = async (): Promise<boolean> => active > 0 || (await queueBusy());

  const during = async <T>(work: () => Promise<T>): Promise<T> => {
    active += 1;
    try {
      return await work();
    } finally {
      active -= 1;
      const wake = settled;
      settled = null;
      wake?.resolve();
    }
  };

  const giveWay = async (step: string): Promise<void> => {
    if (options.maxWaitMs <= 0 || options.signal?.aborted) return;
    const started = now();
    let outcome: GiveWayOutcome = "clear";
    let paused = false;
    while (await busy()) {
      if (options.signal?.aborted) {
        outcome = "stopping";
        break;
      }
      const left = options.maxWaitMs - (now() - started);
      if (left <= 0) {
        outcome = "bound";
        break;
      }
      paused = true;
      await Promise.race([sleep(Math.min(options.cacheMs, left)), scanSettled()]);
    }
    if (paused) options.onWaited?.(step, outcome, now() - started);
  };

  return {
    during,
    giveWay,
    get active() {
      return active;
    },
  };
};
