import { AlertJobPayload, RegressionAlert } from "@scan/contract";
import type { Db } from "@scan/db";
import { redactUrl, SIGNATURE_HEADER, signWebhook } from "@scan/platform";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { type DeliveryPolicy, type DeliveryResult, deliver } from "../domain/webhook-delivery";
import type { WorkerMetrics } from "../infra/metrics";
import { attemptOf, retryDelayMs } from "./webhook.job";

export type AlertJobDeps = {
  db: Db;
  /** WEBHOOK_SECRET: alerts are signed as scan callbacks are, and never sent unsigned */
  secret: string | undefined;
  policy: DeliveryPolicy;
  timeoutMs: number;
  /** the delay before the first retry; doubled for each further one, as callbacks' */
  backoffMs: number;
  log: Logger;
  metrics: WorkerMetrics;
};

/**
 * Delivers a regression alert to its schedule's alert URL: the stored body, the same bytes on
 * every attempt, signed as callbacks are (`X-Signature`, `X-Webhook-Id` is the alert's id), retried
 * with the webhook queue's backoff until a 2xx or the last attempt. One alert row per audit and
 * one job per alert (its id), so a regression is sent once; the receiver deduplicates retries on
 * `X-Webhook-Id`.
 */
export const createAlertProcessor =
  ({ db, secret, policy, timeoutMs, backoffMs, log, metrics }: AlertJobDeps) =>
  async (job: Job): Promise<{ alertId: string; delivered: boolean }> => {
    const parsed = AlertJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad alert payload: ${parsed.error.message}`);
    const { alertId, attemptsBefore } = parsed.data;
    const alert = await db.auditAlert.findUnique({ where: { id: alertId } });
    if (!alert) throw new UnrecoverableError(`alert ${alertId} does not exist`);
    if (alert.state !== "pending") return { alertId, delivered: alert.state === "delivered" };
    const { attempt, lastAttempt } = attemptOf(job, attemptsBefore);
    const jobLog = log.child({ alertId, auditId: alert.auditId, attempt, alert: redactUrl(alert.url) });
    let result: DeliveryResult;
    if (!secret) {
      result = {
        ok: false,
        statusCode: null,
        error: "not sent: no WEBHOOK_SECRET to sign with",
        durationMs: 0,
        permanent: true,
      };
    } else {
      const body = JSON.stringify(RegressionAlert.parse(alert.body));
      result = await deliver(
        {
          url: alert.url,
          body,
          headers: {
            [SIGNATURE_HEADER]: signWebhook(secret, body),
            "X-Webhook-Id": alert.id,
            "X-Webhook-Attempt": String(attempt),
          },
          timeoutMs,
        },
        policy,
      );
    }
    const givingUp = !result.ok && (lastAttempt || result.permanent);
    await db.auditAlert.update({
      where: { id: alertId },
      data: {
        attempts: attempt,
        lastError: result.error,
        // when the queue will try again: the sweep that queues a lost delivery again keeps to it
        nextAttemptAt: result.ok || givingUp ? null : new Date(Date.now() + retryDelayMs(attempt, backoffMs)),
        ...(result.ok ? { state: "delivered", deliveredAt: new Date() } : givingUp ? { state: "failed" } : {}),
      },
    });
    if (result.ok) {
      metrics.webhookAttempts.inc({ result: "delivered" });
      jobLog.info({ status: result.statusCode }, "regression alert delivered");
      return { alertId, delivered: true };
    }
    if (givingUp) {
      metrics.webhookAttempts.inc({ result: "gave_up" });
      jobLog.warn({ status: result.statusCode, reason: result.error }, "regression alert not delivered; giving up");
      throw new UnrecoverableError(`alert not delivered: ${result.error}`);
    }
    metrics.webhookAttempts.inc({ result: "failed" });
    throw new Error(`alert attempt ${attempt} failed: ${result.error}`);
  };
