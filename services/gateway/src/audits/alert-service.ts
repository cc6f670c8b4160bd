import {
  type AuditAlertView,
  type ListPage,
  maskSecretUrl,
  offsetOf,
  type PageMeta,
  pageMeta,
  RegressionAlert,
} from "@scan/contract";
import type { AuditAlert, Db } from "@scan/db";
import { siteNotFound } from "../sites";

/** The scheme, host and port of an alert URL: its path and query may hold the receiver's token. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

/** Where an alert went, as it may be shown: a Slack URL is its secret, a webhook's path may be. */
const shownTarget = (alert: AuditAlert): string => {
  if (alert.channel === "email") return alert.url;
  if (alert.channel === "slack") return maskSecretUrl(alert.url);
  return originOf(alert.url);
};

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
    delivery: {
      channel: alert.channel,
      to: shownTarget(alert),
      state: alert.state,
      attempts: alert.attempts,
      last_error: alert.state === "delivered" ? null : alert.lastError,
      delivered_at: alert.deliveredAt?.toISOString() ?? null,
      origin: alert.channel === "email" ? "" : originOf(alert.url),
    },
  };
};

export type AlertService = {
  /** One of the workspace's sites' regression alerts, newest first, with where each was delivered. */
  listForSite: (
    workspaceId: string,
    siteId: string,
    query: ListPage,
  ) => Promise<{ alerts: AuditAlertView[]; meta: PageMeta }>;
};

/** A site's regression alerts (stored by the worker when an audit regressed), newest first. */
export const createAlertService = ({ db }: { db: Db }): AlertService => {
  const listForSite = async (
    workspaceId: string,
    siteId: string,
    query: { page: number; limit: number },
  ): Promise<{ alerts: AuditAlertView[]; meta: PageMeta }> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    const where = { siteId, workspaceId };
    const [total, rows] = await db.$transaction(
      [
        db.auditAlert.count({ where }),
        db.auditAlert.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: offsetOf(query),
          take: query.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { alerts: rows.map(toAlertView), meta: pageMeta(query, total) };
  };
  return { listForSite };
};
