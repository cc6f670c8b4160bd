import { AiCatalogDiscovery } from "@scan/audit";
import { AuditDiscovery, TextResource } from "@scan/contract";
import type { Db } from "@scan/db";
import { z } from "zod";

/** What discovery stores on the audit: the summary the report shows, and the files the pages and checks read. */
export const StoredDiscovery = z.object({
  summary: AuditDiscovery,
  robotsTxt: TextResource,
  llmsTxt: TextResource,
  /** absent on audits discovered before the ai-catalog checks */
  aiCatalog: AiCatalogDiscovery.optional(),
});
export type StoredDiscovery = z.infer<typeof StoredDiscovery>;

/** A URL found for an audit: where, how deep, and whether a sitemap lists it. */
export type Candidate = { url: string; depth: number; inSitemap: boolean };

export type AdmittedPage = { id: string; url: string };

/**
 * Admits URLs to an audit, all in one transaction on the audit's locked row: a URL the audit
 * has is not admitted twice (unique per audit and URL), and no more pages are admitted than
 * `max_pages` leaves room for, however many workers find links at once. URLs are admitted in
 * the order given, which is breadth-first. A sitemap URL the audit already has is marked as
 * one. Returns the new pages, to be queued.
 */
export const admitPages = async (
  db: Db,
  auditId: string,
  candidates: readonly Candidate[],
): Promise<AdmittedPage[]> => {
  if (candidates.length === 0) return [];
  const distinct = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const known = distinct.get(candidate.url);
    if (!known) distinct.set(candidate.url, { ...candidate });
    else known.inSitemap ||= candidate.inSitemap;
  }
  // most links of a page lead to pages the audit has: found without the transaction and its lock
  const known = await db.auditPage.findMany({
    where: { auditId, url: { in: [...distinct.keys()] } },
    select: { url: true, inSitemap: true },
  });
  for (const page of known) {
    if (page.inSitemap || !distinct.get(page.url)?.inSitemap) distinct.delete(page.url);
  }
  if (distinct.size === 0) return [];
  const list = [...distinct.values()];
  const urls = list.map((c) => c.url);
  const depths = list.map((c) => c.depth);
  const sitemapped = list.map((c) => c.inSitemap);
  return db.$transaction(async (tx) => {
    const [audit] = await tx.$queryRaw<Array<{ room: number; discovered: number; status: string }>>`
      SELECT "max_pages" - "discovered" AS room, "discovered", "status"::text AS status
      FROM "audits" WHERE "id" = ${auditId}::uuid FOR UPDATE`;
    if (!audit || (audit.status !== "discovering" && audit.status !== "running")) return [];
    const sitemapUrls = urls.filter((_, i) => sitemapped[i]);
    if (sitemapUrls.length > 0)
      await tx.$executeRaw`
        UPDATE "audit_pages" SET "in_sitemap" = true, "updated_at" = now()
        WHERE "audit_id" = ${auditId}::uuid AND "url" = ANY(${sitemapUrls}::text[]) AND NOT "in_sitemap"`;
    if (audit.room <= 0) return [];
    // positions follow on from the pages admitted before: the audit's row is locked, so they are unique
    const admitted = await tx.$queryRaw<AdmittedPage[]>`
      INSERT INTO "audit_pages" ("id", "audit_id", "url", "position", "depth", "in_sitemap", "status", "updated_at")
      SELECT gen_random_uuid(), ${auditId}::uuid, fresh.url, ${audit.discovered}::int + row_number() OVER (ORDER BY fresh.ord),
        fresh.depth, fresh.in_sitemap, 'queued', now()
      FROM (
        SELECT u.url, u.depth, u.in_sitemap, u.ord
        FROM unnest(${urls}::text[], ${depths}::int[], ${sitemapped}::boolean[]) WITH ORDINALITY AS u(url, depth, in_sitemap, ord)
        WHERE NOT EXISTS (SELECT 1 FROM "audit_pages" p WHERE p."audit_id" = ${auditId}::uuid AND p."url" = u.url)
        ORDER BY u.ord
        LIMIT ${audit.room}
      ) AS fresh
      RETURNING "id"::text AS id, "url"`;
    if (admitted.length > 0)
      await tx.$executeRaw`
        UPDATE "audits" SET "discovered" = "discovered" + ${admitted.length}, "updated_at" = now() WHERE "id" = ${auditId}::uuid`;
    return admitted;
  });
};

/**
 * Moves a running audit on to its report once no page is queued or running. The test and the
 * move are one statement, so of the workers finishing its last pages at once exactly one moves
 * it (and queues the report). A page's links are admitted while the page is still running, so
 * the audit never looks finished while a page it found is still to come.
 */
export const finishIfDone = async (db: Db, auditId: string): Promise<boolean> => {
  const moved = await db.$executeRaw`
    UPDATE "audits" SET "status" = 'finalizing', "updated_at" = now()
    WHERE "id" = ${auditId}::uuid AND "status" = 'running'
      AND NOT EXISTS (SELECT 1 FROM "audit_pages" WHERE "audit_id" = ${auditId}::uuid AND "status" IN ('queued', 'running'))`;
  return moved > 0;
};

/**
 * A full audit's site scores become the site's latest scores, unless a later full audit of the
 * site already set them (audits of one site may finish out of order).
 */
export const setSiteScoresFromAudit = (
  db: Db,
  audit: { id: string; siteId: string; scores: { seo: number; aeo: number; geo: number }; completedAt: Date },
) =>
  db.$executeRaw`
    UPDATE "sites" SET "latest_seo" = ${audit.scores.seo}, "latest_aeo" = ${audit.scores.aeo},
      "latest_geo" = ${audit.scores.geo}, "latest_mode" = 'full', "latest_scores_at" = ${audit.completedAt},
      "latest_scan_id" = NULL, "latest_audit_id" = ${audit.id}::uuid,
      "last_scan_at" = GREATEST("last_scan_at", ${audit.completedAt}), "updated_at" = now()
    WHERE "id" = ${audit.siteId}::uuid
      AND ("latest_audit_id" IS NULL OR "latest_scores_at" IS NULL OR "latest_scores_at" <= ${audit.completedAt})`;
