import { auditIssues, issueCountsOfReport } from "@scan/audit";
import {
  type AuditIssues,
  type AuditProgress,
  type AuditView,
  type Grade,
  type ReportBrandingView,
  SiteReport,
  type StoredScan,
  type VisibilityRunView,
} from "@scan/contract";
import type { Audit, Db } from "@scan/db";
import { z } from "zod";
import { type Logo, readReportBranding } from "./branding";
import type { PrintJob } from "./report-renderer";

/**
 * What the dashboard's print view draws (services/dashboard/src/pages/print-report.tsx reads the
 * same shape): the report's own API answers, with the workspace's branding.
 */
export type PrintData =
  | { kind: "audit"; generated_at: string; branding: ReportBrandingView | null; audit: AuditView; issues: AuditIssues }
  | { kind: "scan"; generated_at: string; branding: ReportBrandingView | null; scan: StoredScan }
  | {
      kind: "visibility";
      generated_at: string;
      branding: ReportBrandingView | null;
      /** the run with its measures, as GET /api/v1/visibility/runs/:id answers it */
      run: VisibilityRunView;
      site: { id: string; url: string; name: string };
      /** the brand's names and own hosts (its visibility profile, else the site's name and host) */
      brand: { names: string[]; domains: string[] };
    };

const stringList = z.array(z.string());

export const emptyProgress = (): AuditProgress => ({
  discovered: 0,
  queued: 0,
  running: 0,
  scanned: 0,
  failed: 0,
  blocked: 0,
  cancelled: 0,
});

/** Many audits' page counts by status, as their rows say, in one query (an audit without pages: all 0). */
export const progressesOfRows = async (db: Db, auditIds: readonly string[]): Promise<Map<string, AuditProgress>> => {
  const counts = await db.auditPage.groupBy({
    by: ["auditId", "status"],
    where: { auditId: { in: [...auditIds] } },
    _count: { _all: true },
  });
  const progresses = new Map(auditIds.map((id) => [id, emptyProgress()]));
  for (const row of counts) {
    const progress = progresses.get(row.auditId);
    if (!progress) continue;
    progress[row.status] = row._count._all;
    progress.discovered += row._count._all;
  }
  return progresses;
};

/** An audit's page counts by status, as its rows say. */
export const progressOfRows = async (db: Db, auditId: string): Promise<AuditProgress> =>
  (await progressesOfRows(db, [auditId])).get(auditId) ?? emptyProgress();

export const scoresOf = (row: {
  seo: number | null;
  aeo: number | null;
  geo: number | null;
  overall: number | null;
}): AuditView["scores"] =>
  row.seo !== null && row.aeo !== null && row.geo !== null && row.overall !== null
    ? { seo: row.seo, aeo: row.aeo, geo: row.geo, overall: row.overall, total: row.overall }
    : null;

/** Why the audit's crawl stopped admitting the pages it found, said as the API shows it. */
const crawlLimitOf = (audit: Audit): AuditView["crawl_limit"] => {
  if (audit.crawlLimit === "max_pages")
    return {
      reason: "max_pages",
      message: `The audit found more pages than its max_pages of ${audit.maxPages}; it scanned the first ${audit.maxPages} found.`,
    };
  if (audit.crawlLimit === "client_page_quota")
    return {
      reason: "client_page_quota",
      message: `The client's quota of audit pages this month was reached: the audit scanned the ${audit.discovered} pages admitted before it and no more.`,
    };
  return null;
};

export const toAuditView = (audit: Audit, progress: AuditProgress, withReport: boolean): AuditView => ({
  id: audit.id,
  site_id: audit.siteId,
  url: audit.startUrl,
  mode: audit.mode,
  status: audit.status,
  max_pages: audit.maxPages,
  include: stringList.parse(audit.include),
  exclude: stringList.parse(audit.exclude),
  progress,
  scores: audit.status === "completed" ? scoresOf(audit) : null,
  grade: audit.status === "completed" ? ((audit.grade as Grade | null) ?? null) : null,
  error: audit.errorCode ? { code: audit.errorCode, message: audit.errorMessage ?? "" } : null,
  crawl_limit: crawlLimitOf(audit),
  created_at: audit.createdAt.toISOString(),
  started_at: audit.startedAt?.toISOString() ?? null,
  completed_at: audit.completedAt?.toISOString() ?? null,
  report: withReport && audit.status === "completed" && audit.report ? SiteReport.parse(audit.report) : null,
});

/** The site's completed audit of the same mode started before this one: what an issue rollup compares with. */
export const previousCompletedAudit = (
  db: Db,
  audit: Pick<Audit, "id" | "siteId" | "workspaceId" | "mode" | "createdAt">,
) =>
  db.audit.findFirst({
    where: {
      siteId: audit.siteId,
      workspaceId: audit.workspaceId,
      mode: audit.mode,
      status: "completed",
      id: { not: audit.id },
      createdAt: { lt: audit.createdAt },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, report: true },
  });

/**
 * A completed audit's issue rollup, every issue: its report's counts against the previous
 * completed audit's report (GET /api/v1/audits/:id/issues answers the same for it).
 */
export const completedAuditIssues = async (db: Db, audit: Audit, report: SiteReport): Promise<AuditIssues> => {
  const previous = await previousCompletedAudit(db, audit);
  const before = previous?.report ? issueCountsOfReport(SiteReport.parse(previous.report)) : null;
  const current = issueCountsOfReport(report);
  return {
    audit_id: audit.id,
    site_id: audit.siteId,
    mode: audit.mode,
    status: audit.status,
    complete: true,
    pages_judged: current.pagesJudged,
    previous_audit_id: before ? (previous?.id ?? null) : null,
    issues: auditIssues(current, before, { siteChecksRan: true }),
  };
};

/**
 * What prints a completed audit's client report: the audit, its issue rollup and its workspace's
 * name and logo; null when the audit is not (or no longer) completed with a report.
 */
export const auditPrintJob = async (db: Db, auditId: string, now: Date): Promise<PrintJob | null> => {
  const audit = await db.audit.findUnique({ where: { id: auditId } });
  if (audit?.status !== "completed" || !audit.report) return null;
  const report = SiteReport.parse(audit.report);
  const [issues, counts, brand] = await Promise.all([
    completedAuditIssues(db, audit, report),
    // a completed audit has no page running: its rows' counts are its progress
    progressOfRows(db, audit.id),
    readReportBranding(db, audit.workspaceId),
  ]);
  const data: PrintData = {
    kind: "audit",
    generated_at: now.toISOString(),
    branding: brand?.branding ?? null,
    audit: toAuditView(audit, counts, true),
    issues,
  };
  const logo: Logo | null = brand?.logo ?? null;
  return { path: `/print/audits/${audit.id}`, data, logo };
};
