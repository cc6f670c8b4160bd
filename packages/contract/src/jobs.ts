import { z } from "zod";
import type { Plan } from "./account";

/** Renaming a queue strands the jobs already in it: change it only with a migration plan. */
export const SCAN_QUEUE = "scans";

export const ScanMode = z.enum(["quick", "full"]);
export type ScanMode = z.infer<typeof ScanMode>;

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

/** BullMQ's largest priority (lowest urgency): 2^21 - 1, the largest its `add` accepts */
export const MAX_SCAN_PRIORITY = 2_097_151;

/**
 * The priority of every audit page: below every interactive scan, which is capped one above it,
 * so a caller waiting for a scan never waits behind an audit's backlog (only behind the pages
 * already running). Among audit pages BullMQ keeps the order they were queued in, which is
 * breadth-first: the start page and the sitemaps' pages, then the links of each page scanned.
 */
export const AUDIT_PAGE_PRIORITY = MAX_SCAN_PRIORITY;
/** the lowest urgency an interactive scan gets: always ahead of audit pages */
export const INTERACTIVE_PRIORITY_CEILING = MAX_SCAN_PRIORITY - 1;

/** Who a scan is queued for, for its priority: a plan, or nobody (no key). */
export type PriorityClass = Plan | "anonymous";
export type PriorityWeights = Record<PriorityClass, number>;

/**
 * `PLAN_PRIORITY_WEIGHTS` (`agency=1,pro=2,...`), read by the gateway, which queues scans, and
 * the worker, which queues again the scans Redis lost: both must order them the same way.
 */
export const PlanPriorityWeights = z
  .string()
  .default("agency=1,pro=2,starter=4,free=8,anonymous=16")
  .transform((value, ctx) => {
    const weights: Record<string, number> = {};
    for (const entry of value.split(",")) {
      const match = /^\s*(agency|pro|starter|free|anonymous)\s*=\s*(\d{1,4})\s*$/.exec(entry);
      if (!match?.[1] || !match[2] || Number(match[2]) < 1) {
        ctx.addIssue({ code: "custom", message: `"${entry}" is not plan=weight (a whole number from 1)` });
        return z.NEVER;
      }
      weights[match[1]] = Number(match[2]);
    }
    const missing = ["agency", "pro", "starter", "free", "anonymous"].filter((plan) => !(plan in weights));
    if (missing.length > 0) {
      ctx.addIssue({ code: "custom", message: `needs a weight for ${missing.join(", ")}` });
      return z.NEVER;
    }
    return weights as PriorityWeights;
  });

/**
 * Queue order among waiting scans: a caller's n-th waiting scan (counting from 0) gets
 * priority 1 + n × weight(plan), BullMQ running lower numbers first.
 */
export const scanPriority = (waitingAhead: number, weight: number): number =>
  Math.min(INTERACTIVE_PRIORITY_CEILING, 1 + waitingAhead * weight);

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

/** Callback deliveries: one job per finished scan that has a callback URL. Renaming strands them. */
export const WEBHOOK_QUEUE = "webhooks";

/** A delivery job carries the scan id only; the body is rendered from the stored scan when it is sent. */
export const WebhookJobPayload = z.object({
  scanId: z.uuid(),
  requestId: z.string().max(200).optional(),
  /** attempts made before this job (it was queued again from the scan's row after the queue lost it) */
  attemptsBefore: z.int().nonnegative().optional(),
});
export type WebhookJobPayload = z.infer<typeof WebhookJobPayload>;

export const WEBHOOK_JOB = {
  name: "deliver",
  /**
   * the backoff of a delivery queued again from its row: BullMQ's exponential backoff counted
   * from the attempts made before the job (the worker's backoffStrategy), so the delays go on
   * where they stopped
   */
  resumedBackoff: "delivery-resumed",
  /** attempts and backoff are the worker's WEBHOOK_ATTEMPTS and WEBHOOK_BACKOFF_MS */
  keepCompleted: { age: 24 * 3600, count: 5000 },
  keepFailed: { age: 7 * 24 * 3600, count: 5000 },
} as const;
