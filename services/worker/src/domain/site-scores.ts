import { randomUUID } from "node:crypto";
import type { ScanMode } from "@scan/contract";
import { siteOriginOf } from "@scan/contract";
import type { Db } from "@scan/db";

export type CompletedScan = {
  id: string;
  userId: string;
  /** the URL the caller asked to scan: its origin is the site (not the origin it redirected to) */
  url: string;
  mode: ScanMode;
  scores: { seo: number; aeo: number; geo: number };
  completedAt: Date;
};

/**
 * Upserts the owner's site for the scan's origin, as one statement to run in the transaction
 * that stores the completed scan.
 *
 * - `last_scan_at` becomes the latest completion time of any scan of the origin.
 * - The latest scores are replaced only by a scan that ranks at least as high, ranking full
 *   above quick and then by completion time: a quick scan's partial scores (20 of 53 checks)
 *   stand only until the first full scan completes, and never replace a full scan's, so sites'
 *   latest scores are compared as equals only when they come from the same kind of scan.
 *
 * - Once a full audit has scored the site (`latest_audit_id`), its site-wide scores stand until the
 *   next full audit: one page's scan does not replace them (services/worker/src/domain/audit-store.ts).
 *
 * Idempotent (running it again for the same scan changes nothing) and safe against scans of one
 * origin completing concurrently or out of order: the comparison is made by the database on the
 * row it locks.
 */
export const upsertSiteScores = (db: Db, scan: CompletedScan) => {
  const site = siteOriginOf(scan.url);
  const { seo, aeo, geo } = scan.scores;
  return db.$executeRaw`
    INSERT INTO "sites" ("id", "user_id", "url", "domain", "name", "latest_seo", "latest_aeo", "latest_geo",
      "latest_mode", "latest_scores_at", "latest_scan_id", "last_scan_at", "updated_at")
    VALUES (${randomUUID()}::uuid, ${scan.userId}::uuid, ${site.url}, ${site.domain}, ${site.domain}, ${seo}, ${aeo},
      ${geo}, ${scan.mode}::"ScanMode", ${scan.completedAt}, ${scan.id}::uuid, ${scan.completedAt}, now())
    ON CONFLICT ("user_id", "url") DO UPDATE SET
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
