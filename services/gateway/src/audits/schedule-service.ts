import { AppError, type AuditScheduleRequest, type AuditScheduleView, maskSecretUrl, type Plan } from "@scan/contract";
import type { AuditSchedule, Db } from "@scan/db";
import { auditScheduler, auditSchedulerId, schedulePattern } from "@scan/queue";
import { type Actor, auditLog, schedules } from "@scan/records";
import type { Queue } from "bullmq";
import { z } from "zod";
import type { AccountCaller } from "../access/authenticate";
import { withUserLock } from "../access/user-lock";
import { siteNotFound } from "../sites";

export type ScheduleServiceDeps = {
  db: Db;
  queue: Pick<Queue, "upsertJobScheduler" | "removeJobScheduler" | "getJobScheduler">;
  /** the most pages one audit may scan, by plan */
  pagesByPlan: Record<Plan, number>;
  /** sites with a schedule, by plan */
  schedulesByPlan: Record<Plan, number>;
  /** vets a URL the service will POST to (the address policy), naming the field in its refusal */
  vetDeliveryUrl: (url: string, field: string, hint: string) => Promise<string>;
  /** WEBHOOK_SECRET is set: signed webhook alerts can be sent */
  webhooksEnabled: boolean;
  /** SMTP_URL is set: alert mails can be sent */
  mailEnabled: boolean;
};

const stringList = z.array(z.string());

const noSchedule = (siteId: string) =>
  new AppError(
    "not_found",
    `Site ${siteId} has no audit schedule`,
    "Create one with POST /api/v1/sites/{id}/schedule.",
  );

/**
 * A schedule's fields as the audit log shows them. Where alerts go is only whether they go: a
 * webhook's or Slack's URL is a credential (Slack's holds its token), and the addresses stay out.
 */
const logged = (schedule: AuditSchedule) => ({
  frequency: schedule.frequency,
  mode: schedule.mode,
  max_pages: schedule.maxPages,
  include: schedule.include,
  exclude: schedule.exclude,
  alert_drop: schedule.alertDrop,
  alerts_to_webhook: schedule.alertUrl !== null,
  alerts_to_slack: schedule.alertSlackUrl !== null,
  alert_email_count: schedule.alertEmails.length,
  report_email_count: schedule.reportEmails.length,
});

export type ScheduleService = {
  /** Creates or replaces the site's schedule; `created` says which. */
  put: (
    owner: AccountCaller,
    siteId: string,
    input: AuditScheduleRequest,
    actor: Actor,
  ) => Promise<{ schedule: AuditScheduleView; created: boolean }>;
  /** One of the workspace's sites' schedule; 404 when it has none. */
  get: (workspaceId: string, siteId: string) => Promise<AuditScheduleView>;
  /** The site's schedule, or null when it has none (the caller has checked the site is the workspace's). */
  find: (siteId: string) => Promise<AuditScheduleView | null>;
  /** Deletes the schedule, answering it as it was with no next run; audits it started stay. */
  remove: (workspaceId: string, siteId: string, actor: Actor) => Promise<AuditScheduleView>;
};

/**
 * A site's recurring audit: stored as a row (one per site), run by a BullMQ job scheduler made
 * from it. The worker makes the scheduler again from the row when Redis lost it.
 */
export const createScheduleService = ({
  db,
  queue,
  pagesByPlan,
  schedulesByPlan,
  vetDeliveryUrl,
  webhooksEnabled,
  mailEnabled,
}: ScheduleServiceDeps): ScheduleService => {
  const viewOf = async (schedule: AuditSchedule): Promise<AuditScheduleView> => {
    const scheduler = await queue.getJobScheduler(auditSchedulerId(schedule.siteId)).catch(() => undefined);
    return {
      id: schedule.id,
      site_id: schedule.siteId,
      frequency: schedule.frequency,
      mode: schedule.mode,
      max_pages: schedule.maxPages,
      include: stringList.parse(schedule.include),
      exclude: stringList.parse(schedule.exclude),
      alert_url: schedule.alertUrl,
      alert_emails: schedule.alertEmails,
      report_emails: schedule.reportEmails,
      // the URL is the channel's secret: shown masked, never whole
      alert_slack_url: schedule.alertSlackUrl === null ? null : maskSecretUrl(schedule.alertSlackUrl),
      alert_drop: schedule.alertDrop,
      pattern: schedulePattern(schedule.siteId, schedule.frequency),
      next_run_at: scheduler?.next ? new Date(scheduler.next).toISOString() : null,
      last_audit_id: schedule.lastAuditId,
      last_run_at: schedule.lastRunAt?.toISOString() ?? null,
      created_at: schedule.createdAt.toISOString(),
      updated_at: schedule.updatedAt.toISOString(),
    };
  };

  /** a signed webhook: the address policy, and a WEBHOOK_SECRET to sign with */
  const vetWebhook = async (url: string) => {
    if (!webhooksEnabled)
      throw new AppError(
        "invalid_request",
        "alert_url is not available: signed webhook alerts need WEBHOOK_SECRET, which this deployment has not set",
        "Ask the operator to set WEBHOOK_SECRET (16+ characters, the same on the gateway and the worker), or choose an e-mail or Slack alert instead.",
      );
    return vetDeliveryUrl(
      url,
      "alert_url",
      "Give an absolute, public http(s) URL that accepts a signed POST with the regression.",
    );
  };

  /**
   * A Slack incoming webhook: the address policy, no signature (Slack's URL is its own secret).
   * The masked URL the schedule shows, sent back unchanged, keeps the stored one.
   */
  const vetSlack = async (input: string | undefined, stored: string | null) => {
    if (input === undefined) return null;
    if (stored !== null && input === maskSecretUrl(stored)) return stored;
    // an edited mask would otherwise pass as a URL, and every message would go nowhere
    if (input.includes("…"))
      throw new AppError(
        "invalid_request",
        "alert_slack_url is a masked URL that does not match the stored one",
        "Paste the whole Slack webhook URL, or send the masked value unchanged to keep the stored URL.",
      );
    return vetDeliveryUrl(
      input,
      "alert_slack_url",
      "Give the Slack incoming-webhook URL (https://hooks.slack.com/services/…) from the Slack app's Incoming Webhooks page.",
    );
  };

  const ownedSite = async (workspaceId: string, siteId: string) => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    return site;
  };

  /** Creates or replaces the site's schedule; `created` says which. */
  const put = async (owner: AccountCaller, siteId: string, input: AuditScheduleRequest, actor: Actor) => {
    await ownedSite(owner.workspaceId, siteId);
    const ceiling = pagesByPlan[owner.plan];
    if (input.max_pages !== undefined && input.max_pages > ceiling)
      throw new AppError(
        "plan_limit",
        `The ${owner.plan} plan audits at most ${ceiling} pages; max_pages was ${input.max_pages}`,
        `Ask for ${ceiling} pages or fewer, or leave max_pages out.`,
      );
    const alertUrl = input.alert_url === undefined ? null : await vetWebhook(input.alert_url);
    const current = await db.auditSchedule.findUnique({ where: { siteId }, select: { alertSlackUrl: true } });
    const alertSlackUrl = await vetSlack(input.alert_slack_url, current?.alertSlackUrl ?? null);
    if (input.alert_emails.length > 0 && !mailEnabled)
      throw new AppError(
        "invalid_request",
        "alert_emails is not available: this deployment has no SMTP server to send mail through",
        "Ask the operator to set SMTP_URL (and ALERT_FROM) on the gateway and the worker, or choose a Slack alert.",
      );
    if (input.report_emails.length > 0 && !mailEnabled)
      throw new AppError(
        "invalid_request",
        "report_emails is not available: this deployment has no SMTP server to send mail through",
        "Ask the operator to set SMTP_URL (and ALERT_FROM) on the gateway and the worker, or download the client report (GET /api/v1/audits/{id}/report?format=pdf).",
      );
    // one address once, whatever its case
    const once = (addresses: string[]) => [
      ...new Map(addresses.map((address) => [address.toLowerCase(), address])).values(),
    ];
    const alertEmails = once(input.alert_emails);
    const reportEmails = once(input.report_emails);
    const data = {
      alertUrl,
      alertEmails,
      reportEmails,
      alertSlackUrl,
      alertDrop: input.alert_drop,
      frequency: input.frequency,
      mode: input.mode,
      maxPages: input.max_pages ?? ceiling,
      include: input.include,
      exclude: input.exclude,
    };
    const { schedule, created } = await withUserLock(db, "audit-schedules", owner.workspaceId, async (tx) => {
      const existing = await tx.auditSchedule.findUnique({ where: { siteId } });
      if (existing) {
        const changed = await schedules.change(tx, siteId, data);
        await auditLog.append(tx, owner.workspaceId, actor, {
          action: "schedule.changed",
          target: { type: "schedule", id: changed.id },
          changes: { site_id: siteId, ...auditLog.changed(logged(existing), logged(changed)) },
        });
        return { schedule: changed, created: false };
      }
      const cap = schedulesByPlan[owner.plan];
      const count = await tx.auditSchedule.count({ where: { workspaceId: owner.workspaceId } });
      if (count >= cap)
        throw new AppError(
          "plan_limit",
          `The ${owner.plan} plan schedules audits of at most ${cap} site${cap === 1 ? "" : "s"}`,
          "Delete another site's schedule, or move to a higher plan.",
        );
      const made = await schedules.insert(tx, { siteId, workspaceId: owner.workspaceId, userId: owner.userId }, data);
      await auditLog.append(tx, owner.workspaceId, actor, {
        action: "schedule.created",
        target: { type: "schedule", id: made.id },
        changes: { site_id: siteId, ...logged(made) },
      });
      return { schedule: made, created: true };
    });
    const scheduler = auditScheduler(schedule);
    try {
      await queue.upsertJobScheduler(scheduler.id, scheduler.repeat, scheduler.template);
    } catch {
      // the row stands: the worker makes the scheduler from it once the queue is back
      throw new AppError(
        "service_unavailable",
        "The schedule is stored but the queue is unavailable to run it",
        "It will be queued once the queue is back; read it again to see next_run_at.",
        { "Retry-After": "5" },
      );
    }
    return { schedule: await viewOf(schedule), created };
  };

  /** The site's schedule, or null when it has none (the caller has checked the site is the workspace's). */
  const find = async (siteId: string): Promise<AuditScheduleView | null> => {
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    return schedule ? viewOf(schedule) : null;
  };

  const get = async (workspaceId: string, siteId: string) => {
    await ownedSite(workspaceId, siteId);
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    if (!schedule) throw noSchedule(siteId);
    return viewOf(schedule);
  };

  /** Deletes the schedule; audits it started stay. */
  const remove = async (workspaceId: string, siteId: string, actor: Actor) => {
    await ownedSite(workspaceId, siteId);
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    if (!schedule) throw noSchedule(siteId);
    const view = await viewOf(schedule);
    await db.$transaction(async (tx) => {
      const { moved } = await schedules.remove(tx, siteId);
      if (!moved) throw noSchedule(siteId);
      await auditLog.append(tx, workspaceId, actor, {
        action: "schedule.deleted",
        target: { type: "schedule", id: schedule.id },
        changes: { site_id: siteId, ...logged(schedule) },
      });
    });
    // a scheduler left behind (the queue away) finds no row when it fires, and removes itself
    await queue.removeJobScheduler(auditSchedulerId(siteId)).catch(() => undefined);
    return { ...view, next_run_at: null };
  };

  return { put, get, find, remove };
};
