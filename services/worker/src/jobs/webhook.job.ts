import { ScanWebhook } from "@scan/contract";
import type { Db } from "@scan/db";
import { redactUrl, SIGNATURE_HEADER, signWebhook } from "@scan/platform";
import { WebhookJobPayload } from "@scan/queue";
import { scans, webhookDeliveries } from "@scan/records";
import { toStoredScan } from "@scan/reports";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { type DeliveryPolicy, type DeliveryResult, deliver } from "../domain/webhook-delivery";
import type { WorkerMetrics } from "../infra/metrics";

export type WebhookJobDeps = {
  db: Db;
  /** WEBHOOK_SECRET; without it nothing is sent unsigned: the delivery fails at once */
  secret: string | undefined;
  policy: DeliveryPolicy;
  timeoutMs: number;
  /** the delay before the first retry; BullMQ doubles it for each further one */
  backoffMs: number;
  log: Logger;
  metrics: WorkerMetrics;
};

/** BullMQ's exponential backoff: the retry after attempt n waits backoffMs · 2^(n−1). */
export const retryDelayMs = (attempt: number, backoffMs: number): number => backoffMs * 2 ** (attempt - 1);

/**
 * Where a delivery job stands among all its delivery's attempts: a job queued again from its
 * row (the queue lost the first) starts after the attempts made before it, and its last
 * attempt is the delivery's last.
 */
export const attemptOf = (job: Job, attemptsBefore = 0): { attempt: number; lastAttempt: boolean } => {
  const attempt = attemptsBefore + job.attemptsMade + 1;
  return { attempt, lastAttempt: attempt >= attemptsBefore + (job.opts.attempts ?? 1) };
};

/**
 * Delivers a finished scan to its callback URL: one signed POST per attempt, each attempt
 * stored (GET /api/v1/scan/:id shows them), retried with exponential backoff until a 2xx or
 * the last attempt. The body is the same bytes on every attempt; the signature's timestamp
 * is fresh each time.
 */
export const createWebhookProcessor =
  ({ db, secret, policy, timeoutMs, backoffMs, log, metrics }: WebhookJobDeps) =>
  async (job: Job): Promise<{ scanId: string; delivered: boolean }> => {
    const parsed = WebhookJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad webhook payload: ${parsed.error.message}`);
    const { scanId, requestId, attemptsBefore } = parsed.data;
    const scan = await db.scan.findUnique({ where: { id: scanId } });
    if (!scan?.callbackUrl) throw new UnrecoverableError(`scan ${scanId} has no callback to deliver`);
    if (scan.callbackState === "delivered") return { scanId, delivered: true };
    if (scan.status !== "completed" && scan.status !== "failed") {
      throw new UnrecoverableError(`scan ${scanId} is ${scan.status}; only finished scans are delivered`);
    }
    const { attempt, lastAttempt } = attemptOf(job, attemptsBefore);
    const jobLog = log.child({ scanId, requestId, attempt, callback: redactUrl(scan.callbackUrl) });

    const attemptedAt = new Date();
    let result: DeliveryResult;
    if (!secret) {
      result = {
        ok: false,
        statusCode: null,
        error: "not sent: the worker has no WEBHOOK_SECRET to sign with",
        durationMs: 0,
        permanent: true,
      };
    } else {
      const body = JSON.stringify(
        ScanWebhook.parse({
          event: scan.status === "completed" ? "scan.completed" : "scan.failed",
          scan_id: scan.id,
          data: toStoredScan(scan),
        }),
      );
      const headers: Record<string, string> = {
        [SIGNATURE_HEADER]: signWebhook(secret, body),
        "X-Webhook-Id": scan.id,
        "X-Webhook-Attempt": String(attempt),
      };
      if (requestId) headers["X-Request-Id"] = requestId;
      result = await deliver({ url: scan.callbackUrl, body, headers, timeoutMs }, policy);
    }

    const givingUp = !result.ok && (lastAttempt || result.permanent);
    await webhookDeliveries.append(db, {
      scanId,
      attempt,
      ok: result.ok,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      createdAt: attemptedAt,
      // BullMQ counts the delay from when this job fails, just after this write
      nextAttemptAt: result.ok || givingUp ? null : new Date(Date.now() + retryDelayMs(attempt, backoffMs)),
    });
    if (result.ok) {
      await scans.callbackDelivered(db, scanId);
      metrics.webhookAttempts.inc({ result: "delivered" });
      jobLog.info({ status: result.statusCode, ms: result.durationMs }, "callback delivered");
      return { scanId, delivered: true };
    }
    if (givingUp) {
      await scans.callbackFailed(db, scanId);
      metrics.webhookAttempts.inc({ result: "gave_up" });
      jobLog.warn({ status: result.statusCode, reason: result.error }, "callback not delivered; giving up");
      throw new UnrecoverableError(`callback not delivered: ${result.error}`);
    }
    metrics.webhookAttempts.inc({ result: "failed" });
    jobLog.info({ status: result.statusCode, reason: result.error }, "callback attempt failed; will retry");
    throw new Error(`callback attempt ${attempt} failed: ${result.error}`);
  };
