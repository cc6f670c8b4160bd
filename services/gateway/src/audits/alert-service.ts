import {
  type AlertDeliveryView,
  type AuditAlertView,
  type ListPage,
  maskSecretUrl,
  offsetOf,
  type PageMeta,
  pageMeta,
  RegressionAlert,
  VisibilityAlert,
  type VisibilityAlertView,
} from "@scan/contract";
import type { AuditAlert, Db, Prisma, VisibilityAlert as VisibilityAlertRow } from "@scan/db";
import { siteNotFound } from "../sites";

/** The scheme, host and port of an alert URL: its path and query may hold the receiver's token. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

type Delivered = Pick<AuditAlert, "channel" | "url" | "state" | "attempts" | "lastError" | "deliveredAt">;

/** Where an alert went, as it may be shown: a Slack URL is its secret, a webhook's path may be. */
const shownTarget = (alert: Delivered): string => {
  if (alert.channel === "email") return alert.url;
  if (alert.channel === "slack") return maskSecretUrl(alert.url);
  return originOf(alert.url);
};

/** How an alert of either kind was delivered, as it may be shown. */
const deliveryOf = (alert: Delivered): AlertDeliveryView => ({
  channel: alert.channel,
  to: shownTarget(alert),
  state: alert.state,
  attempts: alert.attempts,
  last_error: alert.state === "delivered" ? null : alert.lastError,
  delivered_at: alert.deliveredAt?.toISOString() ?? null,
  origin: alert.channel === "email" ? "" : originOf(alert.url),
});

export const toAlertView = (alert: AuditAlert): AuditAlertView => {
  // the stored body is what was (or will be) POSTed: the view reads the same facts from it
  const body = RegressionAlert.parse(alert.body);
  return {
    id: alert.id,
    site_id: alert.siteId,
    audit_id: alert.auditId,
    previous_audit_id: alert.previousAuditId,
    mode: body.mode,
    scores: body.scores,
    grade: body.grade,
    reasons: body.reasons,
    created_at: alert.createdAt.toISOString(),
    delivery: deliveryOf(alert),
  };
};

export const toVisibilityAlertView = (alert: VisibilityAlertRow): VisibilityAlertView => {
  const body = VisibilityAlert.parse(alert.body);
  return {
    id: alert.id,
    site_id: alert.siteId,
    run_id: alert.runId,
    previous_run_id: alert.previousRunId,
    changes: body.changes,
    created_at: alert.createdAt.toISOString(),
    delivery: deliveryOf(alert),
  };
};

export type AlertService = {
  /** One of the workspace's sites' regression alerts, newest first, with where each was delivered. */
  listForSite: (
    workspaceId: string,
    siteId: string,
    query: ListPage,
  ) => Promise<{ alerts: AuditAlertView[]; meta: PageMeta }>;
  /** One of the workspace's sites' visibility alerts (a run's rate changed by the test), newest first. */
  listVisibilityForSite: (
    workspaceId: string,
    siteId: string,
    query: ListPage,
  ) => Promise<{ alerts: VisibilityAlertView[]; meta: PageMeta }>;
};

/** A site's alerts, stored by the worker: regression alerts (an audit regressed) and visibility alerts (a run's rate changed), newest first. */
export const createAlertService = ({ db }: { db: Db }): AlertService => {
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  /** One of the workspace's sites' alerts of one kind, counted and paged in one snapshot. */
  const pageOfSite = async <Row, View>(
    workspaceId: string,
    siteId: string,
    query: { page: number; limit: number },
    read: (
      where: { siteId: string; workspaceId: string },
      page: { skip: number; take: number },
    ) => [Prisma.PrismaPromise<number>, Prisma.PrismaPromise<Row[]>],
    view: (row: Row) => View,
  ): Promise<{ alerts: View[]; meta: PageMeta }> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    const [total, rows] = await db.$transaction(
      read({ siteId, workspaceId }, { skip: offsetOf(query), take: query.limit }),
      { isolationLevel: "RepeatableRead" },
    );
    return { alerts: rows.map(view), meta: pageMeta(query, total) };
  };
  return {
    listForSite: (workspaceId, siteId, query) =>
      pageOfSite(
        workspaceId,
        siteId,
        query,
        (where, page) => [db.auditAlert.count({ where }), db.auditAlert.findMany({ where, orderBy: order, ...page })],
        toAlertView,
      ),
    listVisibilityForSite: (workspaceId, siteId, query) =>
      pageOfSite(
        workspaceId,
        siteId,
        query,
        (where, page) => [
          db.visibilityAlert.count({ where }),
          db.visibilityAlert.findMany({ where, orderBy: order, ...page }),
        ],
        toVisibilityAlertView,
      ),
  };
};
