import type { CreateSiteRequest, DeletedRecord, PageMeta } from "@scan/contract";
import {
  AppError,
  likeLiteral,
  offsetOf,
  pageMeta,
  type SiteListQuery,
  type SiteView,
  siteOriginOf,
} from "@scan/contract";
import type { Db, Site } from "@scan/db";
import { type Actor, AUDIT_WHERE, auditLog, type Owner, sites as siteRows } from "@scan/records";
import { actorOutsideRequests } from "../access/actor";

export const toSiteView = (site: Site): SiteView => {
  const { latestSeo: seo, latestAeo: aeo, latestGeo: geo, latestMode: mode, latestScoresAt: scannedAt } = site;
  const scored = seo !== null && aeo !== null && geo !== null && mode !== null && scannedAt !== null;
  return {
    id: site.id,
    url: site.url,
    domain: site.domain,
    name: site.name,
    is_verified: site.isVerified,
    latest_scores: scored ? { seo, aeo, geo } : null,
    latest_scores_scan: scored
      ? { id: site.latestScanId, mode, partial: mode === "quick", scanned_at: scannedAt.toISOString() }
      : null,
    latest_scores_audit:
      scored && site.latestAuditId ? { id: site.latestAuditId, completed_at: scannedAt.toISOString() } : null,
    last_scan_at: site.lastScanAt?.toISOString() ?? null,
    client_id: site.clientId,
    created_at: site.createdAt.toISOString(),
  };
};

/** Newest first; the id breaks ties, so pages neither repeat nor skip a site. Served by (workspace_id, created_at, id). */
const ORDER = [{ createdAt: "desc" as const }, { id: "desc" as const }];

export const siteNotFound = (id: string) =>
  new AppError("not_found", `No site with id ${id}`, "Use a site id from GET /api/v1/sites.");

export type SiteService = {
  /** The workspace's sites, filtered literally and case-insensitively by `q` on domain, name or url. */
  list: (workspaceId: string, query: SiteListQuery) => Promise<{ sites: SiteView[]; meta: PageMeta }>;
  /** One of the workspace's sites; another workspace's is as missing as an unknown one. */
  get: (workspaceId: string, siteId: string) => Promise<SiteView>;
  /** The workspace's site for `url`'s origin: created (`created: true`, made by `owner.userId`) or returned as it is, renamed when `name` is given. */
  /** `actor` as the audit log records a new site (or a renamed one); by default its owner outside a request (the demo seed). */
  create: (owner: Owner, input: CreateSiteRequest, actor?: Actor) => Promise<{ site: SiteView; created: boolean }>;
  /**
   * Gives one of the workspace's sites a new name, assigns it to one of the workspace's clients
   * (null: none), or both; its origin, scores and records stay.
   */
  update: (
    workspaceId: string,
    siteId: string,
    change: { name?: string | undefined; clientId?: string | null | undefined },
    actor: Actor,
  ) => Promise<SiteView>;
  /** Deletes one of the workspace's sites with what belongs to it; refused while an audit of it is under way. */
  remove: (workspaceId: string, siteId: string, actor: Actor) => Promise<DeletedRecord>;
  /** Throws 404 unless `siteId` is one of the workspace's sites; another workspace's is as missing as an unknown one. */
  assertOwned: (workspaceId: string, siteId: string) => Promise<void>;
  /** The origins of the sites assigned to one of the workspace's clients (none for an unknown client). */
  originsOf: (workspaceId: string, clientId: string) => Promise<string[]>;
};

/** A workspace's sites: list with a literal, case-insensitive filter, and create one per origin. */
export const createSiteService = ({ db }: { db: Db }): SiteService => {
  const list = async (workspaceId: string, query: SiteListQuery): Promise<{ sites: SiteView[]; meta: PageMeta }> => {
    const pattern = query.q === undefined ? null : likeLiteral(query.q);
    const where = {
      workspaceId,
      ...(query.client_id === undefined ? {} : { clientId: query.client_id }),
      ...(pattern === null
        ? {}
        : {
            OR: (["domain", "name", "url"] as const).map((field) => ({
              [field]: { contains: pattern, mode: "insensitive" as const },
            })),
          }),
    };
    // one snapshot for the count and the page, so total and hasMore agree with data
    const [total, rows] = await db.$transaction(
      [db.site.count({ where }), db.site.findMany({ where, orderBy: ORDER, skip: offsetOf(query), take: query.limit })],
      { isolationLevel: "RepeatableRead" },
    );
    return { sites: rows.map(toSiteView), meta: pageMeta(query, total) };
  };

  /**
   * The workspace's site for `url`'s origin: created (`created: true`) or, when it exists, returned
   * as it is, renamed when `name` is given. Safe to repeat and to race: the (workspace_id, url)
   * unique index decides which request creates it.
   */
  const create = async (
    owner: Owner,
    input: { url: string; name?: string | undefined },
    actor = actorOutsideRequests(owner.userId),
  ): Promise<{ site: SiteView; created: boolean }> => {
    const origin = siteOriginOf(input.url);
    const { site, created } = await db.$transaction(async (tx) => {
      const before = await tx.site.findUnique({
        where: { workspaceId_url: { workspaceId: owner.workspaceId, url: origin.url } },
        select: { name: true },
      });
      const ensured = await siteRows.ensure(tx, owner, origin, input.name);
      const target = { type: "site" as const, id: ensured.site.id };
      if (ensured.created)
        await auditLog.append(tx, owner.workspaceId, actor, {
          action: "site.created",
          target,
          changes: { url: ensured.site.url, name: ensured.site.name },
        });
      else if (before && before.name !== ensured.site.name)
        await auditLog.append(tx, owner.workspaceId, actor, {
          action: "site.renamed",
          target,
          changes: { name: { from: before.name, to: ensured.site.name } },
        });
      return ensured;
    });
    return { site: toSiteView(site), created };
  };

  /** Throws 404 unless `siteId` is one of the workspace's sites; another workspace's is as missing as an unknown one. */
  const assertOwned = async (workspaceId: string, siteId: string): Promise<void> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
  };

  /** One of the workspace's sites; another workspace's is as missing as an unknown one. */
  const get = async (workspaceId: string, siteId: string): Promise<SiteView> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId } });
    if (!site) throw siteNotFound(siteId);
    return toSiteView(site);
  };

  /** A new name, a client (null: none), or both; another workspace's client is as missing as an unknown one. */
  const update = async (
    workspaceId: string,
    siteId: string,
    change: { name?: string | undefined; clientId?: string | null | undefined },
    actor: Actor,
  ): Promise<SiteView> => {
    await assertOwned(workspaceId, siteId);
    const { clientId, name } = change;
    if (clientId) {
      const client = await db.client.findFirst({ where: { id: clientId, workspaceId }, select: { id: true } });
      if (!client)
        throw new AppError("not_found", `No client with id ${clientId}`, "Use a client id from GET /api/v1/clients.");
    }
    await db.$transaction(async (tx) => {
      const before = await tx.site.findFirst({
        where: { id: siteId, workspaceId },
        select: { name: true, clientId: true },
      });
      if (!before) throw siteNotFound(siteId);
      const target = { type: "site" as const, id: siteId };
      if (name !== undefined) {
        await siteRows.rename(tx, workspaceId, siteId, name);
        if (name !== before.name)
          await auditLog.append(tx, workspaceId, actor, {
            action: "site.renamed",
            target,
            changes: { name: { from: before.name, to: name } },
          });
      }
      if (clientId !== undefined) {
        await siteRows.assignClient(tx, workspaceId, siteId, clientId);
        if (clientId !== before.clientId)
          await auditLog.append(tx, workspaceId, actor, {
            action: "site.assigned",
            target,
            changes: { client_id: { from: before.clientId, to: clientId } },
          });
      }
    });
    return get(workspaceId, siteId);
  };

  /**
   * Deletes one of the workspace's sites with what belongs to it (keywords, citation tracks, audits,
   * schedule, alerts; the database cascades). Scans stay: they are of URLs, not of sites, and a
   * later keyed scan of the origin records the site again. Refused while an audit of it is under
   * way, whose pages would be stored for nothing. A schedule's queue entry finds no row when it
   * next fires and removes itself.
   */
  const remove = async (workspaceId: string, siteId: string, actor: Actor): Promise<{ id: string; deleted: true }> => {
    const site = await get(workspaceId, siteId);
    const running = await db.audit.count({
      where: { siteId, workspaceId, ...AUDIT_WHERE.underWay },
    });
    if (running > 0) {
      throw new AppError(
        "conflict",
        "An audit of this site is under way.",
        "Cancel the audit, or wait until it ends, then delete the site.",
      );
    }
    // alerts name the site by id only (no foreign key): they go in the same transaction
    const { moved } = await siteRows.remove(db, workspaceId, siteId, (tx) =>
      auditLog.append(tx, workspaceId, actor, {
        action: "site.deleted",
        target: { type: "site", id: siteId },
        changes: { url: site.url, name: site.name, client_id: site.client_id },
      }),
    );
    if (!moved) throw siteNotFound(siteId);
    return { id: siteId, deleted: true };
  };

  const originsOf = async (workspaceId: string, clientId: string): Promise<string[]> =>
    (await db.site.findMany({ where: { workspaceId, clientId }, select: { url: true } })).map((site) => site.url);

  return { list, get, create, update, remove, assertOwned, originsOf };
};
