import {
  AppError,
  type AuditScheduleRequest,
  type AuditScheduleView,
  auditScheduler,
  auditSchedulerId,
  type Plan,
  schedulePattern,
} from "@scan/contract";
import type { AuditSchedule, Db } from "@scan/db";
import type { Queue } from "bullmq";
import { z } from "zod";
import type { AccountCaller } from "./authenticate";
import { siteNotFound } from "./site-service";
import { withUserLock } from "./user-lock";

export type ScheduleServiceDeps = {
  db: Db;
  queue: Pick<Queue, "upsertJobScheduler" | "removeJobScheduler" | "getJobScheduler">;
  /** the most pages one audit may scan, by plan */
  pagesByPlan: Record<Plan, number>;
  /** sites with a schedule, by plan */
  schedulesByPlan: Record<Plan, number>;
  /** vets an alert URL as a callback URL is vetted */
  vetCallback: (url: string) => Promise<string>;
};

const stringList = z.array(z.string());

const noSchedule = (siteId: string) =>
  new AppError(
    "not_found",
    `Site ${siteId} has no audit schedule`,
    "Create one with POST /api/v1/sites/{id}/schedule.",
  );

/**
 * A site's recurring audit: stored as a row (one per site), run by a BullMQ job scheduler made
 * from it. The worker makes the scheduler again from the row when Redis lost it.
 */
export const createScheduleService = ({
  db,
  queue,
  pagesByPlan,
  schedulesByPlan,
  vetCallback,
}: ScheduleServiceDeps) => {
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
      alert_drop: schedule.alertDrop,
      pattern: schedulePattern(schedule.siteId, schedule.frequency),
      next_run_at: scheduler?.next ? new Date(scheduler.next).toISOString() : null,
      last_audit_id: schedule.lastAuditId,
      last_run_at: schedule.lastRunAt?.toISOString() ?? null,
      created_at: schedule.createdAt.toISOString(),
      updated_at: schedule.updatedAt.toISOString(),
    };
  };

  const ownedSite = async (userId: string, siteId: string) => {
    const site = await db.site.findFirst({ where: { id: siteId, userId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    return site;
  };

  /** Creates or replaces the site's schedule; `created` says which. */
  const put = async (owner: AccountCaller, siteId: string, input: AuditScheduleRequest) => {
    await ownedSite(owner.userId, siteId);
    const ceiling = pagesByPlan[owner.plan];
    if (input.max_pages !== undefined && input.max_pages > ceiling)
      throw new AppError(
        "plan_limit",
        `The ${owner.plan} plan audits at most ${ceiling} pages; max_pages was ${input.max_pages}`,
        `Ask for ${ceiling} pages or fewer, or leave max_pages out.`,
      );
    // the same rules as a callback_url: public, resolvable, and a WEBHOOK_SECRET to sign with
    const alertUrl =
      input.alert_url === undefined
        ? null
        : await vetCallback(input.alert_url).catch((error: unknown) => {
            if (error instanceof AppError)
              throw new AppError(error.kind, error.message.replace(/^callback_url/, "alert_url"), error.hint);
            throw error;
          });
    const data = {
      alertUrl,
      alertDrop: input.alert_drop,
      frequency: input.frequency,
      mode: input.mode,
      maxPages: input.max_pages ?? ceiling,
      include: input.include,
      exclude: input.exclude,
    };
    const { schedule, created } = await withUserLock(db, "audit-schedules", owner.userId, async (tx) => {
      const existing = await tx.auditSchedule.findUnique({ where: { siteId } });
      if (existing) return { schedule: await tx.auditSchedule.update({ where: { siteId }, data }), created: false };
      const cap = schedulesByPlan[owner.plan];
      const count = await tx.auditSchedule.count({ where: { userId: owner.userId } });
      if (count >= cap)
        throw new AppError(
          "plan_limit",
          `The ${owner.plan} plan schedules audits of at most ${cap} site${cap === 1 ? "" : "s"}`,
          "Delete another site's schedule, or move to a higher plan.",
        );
      return {
        schedule: await tx.auditSchedule.create({ data: { ...data, siteId, userId: owner.userId } }),
        created: true,
      };
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

  /** The site's schedule, or null when it has none (the caller has checked the site is the user's). */
  const find = async (siteId: string): Promise<AuditScheduleView | null> => {
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    return schedule ? viewOf(schedule) : null;
  };

  const get = async (userId: string, siteId: string) => {
    await ownedSite(userId, siteId);
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    if (!schedule) throw noSchedule(siteId);
    return viewOf(schedule);
  };

  /** Deletes the schedule; audits it started stay. */
  const remove = async (userId: string, siteId: string) => {
    await ownedSite(userId, siteId);
    const schedule = await db.auditSchedule.findUnique({ where: { siteId } });
    if (!schedule) throw noSchedule(siteId);
    const view = await viewOf(schedule);
    await db.auditSchedule.deleteMany({ where: { siteId } });
    // a scheduler left behind (the queue away) finds no row when it fires, and removes itself
    await queue.removeJobScheduler(auditSchedulerId(siteId)).catch(() => undefined);
    return { ...view, next_run_at: null };
  };

  return { put, get, find, remove };
};

export type ScheduleService = ReturnType<typeof createScheduleService>;
