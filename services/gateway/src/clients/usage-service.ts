import type { Plan, UsageQuery, UsageView } from "@scan/contract";
import type { Db } from "@scan/db";
import { countedScans, quotaMonth } from "../scans";
import { clientNotFound } from "./client-service";

export type UsageServiceDeps = {
  db: Db;
  /** scans per calendar month (UTC) by plan; null is unlimited */
  monthlyQuotas: Record<Plan, number | null>;
};

export type UsageService = {
  /** This month's scans and audits of the workspace and of each client; `client_id` keeps one client's. */
  ofWorkspace: (workspace: { workspaceId: string; plan: Plan }, query: UsageQuery) => Promise<UsageView>;
};

/**
 * Usage as the quotas count it: a scan for the client it was stored for (its key's, or its URL's
 * site's), an audit for its site's client when it was made; the month is the calendar month
 * (UTC), as the plan's quota's. The month's scans are read by `scans (workspace_id, created_at,
 * id)` and grouped by client and by key in the same snapshot as the clients, keys and audits.
 * A scan or audit counts for the key it was made with (`scans.api_key_id`, `audits.api_key_id`);
 * one a session or a schedule made counts for none.
 */
export const createUsageService = ({ db, monthlyQuotas }: UsageServiceDeps): UsageService => {
  const ofWorkspace = async ({ workspaceId, plan }: { workspaceId: string; plan: Plan }, query: UsageQuery) => {
    const now = new Date();
    const month = quotaMonth(now);
    const oneClient = query.client_id;
    const clientWhere = { workspaceId, ...(oneClient === undefined ? {} : { id: oneClient }) };
    // with one client, the keys limited to it: all they make counts for it, and a key limited to a
    // client learns nothing of the workspace's other keys
    const keyWhere = {
      workspaceId,
      ...(oneClient === undefined ? {} : { clientId: oneClient }),
      OR: [
        { revokedAt: null },
        { scans: { some: { workspaceId, ...countedScans(month.start) } } },
        { audits: { some: { workspaceId, createdAt: { gte: month.start } } } },
      ],
    };
    const [clients, scans, audits, keys, keyScans, keyAudits] = await db.$transaction(
      [
        db.client.findMany({
          where: clientWhere,
          select: { id: true, name: true, scanQuota: true, auditQuota: true, auditPageQuota: true },
          orderBy: [{ name: "asc" }, { id: "asc" }],
        }),
        db.scan.groupBy({
          by: ["clientId"],
          where: { workspaceId, ...countedScans(month.start) },
          _count: { _all: true },
        }),
        db.audit.groupBy({
          by: ["clientId"],
          where: { workspaceId, createdAt: { gte: month.start } },
          _count: { _all: true },
          _sum: { discovered: true },
        }),
        db.apiKey.findMany({
          where: keyWhere,
          select: { id: true, name: true, prefix: true, clientId: true, revokedAt: true },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        }),
        db.scan.groupBy({
          by: ["apiKeyId"],
          where: {
            workspaceId,
            apiKeyId: { not: null },
            ...(oneClient === undefined ? {} : { apiKey: { clientId: oneClient } }),
            ...countedScans(month.start),
          },
          _count: { _all: true },
        }),
        db.audit.groupBy({
          by: ["apiKeyId"],
          where: {
            workspaceId,
            apiKeyId: { not: null },
            ...(oneClient === undefined ? {} : { apiKey: { clientId: oneClient } }),
            createdAt: { gte: month.start },
          },
          _count: { _all: true },
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    if (oneClient !== undefined && clients.length === 0) throw clientNotFound(oneClient);
    const scansOf = new Map(scans.map((row) => [row.clientId, row._count._all]));
    const auditsOf = new Map(audits.map((row) => [row.clientId, row._count._all]));
    // an audit's pages count in the month it started: the pages its crawl admitted so far
    const pagesOf = new Map(audits.map((row) => [row.clientId, row._sum.discovered ?? 0]));
    const scansByKey = new Map(keyScans.map((row) => [row.apiKeyId, row._count._all]));
    const auditsByKey = new Map(keyAudits.map((row) => [row.apiKeyId, row._count._all]));
    const total = (counts: Map<string | null, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
    const whole = oneClient === undefined;
    return {
      month: { start: month.start.toISOString(), resets_at: month.resetsAt.toISOString() },
      workspace: whole
        ? {
            plan,
            scans: { used: total(scansOf), limit: monthlyQuotas[plan] },
            audits: { used: total(auditsOf), limit: null },
            audit_pages: { used: total(pagesOf), limit: null },
          }
        : null,
      clients: clients.map((client) => ({
        client_id: client.id,
        name: client.name,
        scans: { used: scansOf.get(client.id) ?? 0, limit: client.scanQuota },
        audits: { used: auditsOf.get(client.id) ?? 0, limit: client.auditQuota },
        audit_pages: { used: pagesOf.get(client.id) ?? 0, limit: client.auditPageQuota },
      })),
      unassigned: whole
        ? { scans: scansOf.get(null) ?? 0, audits: auditsOf.get(null) ?? 0, audit_pages: pagesOf.get(null) ?? 0 }
        : null,
      keys: keys.map((key) => ({
        key_id: key.id,
        name: key.name,
        prefix: key.prefix,
        client_id: key.clientId,
        revoked: key.revokedAt !== null,
        scans: scansByKey.get(key.id) ?? 0,
        audits: auditsByKey.get(key.id) ?? 0,
      })),
    };
  };

  return { ofWorkspace };
};
