import { isJudgedPage } from "@scan/audit";
import { scoresOf } from "@scan/client-reports";
import { type AuditPageView, CheckResult, type Grade } from "@scan/contract";
import { type AuditPage, type Db, Prisma } from "@scan/db";
import { checksPruned } from "@scan/reports";
import { z } from "zod";

/**
 * An audit's pages as the API shows them (GET /api/v1/audits/:id/pages): a row as a view, and
 * every page of an audit read in batches for the files made page by page (the exports).
 */

const Checks = z.array(CheckResult);
/** what of a page's facts says whether it was judged; the rest (its links) is not read here */
const Facts = z.object({ redirects: z.unknown() });
const Redirects = z.array(z.unknown());

/** page rows read per query for an export: a full audit's checks are some 20 KB a page */
const BATCH_WITH_CHECKS = 100;
const BATCH_WITHOUT_CHECKS = 1_000;

/** A page's row as its view reads it: of its facts, the redirects alone (undefined once retention dropped them). */
type PageRow = Pick<
  AuditPage,
  | "id"
  | "url"
  | "depth"
  | "inSitemap"
  | "status"
  | "httpStatus"
  | "finalUrl"
  | "seo"
  | "aeo"
  | "geo"
  | "overall"
  | "grade"
  | "issuesCritical"
  | "issuesWarning"
  | "issuesInfo"
  | "errorMessage"
  | "completedAt"
> & { checks: unknown; redirects: unknown };

/**
 * Whether the page answered through a redirect: its facts say, as they said to the report step;
 * once retention dropped them, its final URL does.
 */
const redirectedOf = (page: PageRow): boolean => {
  const redirects = Redirects.safeParse(page.redirects);
  return redirects.success ? redirects.data.length > 0 : page.finalUrl !== null && page.finalUrl !== page.url;
};

const viewOf = (page: PageRow): AuditPageView => ({
  id: page.id,
  url: page.url,
  depth: page.depth,
  in_sitemap: page.inSitemap,
  status: page.status,
  http_status: page.httpStatus,
  final_url: page.finalUrl,
  judged: isJudgedPage({ status: page.status, httpStatus: page.httpStatus, redirected: redirectedOf(page) }),
  scores: scoresOf(page),
  grade: (page.grade as Grade | null) ?? null,
  issues: { critical: page.issuesCritical, warning: page.issuesWarning, info: page.issuesInfo },
  checks: page.checks ? Checks.parse(page.checks) : null,
  error: page.errorMessage,
  scanned_at: page.completedAt?.toISOString() ?? null,
});

export const toAuditPageView = (page: AuditPage): AuditPageView =>
  viewOf({ ...page, redirects: Facts.safeParse(page.facts).data?.redirects });

/**
 * Every page of the audit as the API shows it, in the order found, read by position a batch at
 * a time and yielded as it is read: never more than a batch in memory, and never the pages'
 * facts (their links), of which only the redirects are read. Without `checks`, a page's checks
 * are left out: `[]` for a page that has them, null for one whose checks retention dropped.
 * `withoutChecksOnly`: only the scanned pages that have no checks, the pages that may have been
 * judged and pruned.
 */
export async function* auditPageViews(
  db: Db,
  auditId: string,
  { checks, withoutChecksOnly = false }: { checks: boolean; withoutChecksOnly?: boolean },
): AsyncGenerator<AuditPageView> {
  const batch = checks ? BATCH_WITH_CHECKS : BATCH_WITHOUT_CHECKS;
  const noChecks = Prisma.sql`(p."checks" IS NULL OR p."checks" = 'null'::jsonb)`;
  const checksColumn = checks
    ? Prisma.sql`p."checks"`
    : Prisma.sql`CASE WHEN ${noChecks} THEN NULL ELSE '[]'::jsonb END`;
  // only a scanned page can have been judged
  const only = withoutChecksOnly ? Prisma.sql`AND p."status" = 'scanned' AND ${noChecks}` : Prisma.empty;
  let after = 0;
  for (;;) {
    const rows = await db.$queryRaw<Array<PageRow & { position: number }>>`
      SELECT p."id"::text AS "id", p."url", p."position", p."depth", p."in_sitemap" AS "inSitemap",
        p."status"::text AS "status", p."http_status" AS "httpStatus", p."final_url" AS "finalUrl", p."seo", p."aeo",
        p."geo", p."overall", p."grade", p."issues_critical" AS "issuesCritical",
        p."issues_warning" AS "issuesWarning", p."issues_info" AS "issuesInfo", ${checksColumn} AS "checks",
        p."facts"->'redirects' AS "redirects", p."error_message" AS "errorMessage", p."completed_at" AS "completedAt"
      FROM "audit_pages" p
      WHERE p."audit_id" = ${auditId}::uuid AND p."position" > ${after} ${only}
      ORDER BY p."position"
      LIMIT ${batch}`;
    for (const row of rows) yield viewOf(row);
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = last.position;
  }
}

/**
 * Whether retention dropped the checks of one of the audit's judged pages, which an export
 * cannot show: asked before the export's first byte, since once it has begun an error can only
 * cut it short.
 */
export const anyChecksPruned = async (db: Db, auditId: string): Promise<boolean> => {
  for await (const page of auditPageViews(db, auditId, { checks: false, withoutChecksOnly: true }))
    if (checksPruned(page)) return true;
  return false;
};
