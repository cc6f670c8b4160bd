import type { DbClient } from "./transitions";

/**
 * A scan's callback attempts, one row an attempt, as GET /api/v1/scan/:id lists them: appended,
 * never changed. The scan row's own callback state moves with `scans.callbackDelivered` and
 * `scans.callbackFailed`.
 */

export type DeliveryAttempt = {
  scanId: string;
  attempt: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
  /** when the queue tries again; null when delivered or given up */
  nextAttemptAt: Date | null;
};

/** Appends one attempt. */
export const append = (db: DbClient, attempt: DeliveryAttempt) => db.webhookDelivery.create({ data: attempt });
