/** For tests only: the pieces the scan gate's tests and the visibility sample job's tests share. */
import { createScanGate, type ScanGate, type ScanGateOptions } from "./scan-gate";

/** A pause that never ends by itself: only a scan settling (or the worker stopping) lets a held step go on. */
export const never = () => new Promise<void>(() => {});

/** Lets every callback queued so far run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A gate that sees only the scans of this process: Redis, as it reads it, lists each of them as
 * running for as long as it runs, and no other scan. Its pauses never end by themselves.
 */
export const localGate = (overrides: Partial<ScanGateOptions> = {}): ScanGate => {
  const running = new Set<string>();
  const gate = createScanGate({
    readLoad: async () => ({ waiting: 0, running: [...running] }),
    cacheMs: 100,
    maxWaitMs: 2_000,
    sleep: never,
    ...overrides,
  });
  return {
    ...gate,
    during: (jobId, work) => {
      running.add(jobId);
      return gate.during(jobId, work).finally(() => running.delete(jobId));
    },
    get active() {
      return gate.active;
    },
    get remembered() {
      return gate.remembered;
    },
  };
};

/**
 * A scan run through the gate as the job of this id, started at once and held until `end` is
 * called; "scan started" and "scan ended" are pushed to the events.
 */
export const heldScan = (gate: ScanGate, events: string[], jobId = "scan-1") => {
  let end = () => {};
  const done = gate.during(
    jobId,
    () =>
      new Promise<void>((resolve) => {
        events.push("scan started");
        end = () => {
          events.push("scan ended");
          resolve();
        };
      }),
  );
  return { done, end: () => end() };
};
