import { ScanMode } from "@scan/contract";
import { z } from "zod";
import { INTERACTIVE_PRIORITY_CEILING } from "./priority";

/** Renaming a queue strands the jobs already in it: change it only with a migration plan. */
export const SCAN_QUEUE = "scans";

/** A scan job carries ids and the URL only; the result goes to Postgres, keyed by scanId. */
export const ScanJobPayload = z.object({
  scanId: z.uuid(),
  url: z.url(),
  mode: ScanMode,
  requestId: z.string().max(200).optional(),
  /** keep the captured snapshot for a while (scan_snapshots), for the fix and content generators */
  keepSnapshot: z.boolean().optional(),
});
export type ScanJobPayload = z.infer<typeof ScanJobPayload>;

/** What the worker returns to BullMQ: a pointer and an outcome, never the result itself. */
export const ScanJobOutcome = z.object({ scanId: z.uuid(), status: z.enum(["completed", "failed"]) });
export type ScanJobOutcome = z.infer<typeof ScanJobOutcome>;

export const SCAN_JOB = {
  name: "scan",
  /** one retry for transient faults (a crashed browser); permanent ones are not retried */
  attempts: 2,
  backoffMs: 250,
  /** completed and failed jobs kept in Redis for the dashboard; the scan row is the record */
  keepCompleted: { age: 3600, count: 5000 },
  keepFailed: { age: 24 * 3600, count: 5000 },
  /**
   * how often a scan whose job the queue lost (Redis restarted empty, evicted, failed over) is
   * queued again from its row before it is failed: a scan that keeps losing its job is failed
   * rather than tried for ever
   */
  maxRequeues: 3,
} as const;

/** What a scan job is made from: the scan row's fields, or the gateway's new scan. */
export type QueuedScan = {
  id: string;
  url: string;
  mode: ScanMode;
  requestId?: string | null;
  keepSnapshot?: boolean;
};

/**
 * The one way a scan job is built, by the gateway when a scan is accepted and by the worker
 * when it queues a lost one again from its row: the job id is the scan id (a second add of
 * the same scan is a no-op), attempts and retention from the catalogue.
 */
export const scanJob = (scan: QueuedScan, priority: number) => ({
  name: SCAN_JOB.name,
  data: {
    scanId: scan.id,
    url: scan.url,
    mode: scan.mode,
    ...(scan.requestId ? { requestId: scan.requestId } : {}),
    ...(scan.keepSnapshot ? { keepSnapshot: true } : {}),
  } satisfies ScanJobPayload,
  opts: {
    jobId: scan.id,
    priority: Math.min(INTERACTIVE_PRIORITY_CEILING, Math.max(1, priority)),
    attempts: SCAN_JOB.attempts,
    backoff: { type: "fixed", delay: SCAN_JOB.backoffMs },
    removeOnComplete: SCAN_JOB.keepCompleted,
    removeOnFail: SCAN_JOB.keepFailed,
  },
});
