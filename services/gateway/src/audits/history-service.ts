import {
  type Grade,
  offsetOf,
  type PageMeta,
  pageMeta,
  type SiteHistoryEntry,
  type SiteHistoryQuery,
} from "@scan/contract";
import type { Db } from "@scan/db";
import { Prisma } from "@scan/db";
import { siteNotFound } from "../sites";

type Row = {
  kind: "scan" | "audit";
  id: string;
  url: string;
  mode: "quick" | "full";
  seo: number;
  aeo: number;
  geo: number;
  overall: number;
  grade: string;
  critical: number;
  warning: number;
  info: number;
  pages: number;
  completed_at: Date;
};

export type HistoryService = {
  /** One of the workspace's sites' completed keyed scans and audits, newest first, as one paged list. */
  list: (
    workspaceId: string,
    siteId: string,
    query: SiteHistoryQuery,
  ) => Promise<{ entries: SiteHistoryEntry[]; meta: PageMeta }>;
};

/**
 * A site's scores and issue counts over time: its workspace's completed keyed scans of the site's
 * pages (the scan's URL is on the site's origin) and the site's completed audits, newest first,
 * as one list paged in PostgreSQL.
 */
export const createHistoryService = ({ db }: { db: Db }): HistoryService => {
  const list = async (
    workspaceId: string,
    siteId: string,
    query: SiteHistoryQuery,
  ): Promise<{ entries: SiteHistoryEntry[]; meta: PageMeta }> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true, url: true } });
    if (!site) throw siteNotFound(siteId);
    // the origin followed by "/": a scan of https://a.example never matches https://a.example.org
    const prefix = `${site.url.replace(/[\\%_]/g, (char) => `\\${char}`)}/%`;
    const scans = Prisma.sql`
      SELECT 'scan' AS kind, s."id"::text AS id, s."url", s."mode"::text AS mode, s."seo", s."aeo", s."geo", s."overall",
        s."grade", s."issues_critical" AS critical, s."issues_warning" AS warning, s."issues_info" AS info,
        1 AS pages, s."completed_at"
      FROM "scans" s
      WHERE s."workspace_id" = ${workspaceId}::uuid AND s."status" = 'completed' AND s."url" LIKE ${prefix}
        AND s."overall" IS NOT NULL AND s."completed_at" IS NOT NULL`;
    const audits = Prisma.sql`
      SELECT 'audit' AS kind, a."id"::text AS id, a."start_url" AS url, a."mode"::text AS mode, a."seo", a."aeo", a."geo",
        a."overall", a."grade", a."issues_critical" AS critical, a."issues_warning" AS warning, a."issues_info" AS info,
        COALESCE((a."report"->>'pages_judged')::int, 0) AS pages, a."completed_at"
      FROM "audits" a
      WHERE a."site_id" = ${siteId}::uuid AND a."workspace_id" = ${workspaceId}::uuid AND a."status" = 'completed'
        AND a."overall" IS NOT NULL AND a."completed_at" IS NOT NULL`;
    const union =
      query.kind === "scan" ? scans : query.kind === "audit" ? audits : Prisma.sql`${scans} UNION ALL ${audits}`;
    const [counted, rows] = await db.$transaction(
      [
        db.$queryRaw<Array<{ total: bigint }>>`SELECT count(*) AS total FROM (${union}) AS h`,
        db.$queryRaw<Row[]>`
          SELECT * FROM (${union}) AS h ORDER BY h."completed_at" DESC, h."id" DESC
          LIMIT ${query.limit} OFFSET ${offsetOf(query)}`,
      ],
      { isolationLevel: "RepeatableRead" },
    );
    const entries = rows.map(
      (row): SiteHistoryEntry => ({
        kind: row.kind,
        id: row.id,
        url: row.url,
        mode: row.mode,
        partial: row.mode === "quick",
        scores: { seo: row.seo, aeo: row.aeo, geo: row.geo, overall: row.overall, total: row.overall },
        grade: row.grade as Grade,
        issues: { critical: row.critical, warning: row.warning, info: row.info },
        pages: Number(row.pages),
        completed_at: row.completed_at.toISOString(),
      }),
    );
    return { entries, meta: pageMeta(query, Number(counted[0]?.total ?? 0)) };
  };
  return { list };
};
