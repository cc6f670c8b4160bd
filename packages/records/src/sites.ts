import { randomUUID } from "node:crypto";
import { type ScanMode, siteOriginOf } from "@scan/contract";
import type { Db, Site } from "@scan/db";
import { transaction } from "./transaction";
import type { DbClient } from "./transitions";

/**
 * Sites have no states to move between: their operations are the changes a site goes through
 * (made, renamed, scored, given credentials, deleted), each written here once.
 */

/** Whose a row is: the workspace that owns it, and the member who made it. */
export type Owner = { workspaceId: string; userId: string };

export type CompletedScan = {
  id: string;
  /** the scan's workspace gets the site; its maker is the site's when the scan makes it */
  owner: Owner;
  /** the URL the caller asked to scan: its origin is the site (not the origin it redirected to) */
  url: string;
  mode: ScanMode;
  scores: { seo: number; aeo: number; geo: number };
  completedAt: Date;
};

/**
 * Records a completed scan on its workspace's site for the scan's origin (made when missing), as
 * one statement to run in the transaction that stores the completed scan.
 *
 * - `last_scan_at` becomes the latest completion time of any scan of the origin.
 * - The latest scores are replaced only by a scan that ranks at least as high, ranking full
 *   above quick and then by completion time: a quick scan's partial scores (20 of 57 checks)
 *   stand only until the first full scan completes, and never replace a full scan's, so sites'
 *   latest scores are compared as equals only when they come from the same kind of scan.
 * - Once a full audit has scored the site (`latest_audit_id`), its site-wide scores stand until the
 *   next full audit: one page's scan does not replace them (recordAuditScores).
 *
 * Idempotent (running it again for the same scan changes nothing) and safe against scans of one
 * origin completing concurrently or out of order: the comparison is made by the database on the
 * row it locks.
 */
export const recordScanScores = (db: DbClient, scan: CompletedScan) => {
  const site = siteOriginOf(scan.url);
  const { seo, aeo, geo } = scan.scores;
  return db.$executeRaw`
    INSERT INTO "sites" ("id", "workspace_id", "user_id", "url", "domain", "name", "latest_seo", "latest_aeo",
      "latest_geo", "latest_mode", "latest_scores_at", "latest_scan_id", "last_scan_at", "updated_at")
    VALUES (${randomUUID()}::uuid, ${scan.owner.workspaceId}::uuid, ${scan.owner.userId}::uuid, ${site.url}, ${site.domain}, ${site.domain}, ${seo}, ${aeo},
      ${geo}, ${scan.mode}::"ScanMode", ${scan.completedAt}, ${scan.id}::uuid, ${scan.completedAt}, now())
    ON CONFLICT ("workspace_id", "url") DO UPDATE SET
      "last_scan_at" = GREATEST("sites"."last_scan_at", EXCLUDED."last_scan_at"),
      ("latest_seo", "latest_aeo", "latest_geo", "latest_mode", "latest_scores_at", "latest_scan_id") = (
        SELECT s.seo, s.aeo, s.geo, s.mode, s.scores_at, s.scan_id FROM (VALUES
          (0, EXCLUDED."latest_seo", EXCLUDED."latest_aeo", EXCLUDED."latest_geo", EXCLUDED."latest_mode",
            EXCLUDED."latest_scores_at", EXCLUDED."latest_scan_id", false),
          (1, "sites"."latest_seo", "sites"."latest_aeo", "sites"."latest_geo", "sites"."latest_mode",
            "sites"."latest_scores_at", "sites"."latest_scan_id", "sites"."latest_audit_id" IS NOT NULL)
        ) AS s(rank, seo, aeo, geo, mode, scores_at, scan_id, audited)
        -- a full audit's site scores before any page's; then full before quick, then the later,
        -- then this scan on a tie; a site never scored sorts last
        ORDER BY s.audited DESC, (s.mode = 'full') DESC NULLS LAST, s.scores_at DESC NULLS LAST, s.rank
        LIMIT 1
      ),
      "updated_at" = now()`;
};

/**
 * A full audit's site scores become the site's latest scores, unless a later full audit of the
 * site already set them (audits of one site may finish out of order).
 */
export const recordAuditScores = (
  db: DbClient,
  audit: { id: string; siteId: string; scores: { seo: number; aeo: number; geo: number }; completedAt: Date },
) =>
  db.$executeRaw`
    UPDATE "sites" SET "latest_seo" = ${audit.scores.seo}, "latest_aeo" = ${audit.scores.aeo},
      "latest_geo" = ${audit.scores.geo}, "latest_mode" = 'full', "latest_scores_at" = ${audit.completedAt},
      "latest_scan_id" = NULL, "latest_audit_id" = ${audit.id}::uuid,
      "last_scan_at" = GREATEST("last_scan_at", ${audit.completedAt}), "updated_at" = now()
    WHERE "id" = ${audit.siteId}::uuid
      AND ("latest_audit_id" IS NULL OR "latest_scores_at" IS NULL OR "latest_scores_at" <= ${audit.completedAt})`;

/**
 * The workspace's site for `origin`: made by `owner.userId` (`created: true`) or, when it exists,
 * returned as it is, renamed when `name` is given. Safe to repeat and to race: the
 * (workspace_id, url) unique index decides which call makes it.
 */
export const ensure = async (
  db: DbClient,
  owner: Owner,
  origin: { url: string; domain: string },
  name?: string,
): Promise<{ site: Site; created: boolean }> => {
  const { workspaceId, userId } = owner;
  const { count } = await db.site.createMany({
    data: [{ workspaceId, userId, url: origin.url, domain: origin.domain, name: name ?? origin.domain }],
    skipDuplicates: true,
  });
  const key = { workspaceId_url: { workspaceId, url: origin.url } };
  const site =
    count === 0 && name !== undefined
      ? await db.site.update({ where: key, data: { name } })
      : await db.site.findUniqueOrThrow({ where: key });
  return { site, created: count === 1 };
};

/** Gives one of the workspace's sites a new name; `moved: false` when it has no such site. */
export const rename = async (db: DbClient, workspaceId: string, siteId: string, name: string) => {
  const { count } = await db.site.updateMany({ where: { id: siteId, workspaceId }, data: { name } });
  return { moved: count > 0 };
};

/**
 * Assigns one of the workspace's sites to one of its clients, or to none (`null`); `moved: false`
 * when the workspace has no such site. The database refuses another workspace's client.
 */
export const assignClient = async (db: DbClient, workspaceId: string, siteId: string, clientId: string | null) => {
  const { count } = await db.site.updateMany({ where: { id: siteId, workspaceId }, data: { clientId } });
  return { moved: count > 0 };
};

/** Seals a site's credentials in (replacing any it had); `moved: false` when the workspace has no such site. */
export const setCredentials = async (db: DbClient, workspaceId: string, siteId: string, sealed: string, at: Date) => {
  const { count } = await db.site.updateMany({
    where: { id: siteId, workspaceId },
    data: { credentialsSealed: sealed, credentialsUpdatedAt: at },
  });
  return { moved: count > 0 };
};

/** Forgets a site's credentials. */
export const clearCredentials = async (db: DbClient, workspaceId: string, siteId: string) => {
  const { count } = await db.site.updateMany({
    where: { id: siteId, workspaceId },
    data: { credentialsSealed: null, credentialsUpdatedAt: null },
  });
  return { moved: count > 0 };
};

/**
 * Deletes one of the workspace's sites with what belongs to it (keywords, citation tracks, audits,
 * schedule: the database cascades; alerts, which name the site by id only, in the same
 * transaction). `moved: false` when the workspace has no such site.
 */
export const remove = (
  db: Db,
  workspaceId: string,
  siteId: string,
  /** more to do in the deletion's transaction once the site is gone (its audit log entry) */
  then?: (tx: DbClient) => Promise<void>,
) =>
  transaction(db, async (tx) => {
    await tx.auditAlert.deleteMany({ where: { siteId, workspaceId } });
    const { count } = await tx.site.deleteMany({ where: { id: siteId, workspaceId } });
    if (count > 0) await then?.(tx);
    return { moved: count > 0 };
  });

/** Deletes every site of the workspace (the demo seed starting over); returns how many. */
export const removeAllOf = async (db: DbClient, workspaceId: string): Promise<number> =>
  (await db.site.deleteMany({ where: { workspaceId } })).count;

/** Demo data: when the site was added, whether it is shown verified, and scores it had (no scan behind them). */
export const seedDemo = (
  db: DbClient,
  siteId: string,
  demo: {
    createdAt: Date;
    isVerified: boolean;
    scores: { seo: number; aeo: number; geo: number; mode: ScanMode; at: Date } | null;
  },
) =>
  db.site.update({
    where: { id: siteId },
    data: {
      createdAt: demo.createdAt,
      isVerified: demo.isVerified,
      ...(demo.scores
        ? {
            latestSeo: demo.scores.seo,
            latestAeo: demo.scores.aeo,
            latestGeo: demo.scores.geo,
            latestMode: demo.scores.mode,
            latestScoresAt: demo.scores.at,
            lastScanAt: demo.scores.at,
          }
        : {}),
    },
  });
