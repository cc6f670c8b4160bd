import type { Audit, AuditSchedule, Db, Prisma } from "@scan/db";
import { AUDIT_WHERE, clientAuditPages, insertDiscovering } from "./audits";
import { AUDIT_START_LOCK, quotaMonth } from "./quota-month";
import { transaction } from "./transaction";
import type { DbClient } from "./transitions";

/**
 * A site's recurring audit has no states to move between: it is made, changed, deleted, and
 * starts audits. Each change is written here once.
 */

export type ScheduleFields = Omit<
  Prisma.AuditScheduleUncheckedCreateInput,
  "id" | "siteId" | "userId" | "workspaceId" | "lastAuditId" | "lastRunAt" | "createdAt" | "updatedAt"
>;

/** Makes the site's schedule. */
export const insert = (
  db: DbClient,
  owner: { siteId: string; workspaceId: string; userId: string },
  fields: ScheduleFields,
) =>
  db.auditSchedule.create({
    data: { ...fields, siteId: owner.siteId, workspaceId: owner.workspaceId, userId: owner.userId },
  });

/** Changes the site's schedule as a whole. */
export const change = (db: DbClient, siteId: string, fields: ScheduleFields) =>
  db.auditSchedule.update({ where: { siteId }, data: fields });

/** Deletes the site's schedule; audits it started stay. */
export const remove = async (db: DbClient, siteId: string) => {
  const { count } = await db.auditSchedule.deleteMany({ where: { siteId } });
  return { moved: count > 0 };
};

export type ScheduledStart =
  | { started: true; audit: Audit }
  /**
   * `fired`: this firing started an audit already (a job run twice); `busy`: one of the site's
   * audits is under way; `quota`: the site's client has used its audits or its audit pages this month
   */
  | { started: false; reason: "fired" | "busy" | "quota" };

/**
 * A schedule came due: an audit of the site as the schedule says, recorded on the schedule as
 * its last, unless this firing (`requestId`) already started one, one of the site's audits
 * is still under way, or the site's client has used its monthly audit or audit page quota. One firing at a
 * time per site (an advisory lock), so two runs of one firing start one audit; the quota is
 * counted under the workspace's audit-start lock, which the API's starts hold too.
 */
export const startScheduledAudit = (
  db: Db,
  schedule: Pick<AuditSchedule, "siteId" | "workspaceId" | "userId" | "mode" | "maxPages">,
  audit: { startUrl: string; include: string[]; exclude: string[]; requestId: string },
): Promise<ScheduledStart> =>
  transaction(db, async (tx) => {
    const { siteId } = schedule;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`audit-schedule:${siteId}`}, 0))`;
    const fired = await tx.audit.findFirst({ where: { siteId, requestId: audit.requestId }, select: { id: true } });
    if (fired) return { started: false, reason: "fired" };
    const active = await tx.audit.count({ where: { siteId, ...AUDIT_WHERE.underWay } });
    if (active > 0) return { started: false, reason: "busy" };
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${AUDIT_START_LOCK(schedule.workspaceId)}, 0))`;
    const site = await tx.site.findUnique({
      where: { id: siteId },
      select: { client: { select: { id: true, auditQuota: true, auditPageQuota: true } } },
    });
    const client = site?.client;
    if (client && client.auditQuota !== null) {
      const used = await tx.audit.count({
        where: { clientId: client.id, createdAt: { gte: quotaMonth(new Date()).start } },
      });
      if (used >= client.auditQuota) return { started: false, reason: "quota" };
    }
    if (client && client.auditPageQuota !== null) {
      if ((await clientAuditPages(tx, client.id, new Date())) >= client.auditPageQuota)
        return { started: false, reason: "quota" };
    }
    const created = await insertDiscovering(tx, {
      workspaceId: schedule.workspaceId,
      userId: schedule.userId,
      siteId,
      mode: schedule.mode,
      maxPages: schedule.maxPages,
      ...audit,
    });
    await tx.auditSchedule.update({ where: { siteId }, data: { lastAuditId: created.id, lastRunAt: new Date() } });
    return { started: true, audit: created };
  });
