import { isJudgedPage, pagesCsv, reportCsv } from "@scan/audit";
import {
  AppError,
  type AuditPageListQuery,
  type AuditPageView,
  type AuditProgress,
  type AuditView,
  auditStepJob,
  CheckResult,
  type CreateAuditRequest,
  type Grade,
  offsetOf,
  type PageMeta,
  type Plan,
  pageMeta,
  SiteReport,
} from "@scan/contract";
import type { Audit, AuditPage, Db } from "@scan/db";
import { type AuditExportFormat, auditExportOf, checksPruned, renderAuditExport, TOOL } from "@scan/reports";
import type { Queue } from "bullmq";
import { z } from "zod";
import type { AccountCaller } from "./authenticate";
import { siteNotFound } from "./site-service";
import { withUserLock } from "./user-lock";

export type AuditServiceDeps = {
  db: Db;
  queue: Pick<Queue, "add">;
  /** the most pages one audit may scan, by plan */
  pagesByPlan: Record<Plan, number>;
  /** audits under way at once per user */
  activePerUser: number;
  /** the scan target's address policy, for the site's origin */
  assertScannable: (url: string) => Promise<void>;
};

const ACTIVE = ["discovering", "running", "finalizing"] as const;
const stringList = z.array(z.string());
const Checks = z.array(CheckResult);
/** what of a page's facts says whether it was judged; the rest (its links) is not read here */
const Redirects = z.object({ redirects: z.array(z.unknown()) });
/** page rows read per query for an export */
const EXPORT_BATCH = 1_000;
/** what an audit under way answers in Retry-After: it takes minutes, not seconds */
const UNFINISHED_RETRY_S = 10;

export const auditNotFound = (id: string) =>
  new AppError("not_found", `No audit with id ${id}`, "Use an audit id from POST /api/v1/sites/{id}/audits.");

const scoresOf = (row: {
  seo: number | null;
  aeo: number | null;
  geo: number | null;
  overall: number | null;
}): AuditView["scores"] =>
  row.seo !== null && row.aeo !== null && row.geo !== null && row.overall !== null
    ? { seo: row.seo, aeo: row.aeo, geo: row.geo, overall: row.overall, total: row.overall }
    : null;

const emptyProgress = (): AuditProgress => ({
  discovered: 0,
  queued: 0,
  running: 0,
  scanned: 0,
  failed: 0,
  blocked: 0,
  cancelled: 0,
});

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
  created_at: audit.createdAt.toISOString(),
  started_at: audit.startedAt?.toISOString() ?? null,
  completed_at: audit.completedAt?.toISOString() ?? null,
  report: withReport && audit.status === "completed" && audit.report ? SiteReport.parse(audit.report) : null,
});

/**
 * Whether the page answered through a redirect: its facts say, as they said to the report step;
 * once retention dropped them, its final URL does.
 */
const redirectedOf = (page: AuditPage): boolean => {
  const facts = Redirects.safeParse(page.facts);
  return facts.success ? facts.data.redirects.length > 0 : page.finalUrl !== null && page.finalUrl !== page.url;
};

export const toAuditPageView = (page: AuditPage): AuditPageView => ({
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

/**
 * Whole-site audits of a user's sites: started within the plan's page ceiling and the number
 * under way, read with their progress counted from the page rows, paged through, exported and
 * cancelled. The worker does the rest (services/worker/src/jobs/audit.job.ts).
 */
export const createAuditService = ({ db, queue, pagesByPlan, activePerUser, assertScannable }: AuditServiceDeps) => {
  const progressOf = async (auditId: string): Promise<AuditProgress> => {
    const counts = await db.auditPage.groupBy({ by: ["status"], where: { auditId }, _count: { _all: true } });
    const progress = emptyProgress();
    for (const row of counts) {
      progress[row.status] = row._count._all;
      progress.discovered += row._count._all;
    }
    return progress;
  };

  const owned = async (userId: string, auditId: string): Promise<Audit> => {
    const audit = await db.audit.findFirst({ where: { id: auditId, userId } });
    if (!audit) throw auditNotFound(auditId);
    return audit;
  };

  const view = async (audit: Audit, withReport: boolean) => toAuditView(audit, await progressOf(audit.id), withReport);

  const create = async (
    owner: AccountCaller,
    siteId: string,
    input: CreateAuditRequest,
    requestId: string,
  ): Promise<AuditView> => {
    const site = await db.site.findFirst({ where: { id: siteId, userId: owner.userId } });
    if (!site) throw siteNotFound(siteId);
    const ceiling = pagesByPlan[owner.plan];
    if (input.max_pages !== undefined && input.max_pages > ceiling)
      throw new AppError(
        "plan_limit",
        `The ${owner.plan} plan audits at most ${ceiling} pages; max_pages was ${input.max_pages}`,
        `Ask for ${ceiling} pages or fewer, or leave max_pages out; a higher plan audits more pages.`,
      );
    const startUrl = `${site.url}/`;
    // the site's origin passes the scan address policy again: SCAN_ALLOWLIST may have changed since it was stored
    await assertScannable(startUrl);
    const audit = await withUserLock(db, "audits", owner.userId, async (tx) => {
      const active = await tx.audit.count({ where: { userId: owner.userId, status: { in: [...ACTIVE] } } });
      if (active >= activePerUser)
        throw new AppError(
          "plan_limit",
          `${active} audits are already under way; at most ${activePerUser} may run at once`,
          "Wait for one to finish, or cancel one with DELETE /api/v1/audits/{id}.",
        );
      return tx.audit.create({
        data: {
          userId: owner.userId,
          siteId: site.id,
          startUrl,
          mode: input.mode,
          maxPages: input.max_pages ?? ceiling,
          include: input.include,
          exclude: input.exclude,
          requestId,
        },
      });
    });
    try {
      const job = auditStepJob("discover", { auditId: audit.id, requestId });
      await queue.add(job.name, job.data, job.opts);
    } catch {
      await db.audit.update({
        where: { id: audit.id },
        data: {
          status: "failed",
          errorCode: "service_unavailable",
          errorMessage: "The scan queue was unavailable",
          completedAt: new Date(),
        },
      });
      throw new AppError("service_unavailable", "The scan queue is unavailable", "Try again in a few seconds.", {
        "Retry-After": "5",
      });
    }
    return toAuditView(audit, emptyProgress(), false);
  };

  const get = async (userId: string, auditId: string) => view(await owned(userId, auditId), true);

  const listForSite = async (
    userId: string,
    siteId: string,
    query: { page: number; limit: number },
  ): Promise<{ audits: AuditView[]; meta: PageMeta }> => {
    const site = await db.site.findFirst({ where: { id: siteId, userId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    const where = { siteId, userId };
    const [total, rows] = await db.$transaction(
      [
        db.audit.count({ where }),
        db.audit.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: offsetOf(query),
          take: query.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    const audits = await Promise.all(rows.map((row) => view(row, false)));
    return { audits, meta: pageMeta(query, total) };
  };

  const pages = async (
    userId: string,
    auditId: string,
    query: AuditPageListQuery,
  ): Promise<{ pages: AuditPageView[]; meta: PageMeta }> => {
    await owned(userId, auditId);
    const where = { auditId };
    const [total, rows] = await db.$transaction(
      [
        db.auditPage.count({ where }),
        db.auditPage.findMany({
          where,
          orderBy: { position: "asc" },
          skip: offsetOf(query),
          take: query.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { pages: rows.map(toAuditPageView), meta: pageMeta(query, total) };
  };

  /** Every page of the audit, read in batches in the order they were found. */
  async function* allPages(auditId: string): AsyncGenerator<AuditPageView> {
    let after = 0;
    for (;;) {
      const rows: AuditPage[] = await db.auditPage.findMany({
        where: { auditId, position: { gt: after } },
        orderBy: { position: "asc" },
        take: EXPORT_BATCH,
      });
      for (const row of rows) yield toAuditPageView(row);
      const last = rows.at(-1);
      if (rows.length < EXPORT_BATCH || !last) return;
      after = last.position;
    }
  }

  /** Every page of the audit as CSV. */
  const pagesAsCsv = async (userId: string, auditId: string): Promise<string> => {
    await owned(userId, auditId);
    const views: AuditPageView[] = [];
    for await (const view of allPages(auditId)) views.push(view);
    return pagesCsv(views);
  };

  /**
   * The completed audit with its report. An audit under way has none yet: 409 with
   * Retry-After, as an export of an unfinished scan; a failed or cancelled one never will: 404.
   */
  const completed = async (userId: string, auditId: string): Promise<Audit & { report: SiteReport }> => {
    const audit = await owned(userId, auditId);
    if ((ACTIVE as readonly string[]).includes(audit.status))
      throw new AppError(
        "scan_not_finished",
        `Audit ${auditId} is ${audit.status}: it has no report until it has completed`,
        `Follow GET /api/v1/audits/${auditId} until its status is completed, then ask again.`,
        { "Retry-After": String(UNFINISHED_RETRY_S) },
      );
    if (audit.status !== "completed" || !audit.report)
      throw new AppError(
        "not_found",
        `Audit ${auditId} has no report: it is ${audit.status}`,
        "A report exists once an audit has completed; start another with POST /api/v1/sites/{id}/audits.",
      );
    return { ...audit, report: SiteReport.parse(audit.report) };
  };

  const report = async (userId: string, auditId: string): Promise<SiteReport> =>
    (await completed(userId, auditId)).report;

  const reportAsCsv = async (userId: string, auditId: string) => reportCsv(await report(userId, auditId));

  /**
   * The completed audit as SARIF or JUnit XML: its site report and, page by page, the judged
   * pages' checks and the pages that failed. 410 once retention dropped a judged page's checks:
   * an export without them would read as pages with nothing wrong.
   */
  const exportReport = async (userId: string, auditId: string, format: AuditExportFormat): Promise<string> => {
    const audit = await completed(userId, auditId);
    const pages: AuditPageView[] = [];
    for await (const view of allPages(auditId)) {
      if (checksPruned(view))
        throw new AppError(
          "checks_pruned",
          `Audit ${auditId} no longer has its pages' checks: retention dropped them`,
          `Its site report is still in GET /api/v1/audits/${auditId}/report as JSON or CSV; audit the site again for a ${format} export.`,
        );
      // only what the export shows is kept: judged pages with their checks, failed pages
      if (view.judged || view.status === "failed") pages.push(view);
    }
    const exported = auditExportOf(
      {
        id: audit.id,
        url: audit.startUrl,
        mode: audit.mode,
        completed_at: audit.completedAt?.toISOString() ?? null,
        report: audit.report,
      },
      pages,
    );
    return renderAuditExport(format, exported, TOOL);
  };

  /**
   * Cancels an audit under way: it and its pages not yet started are marked cancelled, pages
   * being scanned finish and are kept, nothing more is queued. A finished audit is left as it
   * is; either way the answer is the audit as it now stands.
   */
  const cancel = async (userId: string, auditId: string) => {
    const audit = await owned(userId, auditId);
    if ((ACTIVE as readonly string[]).includes(audit.status)) {
      await db.$transaction([
        db.audit.updateMany({
          where: { id: auditId, status: { in: [...ACTIVE] } },
          data: { status: "cancelled", completedAt: new Date() },
        }),
        db.auditPage.updateMany({
          where: { auditId, status: "queued" },
          data: { status: "cancelled", completedAt: new Date() },
        }),
      ]);
    }
    return view(await owned(userId, auditId), true);
  };

  return { create, get, listForSite, pages, pagesAsCsv, report, reportAsCsv, exportReport, cancel };
};

export type AuditService = ReturnType<typeof createAuditService>;
