import {
  auditIssues,
  filterIssues,
  type IssueCounts,
  issueCountsOfReport,
  issuesCsv,
  type PageCheckCount,
  siteCheckIssuePages,
} from "@scan/audit";
import { previousCompletedAudit } from "@scan/client-reports";
import {
  AppError,
  type AuditIssuePage,
  type AuditIssuePagesQuery,
  type AuditIssues,
  type AuditIssuesQuery,
  CheckCategory,
  CheckSeverity,
  likeLiteral,
  offsetOf,
  type PageMeta,
  pageMeta,
  SiteReport,
} from "@scan/contract";
import { type Audit, type Db, Prisma } from "@scan/db";
import { anyChecksPruned } from "./audit-page-views";

/**
 * An audit issue by issue (GET /api/v1/audits/:id/issues and its pages). A completed audit's
 * counts are its report's, which retention keeps; an audit under way (or one that failed or was
 * cancelled) is counted from the pages it has judged so far, by the same rule the report step
 * uses. Either is compared with the site's previous completed audit of the same mode, by its
 * report.
 */

/** a judged page (isJudgedPage): scanned, 2xx at its own URL; the redirects from its facts, else its final URL */
const JUDGED = Prisma.sql`p."status" = 'scanned' AND p."http_status" BETWEEN 200 AND 299
  AND CASE WHEN jsonb_typeof(p."facts"->'redirects') = 'array' THEN jsonb_array_length(p."facts"->'redirects') = 0
    ELSE p."final_url" IS NULL OR p."final_url" = p."url" END`;
/** each check result of a page, none when it has none (or retention dropped them) */
const CHECKS = Prisma.sql`jsonb_array_elements(CASE WHEN jsonb_typeof(p."checks") = 'array' THEN p."checks" ELSE '[]'::jsonb END)`;

const issueNotFound = (auditId: string, check: string) =>
  new AppError(
    "not_found",
    `Check ${check} is not an issue of audit ${auditId}`,
    `Use a check id from GET /api/v1/audits/${auditId}/issues.`,
  );

const checksPruned = (auditId: string) =>
  new AppError(
    "checks_pruned",
    `Audit ${auditId} no longer has its pages' checks: retention dropped them`,
    "Audit the site again to see the pages of its issues.",
  );

export const createAuditIssueReader = ({
  db,
  owned,
}: {
  db: Db;
  owned: (workspaceId: string, auditId: string) => Promise<Audit>;
}) => {
  /** the page checks' counts over the pages judged so far */
  const countedFromPages = async (auditId: string): Promise<IssueCounts> => {
    const [judged, rows] = await Promise.all([
      db.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS "n" FROM "audit_pages" p WHERE p."audit_id" = ${auditId}::uuid AND ${JUDGED}`,
      db.$queryRaw<
        Array<{ id: string; title: string; category: string; severity: string; fail: number; warn: number }>
      >`
        SELECT c->>'id' AS "id", min(c->>'title') AS "title", min(c->>'category') AS "category",
          min(c->>'severity') AS "severity",
          count(*) FILTER (WHERE c->>'status' = 'fail')::int AS "fail",
          count(*) FILTER (WHERE c->>'status' = 'warn')::int AS "warn"
        FROM "audit_pages" p CROSS JOIN LATERAL ${CHECKS} AS c
        WHERE p."audit_id" = ${auditId}::uuid AND ${JUDGED}
        GROUP BY c->>'id'`,
    ]);
    const pageChecks: PageCheckCount[] = rows.map((row) => ({
      id: row.id,
      title: row.title,
      category: CheckCategory.parse(row.category),
      severity: CheckSeverity.parse(row.severity),
      fail: row.fail,
      warn: row.warn,
    }));
    return { pagesJudged: judged[0]?.n ?? 0, pageChecks, siteChecks: [] };
  };

  /** Every issue of the audit, unfiltered, with what it was compared with. */
  const rollupOf = async (audit: Audit) => {
    const complete = audit.status === "completed" && audit.report !== null;
    // a finished audit's pages may have lost their checks to retention: counted from them it would read as clean
    if (
      !complete &&
      (audit.status === "failed" || audit.status === "cancelled") &&
      (await anyChecksPruned(db, audit.id))
    )
      throw checksPruned(audit.id);
    const report = complete ? SiteReport.parse(audit.report) : null;
    const current = report ? issueCountsOfReport(report) : await countedFromPages(audit.id);
    const previous = await previousCompletedAudit(db, audit);
    const before = previous?.report ? issueCountsOfReport(SiteReport.parse(previous.report)) : null;
    return {
      report,
      previousId: before ? (previous?.id ?? null) : null,
      pagesJudged: current.pagesJudged,
      issues: auditIssues(current, before, { siteChecksRan: complete }),
    };
  };

  const issues = async (workspaceId: string, auditId: string, query: AuditIssuesQuery): Promise<AuditIssues> => {
    const audit = await owned(workspaceId, auditId);
    const rollup = await rollupOf(audit);
    return {
      audit_id: audit.id,
      site_id: audit.siteId,
      mode: audit.mode,
      status: audit.status,
      complete: rollup.report !== null,
      pages_judged: rollup.pagesJudged,
      previous_audit_id: rollup.previousId,
      issues: filterIssues(rollup.issues, query),
    };
  };

  const issuesAsCsv = async (workspaceId: string, auditId: string, query: AuditIssuesQuery): Promise<string> =>
    issuesCsv((await issues(workspaceId, auditId, query)).issues);

  /**
   * The pages an issue is on, in the order the audit admitted them: a page check's judged pages
   * where it failed or warned, with its description there; a site check's findings. A fixed
   * issue is on no page.
   */
  const issuePages = async (
    workspaceId: string,
    auditId: string,
    check: string,
    query: AuditIssuePagesQuery,
  ): Promise<{ pages: AuditIssuePage[]; meta: PageMeta }> => {
    const audit = await owned(workspaceId, auditId);
    const { report, issues: rows } = await rollupOf(audit);
    const issue = rows.find((row) => row.check === check);
    if (!issue) throw issueNotFound(auditId, check);
    if (issue.state === "fixed") return { pages: [], meta: pageMeta(query, 0) };
    if (issue.scope === "site") {
      const siteCheck = report?.site_checks.find((result) => result.id === check);
      const all = siteCheck ? siteCheckIssuePages(siteCheck, query.q) : [];
      const offset = offsetOf(query);
      return { pages: all.slice(offset, offset + query.limit), meta: pageMeta(query, all.length) };
    }
    if (report && (await anyChecksPruned(db, auditId))) throw checksPruned(auditId);
    const like = query.q === undefined ? null : `%${likeLiteral(query.q)}%`;
    const where = Prisma.sql`p."audit_id" = ${auditId}::uuid AND ${JUDGED} AND c->>'id' = ${check}
      AND c->>'status' IN ('fail', 'warn')
      ${like === null ? Prisma.empty : Prisma.sql`AND (p."url" ILIKE ${like} OR c->>'description' ILIKE ${like})`}`;
    const [total, rowsOfPage] = await db.$transaction(
      [
        db.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS "n" FROM "audit_pages" p CROSS JOIN LATERAL ${CHECKS} AS c WHERE ${where}`,
        db.$queryRaw<Array<{ id: string; url: string; status: string; finding: string }>>`
          SELECT p."id"::text AS "id", p."url", c->>'status' AS "status", c->>'description' AS "finding"
          FROM "audit_pages" p CROSS JOIN LATERAL ${CHECKS} AS c WHERE ${where}
          ORDER BY p."position" LIMIT ${query.limit} OFFSET ${offsetOf(query)}`,
      ],
      { isolationLevel: "RepeatableRead" },
    );
    const pages = rowsOfPage.map(
      (row): AuditIssuePage => ({
        url: row.url,
        status: row.status === "warn" ? "warn" : "fail",
        finding: row.finding,
        related: [],
        page_id: row.id,
      }),
    );
    return { pages, meta: pageMeta(query, total[0]?.n ?? 0) };
  };

  return { issues, issuesAsCsv, issuePages };
};
