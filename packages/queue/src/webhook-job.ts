import { z } from "zod";

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

/** The delivery job of an alert, on the webhook queue: its id is the alert's, so it is queued once. */
export const ALERT_JOB = { name: "deliver-alert" } as const;
export const AlertJobPayload = z.object({
  alertId: z.uuid(),
  /** which alert: an audit's regression (the default) or a visibility run's change */
  kind: z.enum(["audit", "visibility"]).optional(),
  /** attempts made before this job (it was queued again from the alert's row after the queue lost it) */
  attemptsBefore: z.int().nonnegative().optional(),
});
export type AlertJobPayload = z.infer<typeof AlertJobPayload>;
export const alertJobId = (alertId: string) => `alert-${alertId}`;

/**
 * The mail of a scheduled audit's client report, on the webhook queue: its id is the audit's, so
 * an audit's report is mailed once (retried, as alerts are, while the SMTP server refuses it).
 */
export const REPORT_MAIL_JOB = { name: "mail-report" } as const;
export const ReportMailJobPayload = z.object({ auditId: z.uuid() });
export type ReportMailJobPayload = z.infer<typeof ReportMailJobPayload>;
export const reportMailJobId = (auditId: string) => `report-mail-${auditId}`;
