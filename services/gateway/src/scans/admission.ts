import type { ScanMode } from "@scan/contract";

/** What the queue looks like now: scans ahead of a new one, and the workers taking them. */
export type QueueLoad = { ahead: number; workers: number };

export type AdmissionOptions = {
  /** reads the queue (waiting + active jobs, registered workers); called at most once per refreshMs */
  load: () => Promise<QueueLoad>;
  /** scans one worker process runs at once */
  concurrencyPerWorker: number;
  refreshMs?: number;
  /**
   * a reading younger than this still answers at once while a fresh one is read beside the
   * request (default 4 × refreshMs); an older one, or none, is waited for
   */
  maxStaleMs?: number;
  now?: () => number;
};

export type AdmissionVerdict = { admit: true } | { admit: false; predictedMs: number; retryAfterS: number };

/** weight of the newest sample in the running mean of service times */
const SMOOTHING = 0.2;

export type Admission = {
  /** Whether a scan of this mode, asked for now, can finish within `budgetMs`; when not, the wait predicted. */
  decide: (mode: ScanMode, budgetMs: number) => Promise<AdmissionVerdict>;
  /** A finished scan's service time (started → completed), for the running mean of its mode. */
  record: (mode: ScanMode, serviceMs: number) => void;
};

/**
 * Admission control for scans whose caller waits for the result. It predicts when a new scan
 * would finish — the scans ahead of it, spread over the workers' slots, each taking the
 * recent mean service time, then its own — and refuses (429 with Retry-After) a scan that
 * cannot finish within the caller's budget, instead of queueing work the caller will not wait
 * for. It admits while it knows nothing (no worker registered, no scan timed yet): the caller
 * then gets its 202 when the budget runs out, as without admission control.
 */
export const createAdmission = ({
  load,
  concurrencyPerWorker,
  refreshMs = 250,
  maxStaleMs = 4 * refreshMs,
  now = Date.now,
}: AdmissionOptions): Admission => {
  const meanMs: Partial<Record<ScanMode, number>> = {};
  let cached: { at: number; load: QueueLoad } | null = null;
  /** scans admitted since the last read of the queue, which that read did not see yet */
  let admittedSince = 0;
  let reading: Promise<QueueLoad> | null = null;

  const refresh = (): Promise<QueueLoad> => {
    reading ??= load()
      .then((fresh) => {
        cached = { at: now(), load: fresh };
        admittedSince = 0;
        return fresh;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  const current = async (): Promise<QueueLoad> => {
    const age = cached ? now() - cached.at : Number.POSITIVE_INFINITY;
    let known = cached?.load;
    if (!known || age >= refreshMs) {
      const refreshing = refresh();
      // a waiting caller does not also wait for the queue's counters while a recent reading stands
      if (!known || age >= maxStaleMs) known = await refreshing;
      else refreshing.catch(() => undefined);
    }
    return { ...known, ahead: known.ahead + admittedSince };
  };

  /** A finished scan's service time (started → completed), for the running mean of its mode. */
  const record = (mode: ScanMode, serviceMs: number): void => {
    if (!(serviceMs >= 0)) return;
    const mean = meanMs[mode];
    meanMs[mode] = mean === undefined ? serviceMs : mean + SMOOTHING * (serviceMs - mean);
  };

  const decide = async (mode: ScanMode, budgetMs: number): Promise<AdmissionVerdict> => {
    const own = meanMs[mode];
    const { ahead, workers } = await current();
    const slots = workers * concurrencyPerWorker;
    if (own === undefined || slots === 0) {
      admittedSince += 1;
      return { admit: true };
    }
    // the scans ahead are of either mode: the mean of the modes seen stands for them
    const means = Object.values(meanMs);
    const typical = means.reduce((sum, ms) => sum + ms, 0) / means.length;
    const predictedMs = Math.ceil(ahead / slots) * typical + own;
    if (predictedMs <= budgetMs) {
      admittedSince += 1;
      return { admit: true };
    }
    return { admit: false, predictedMs, retryAfterS: Math.max(1, Math.ceil((predictedMs - budgetMs) / 1000)) };
  };

  return { decide, record };
};
