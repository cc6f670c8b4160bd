import { type AlertMessage, alertMessage } from "@scan/audit";
import { type AlertChannel, maskSecretUrl, RegressionAlert, VisibilityAlert } from "@scan/contract";
import type { Db } from "@scan/db";
import { redactText, redactUrl, SIGNATURE_HEADER, signWebhook } from "@scan/platform";
import { AlertJobPayload } from "@scan/queue";
import { alerts as alertRows } from "@scan/records";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { visibilityAlertMessage } from "../domain/visibility-alerts";
import { type DeliveryPolicy, type DeliveryResult, deliver } from "../domain/webhook-delivery";
import type { WorkerMetrics } from "../infra/metrics";
import { attemptOf, retryDelayMs } from "./webhook.job";

/** What sends an alert mail: nodemailer's transport over the operator's SMTP_URL. */
export type AlertMailer = {
  sendMail: (mail: { from: string; to: string; subject: string; text: string }) => Promise<unknown>;
};

/** Slack's answers that no retry can change: a bad payload, a revoked or unknown hook, an archived channel. */
const SLACK_PERMANENT = new Set([400, 403, 404, 410]);

export type AlertJobDeps = {
  db: Db;
  /** SMTP_URL's transport; null when the operator set none: a mail alert then fails saying so */
  mailer: AlertMailer | null;
  /** ALERT_FROM */
  from: string;
  /** DASHBOARD_URL: mails and Slack messages link to the audit under it */
  dashboardUrl: string;
  /** WEBHOOK_SECRET: alerts are signed as scan callbacks are, and never sent unsigned */
  secret: string | undefined;
  policy: DeliveryPolicy;
  timeoutMs: number;
  /** the delay before the first retry; doubled for each further one, as callbacks' */
  backoffMs: number;
  log: Logger;
  metrics: WorkerMetrics;
};

/** The SMTP server's refusal, without anything secret: a 5xx answer (no such mailbox) is final. */
const mailFailure = (error: unknown): { error: string; permanent: boolean } => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  const message = error instanceof Error ? error.message : String(error);
  return {
    error: redactText(`mail not accepted: ${message}`).slice(0, 300),
    permanent: typeof code === "number" && code >= 500,
  };
};

/**
 * Delivers a regression alert through its channel: a signed webhook to the schedule's alert URL: the stored body, the same bytes on
 * every attempt, signed as callbacks are (`X-Signature`, `X-Webhook-Id` is the alert's id), retried
 * with the webhook queue's backoff until a 2xx or the last attempt. One alert row per audit and
 * one job per alert (its id), so a regression is sent once; the receiver deduplicates retries on
 * `X-Webhook-Id`. A mail goes through the operator's SMTP server to the schedule's addresses, and a
 * Slack message is POSTed as `{text, blocks}` to its incoming-webhook URL (vetted by the address
 * policy at every attempt, as webhooks are); both say what got worse and link to the audit.
 * A visibility run's alert (`kind: "visibility"`, its row in visibility_alerts) goes the same
 * ways: its body signed to the webhook, its changed rates in the mail and the Slack message.
 */
export const createAlertProcessor = ({
  db,
  mailer,
  from,
  dashboardUrl,
  secret,
  policy,
  timeoutMs,
  backoffMs,
  log,
  metrics,
}: AlertJobDeps) => {
  /** An alert's row as delivery needs it, from either table: what it says and how a person reads it. */
  type Stored = {
    id: string;
    channel: AlertChannel;
    url: string;
    state: string;
    body: unknown;
    message: () => AlertMessage;
  };
  const load = async (kind: "audit" | "visibility", alertId: string): Promise<(Stored & { about: object }) | null> => {
    if (kind === "visibility") {
      const row = await db.visibilityAlert.findUnique({ where: { id: alertId } });
      if (!row) return null;
      const body = VisibilityAlert.parse(row.body);
      return { ...row, body, message: () => visibilityAlertMessage(body), about: { runId: row.runId } };
    }
    const row = await db.auditAlert.findUnique({ where: { id: alertId } });
    if (!row) return null;
    const body = RegressionAlert.parse(row.body);
    return { ...row, body, message: () => alertMessage(body, dashboardUrl), about: { auditId: row.auditId } };
  };

  const send = async (alert: Stored, attempt: number): Promise<DeliveryResult> => {
    const body = alert.body;
    if (alert.channel === "email") {
      if (!mailer)
        return {
          ok: false,
          statusCode: null,
          error: "not sent: the operator has not set SMTP_URL",
          durationMs: 0,
          permanent: true,
        };
      const message = alert.message();
      const started = performance.now();
      try {
        await mailer.sendMail({ from, to: alert.url, subject: message.subject, text: message.text });
        return {
          ok: true,
          statusCode: null,
          error: null,
          durationMs: Math.round(performance.now() - started),
          permanent: false,
        };
      } catch (error) {
        return {
          ok: false,
          statusCode: null,
          durationMs: Math.round(performance.now() - started),
          ...mailFailure(error),
        };
      }
    }
    if (alert.channel === "slack") {
      const { slack } = alert.message();
      const result = await deliver({ url: alert.url, body: JSON.stringify(slack), headers: {}, timeoutMs }, policy);
      return result.statusCode !== null && SLACK_PERMANENT.has(result.statusCode)
        ? { ...result, permanent: true }
        : result;
    }
    if (!secret)
      return {
        ok: false,
        statusCode: null,
        error: "not sent: no WEBHOOK_SECRET to sign with",
        durationMs: 0,
        permanent: true,
      };
    const raw = JSON.stringify(body);
    return deliver(
      {
        url: alert.url,
        body: raw,
        headers: {
          [SIGNATURE_HEADER]: signWebhook(secret, raw),
          "X-Webhook-Id": alert.id,
          "X-Webhook-Attempt": String(attempt),
        },
        timeoutMs,
      },
      policy,
    );
  };
  return async (job: Job): Promise<{ alertId: string; delivered: boolean }> => {
    const parsed = AlertJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad alert payload: ${parsed.error.message}`);
    const { alertId, attemptsBefore, kind = "audit" } = parsed.data;
    const alert = await load(kind, alertId);
    if (!alert) throw new UnrecoverableError(`alert ${alertId} does not exist`);
    if (alert.state !== "pending") return { alertId, delivered: alert.state === "delivered" };
    const { attempt, lastAttempt } = attemptOf(job, attemptsBefore);
    // a Slack URL's path is its token: logged masked
    const shown = alert.channel === "slack" ? maskSecretUrl(alert.url) : redactUrl(alert.url);
    const jobLog = log.child({ alertId, kind, ...alert.about, attempt, channel: alert.channel, alert: shown });
    const result = await send(alert, attempt);
    const givingUp = !result.ok && (lastAttempt || result.permanent);
    await alertRows.recordAttempt(db, kind, alertId, {
      attempt,
      error: result.error,
      outcome: result.ok ? "delivered" : givingUp ? "failed" : "retry",
      // when the queue will try again: the sweep that queues a lost delivery again keeps to it
      nextAttemptAt: new Date(Date.now() + retryDelayMs(attempt, backoffMs)),
      at: new Date(),
    });
    if (result.ok) {
      metrics.webhookAttempts.inc({ result: "delivered" });
      jobLog.info(
        { status: result.statusCode },
        `${kind === "visibility" ? "visibility" : "regression"} alert delivered`,
      );
      return { alertId, delivered: true };
    }
    if (givingUp) {
      metrics.webhookAttempts.inc({ result: "gave_up" });
      jobLog.warn(
        { status: result.statusCode, reason: result.error },
        `${kind === "visibility" ? "visibility" : "regression"} alert not delivered; giving up`,
      );
      throw new UnrecoverableError(`alert not delivered: ${result.error}`);
    }
    metrics.webhookAttempts.inc({ result: "failed" });
    throw new Error(`alert attempt ${attempt} failed: ${result.error}`);
  };
};
