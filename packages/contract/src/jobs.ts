import { z } from "zod";

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
} as const;

/** Callback deliveries: one job per finished scan that has a callback URL. Renaming strands them. */
export const WEBHOOK_QUEUE = "webhooks";

/** A delivery job carries the scan id only; the body is rendered from the stored scan when it is sent. */
export const WebhookJobPayload = z.object({
  scanId: z.uuid(),
  requestId: z.string().max(200).optional(),
});
export type WebhookJobPayload = z.infer<typeof WebhookJobPayload>;

export const WEBHOOK_JOB = {
  name: "deliver",
  /** attempts and backoff are the worker's WEBHOOK_ATTEMPTS and WEBHOOK_BACKOFF_MS */
  keepCompleted: { age: 24 * 3600, count: 5000 },
  keepFailed: { age: 7 * 24 * 3600, count: 5000 },
} as const;
