import { reportCsv, streamPagesCsv } from "@scan/audit";
import { emptyProgress, progressesOfRows, progressOfRows, toAuditView } from "@scan/client-reports";
import {
  AppError,
  type AuditIssuePage,
  type AuditIssuePagesQuery,
  type AuditIssues,
  type AuditIssuesQuery,
  type AuditPageListQuery,
  type AuditPageView,
  type AuditProgress,
  type AuditView,
  type CreateAuditRequest,
  type ListPage,
  offsetOf,
  type PageMeta,
  type Plan,
  pageMeta,
  SiteReport,
} from "@scan/contract";
import type { Audit, Db } from "@scan/db";
import { auditStepJob } from "@scan/queue";
import { AUDIT_WHERE, audits as auditRows, quotaMonth } from "@scan/records";
import { type AuditExportFormat, exportedPagesOf, streamAuditExport, TOOL } from "@scan/reports";
import type { Queue } from "bullmq";
import type { Logger } from "pino";
import { type AccountCaller, keyIdOf } from "../access/authenticate";
import { type Tx, withUserLock } from "../access/user-lock";
import { siteNotFound } from "../sites";
import { createAuditIssueReader } from "./audit-issues";
import { anyChecksPruned, auditPageViews, toAuditPageView } from "./audit-page-views";
import type { LiveWork } from "./live-work";

export type AuditServiceDeps = {
  db: Db;
  queue: Pick<Queue, "add">;
  /** which page jobs a live worker runs now: progress counts only those as running */
  liveWork: LiveWork;
  log: Logger;
  /** the most pages one audit may scan, by plan */
  pagesByPlan: Record<Plan, number>;
  /** audits under way at once per workspace */
  activePerUser: number;
  /** the scan target's address policy, for the site's origin */
  assertScannable: (url: string) => Promise<void>;
};

/** what an audit under way answers in Retry-After: it takes minutes, not seconds */
const UNFINISHED_RETRY_S = 10;

export const auditNotFound = (id: string) =>
  new AppError("not_found", `No audit with id ${id}`, "Use an audit id from POST /api/v1/sites/{id}/audits.");

export type AuditService = {
  /** Starts an audit of one of the owner's sites, within the plan's page ceiling and audits under way. */
  create: (owner: AccountCaller, siteId: string, input: CreateAuditRequest, requestId: string) => Promise<AuditView>;
  /** One of the workspace's audits with its progress and, once completed, its report. */
  get: (workspaceId: string, auditId: string) => Promise<AuditView>;
  /** The audit's state and progress without its report: what a progress stream sends at each change. */
  progress: (workspaceId: string, auditId: string) => Promise<AuditView>;
  /** One of the workspace's sites' audits, newest first. */
  listForSite: (
    workspaceId: string,
    siteId: string,
    query: ListPage,
  ) => Promise<{ audits: AuditView[]; meta: PageMeta }>;
  /** The audit's pages, one page of the list at a time. */
  pages: (
    workspaceId: string,
    auditId: string,
    query: AuditPageListQuery,
  ) => Promise<{ pages: AuditPageView[]; meta: PageMeta }>;
  /** Every page of the audit as CSV, a line per page as the pages are read. */
  pagesAsCsv: (workspaceId: string, auditId: string) => Promise<AsyncIterable<string>>;
  /** The completed audit's report; 409 with Retry-After while it is under way, 404 when it never will have one. */
  report: (workspaceId: string, auditId: string) => Promise<SiteReport>;
  /** The completed audit's report as CSV. */
  reportAsCsv: (workspaceId: string, auditId: string) => Promise<string>;
  /** The completed audit as SARIF or JUnit XML, in parts as it is written; 410 once retention dropped a page's checks. */
  exportReport: (workspaceId: string, auditId: string, format: AuditExportFormat) => Promise<AsyncIterable<string>>;
  /** Cancels an audit under way (pages being scanned finish and are kept); answers the audit as it now stands. */
  cancel: (workspaceId: string, auditId: string) => Promise<AuditView>;
  /** The audit's issues, check by check, compared with the site's previous completed audit of the same mode. */
  issues: (workspaceId: string, auditId: string, query: AuditIssuesQuery) => Promise<AuditIssues>;
  /** The audit's issues as CSV. */
  issuesAsCsv: (workspaceId: string, auditId: string, query: AuditIssuesQuery) => Promise<string>;
  /** The pages an issue is on, in the order the audit admitted them; a fixed issue is on none. */
  issuePages: (
    workspaceId: string,
    auditId: string,
    check: string,
    query: AuditIssuePagesQuery,
  ) => Promise<{ pages: AuditIssuePage[]; meta: PageMeta }>;
};

/**
 * Whole-site audits of a workspace's sites: started within the plan's page ceiling and the number
 * under way, read with their progress counted from the page rows, paged through, exported and
 * cancelled. The worker does the rest (services/worker/src/jobs/audit.job.ts).
 */
export const createAuditService = ({
  db,
  queue,
  liveWork,
  log,
  pagesByPlan,
  activePerUser,
  assertScannable,
}: AuditServiceDeps): AuditService => {
  /**
   * The page counts by status, from live work only: a page whose row says running but whose
   * worker is gone (killed under it; its job is handed to another worker within the stalled
   * check) is counted as queued, as it is about to be run again. With Redis away the rows are
   * all there is, and are shown as they are.
   */
  const progressOf = async (auditId: string): Promise<AuditProgress> =>
    withLiveWork(auditId, await progressOfRows(db, auditId));

  /** The page rows' counts of many audits in one query (a list's page), each as progressOfRows counts one. */
  const progressesOf = async (auditIds: readonly string[]): Promise<Map<string, AuditProgress>> => {
    const progresses = await progressesOfRows(db, auditIds);
    return new Map(
      await Promise.all(
        auditIds.map(async (id) => [id, await withLiveWork(id, progresses.get(id) ?? emptyProgress())] as const),
      ),
    );
  };

  const withLiveWork = async (auditId: string, progress: AuditProgress): Promise<AuditProgress> => {
    if (progress.running === 0) return progress;
    const running = await db.auditPage.findMany({ where: { auditId, status: "running" }, select: { id: true } });
    try {
      const live = await liveWork(running.map((page) => page.id));
      const orphaned = running.length - live.size;
      progress.running -= orphaned;
      progress.queued += orphaned;
    } catch (error) {
      log.warn({ auditId, err: error instanceof Error ? error.message : String(error) }, "live audit work not read");
    }
    return progress;
  };

  const owned = async (workspaceId: string, auditId: string): Promise<Audit> => {
    const audit = await db.audit.findFirst({ where: { id: auditId, workspaceId } });
    if (!audit) throw auditNotFound(auditId);
    return audit;
  };

  /**
   * Refuses an audit beyond this month's audit quota of the site's client (the client it will
   * count for), or when the client's audit pages this month are used up (an audit that starts
   * admits pages up to what is left, and its crawl stops there). Under the workspace's
   * audit-start lock, which a schedule's firing holds too.
   */
  const assertClientAuditQuota = async (tx: Tx, siteId: string) => {
    const site = await tx.site.findUnique({
      where: { id: siteId },
      select: { client: { select: { id: true, name: true, auditQuota: true, auditPageQuota: true } } },
    });
    const client = site?.client;
    if (!client) return;
    const now = new Date();
    const month = quotaMonth(now);
    const refusal = (quota: string, field: string) =>
      new AppError(
        "plan_limit",
        `The client ${client.name}'s quota of ${quota} this month is used up`,
        `The client's quota resets at ${month.resetsAt.toISOString()}; a member of the workspace can raise it (PATCH /api/v1/clients/{id} {"${field}"}).`,
      );
    if (client.auditQuota !== null) {
      const used = await tx.audit.count({ where: { clientId: client.id, createdAt: { gte: month.start } } });
      if (used >= client.auditQuota) throw refusal(`${client.auditQuota} audits`, "audit_quota");
    }
    if (client.auditPageQuota !== null) {
      const used = await auditRows.clientAuditPages(tx, client.id, now);
      if (used >= client.auditPageQuota) throw refusal(`${client.auditPageQuota} audit pages`, "audit_page_quota");
    }
  };

  const view = async (audit: Audit, withReport: boolean) => toAuditView(audit, await progressOf(audit.id), withReport);

  const create = async (
    owner: AccountCaller,
    siteId: string,
    input: CreateAuditRequest,
    requestId: string,
  ): Promise<AuditView> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId: owner.workspaceId } });
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
    const audit = await withUserLock(db, "audits", owner.workspaceId, async (tx) => {
      const active = await tx.audit.count({ where: { workspaceId: owner.workspaceId, ...AUDIT_WHERE.underWay } });
      if (active >= activePerUser)
        throw new AppError(
          "plan_limit",
          `${active} audits are already under way; at most ${activePerUser} may run at once`,
          "Wait for one to finish, or cancel one with DELETE /api/v1/audits/{id}.",
        );
      await assertClientAuditQuota(tx, site.id);
      return auditRows.insertDiscovering(tx, {
        workspaceId: owner.workspaceId,
        userId: owner.userId,
        apiKeyId: keyIdOf(owner),
        siteId: site.id,
        startUrl,
        mode: input.mode,
        maxPages: input.max_pages ?? ceiling,
        include: input.include,
        exclude: input.exclude,
        requestId,
      });
    });
    try {
      const job = auditStepJob("discover", { auditId: audit.id, requestId });
      await queue.add(job.name, job.data, job.opts);
    } catch (error) {
      // stored: the caller is told the audit, and the worker's reaper queues its discovery from the row once the queue is back
      log.warn(
        { auditId: audit.id, err: error instanceof Error ? error.message : String(error) },
        "audit stored but its discovery not queued: the reaper queues it once the queue is back",
      );
    }
    return toAuditView(audit, emptyProgress(), false);
  };

  const get = async (workspaceId: string, auditId: string) => view(await owned(workspaceId, auditId), true);
  /** The audit's state and progress without its report: what a progress stream sends at each change. */
  const progress = async (workspaceId: string, auditId: string) => view(await owned(workspaceId, auditId), false);

  const listForSite = async (
    workspaceId: string,
    siteId: string,
    query: { page: number; limit: number },
  ): Promise<{ audits: AuditView[]; meta: PageMeta }> => {
    const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
    if (!site) throw siteNotFound(siteId);
    const where = { siteId, workspaceId };
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
    // one count of the page's audit pages for the whole page, not one a listed audit
    const progresses = await progressesOf(rows.map((row) => row.id));
    const audits = rows.map((row) => toAuditView(row, progresses.get(row.id) ?? emptyProgress(), false));
    return { audits, meta: pageMeta(query, total) };
  };

  const pages = async (
    workspaceId: string,
    auditId: string,
    query: AuditPageListQuery,
  ): Promise<{ pages: AuditPageView[]; meta: PageMeta }> => {
    await owned(workspaceId, auditId);
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

  /** Every page of the audit as CSV, a line per page as the pages are read. */
  const pagesAsCsv = async (workspaceId: string, auditId: string): Promise<AsyncIterable<string>> => {
    await owned(workspaceId, auditId);
    return streamPagesCsv(auditPageViews(db, auditId, { checks: true }));
  };

  /**
   * The completed audit with its report. An audit under way has none yet: 409 with
   * Retry-After, as an export of an unfinished scan; a failed or cancelled one never will: 404.
   */
  const completed = async (workspaceId: string, auditId: string): Promise<Audit & { report: SiteReport }> => {
    const audit = await owned(workspaceId, auditId);
    if (auditRows.isUnderWay(audit.status))
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

  const report = async (workspaceId: string, auditId: string): Promise<SiteReport> =>
    (await completed(workspaceId, auditId)).report;

  const reportAsCsv = async (workspaceId: string, auditId: string) => reportCsv(await report(workspaceId, auditId));

  /**
   * The completed audit as SARIF or JUnit XML, in parts as it is written, its pages read as it
   * goes: its site report and, page by page, the judged pages' checks and the pages that failed.
   * 410 once retention dropped a judged page's checks: an export without them would read as
   * pages with nothing wrong. That is decided here, before the file's first byte.
   */
  const exportReport = async (
    workspaceId: string,
    auditId: string,
    format: AuditExportFormat,
  ): Promise<AsyncIterable<string>> => {
    const audit = await completed(workspaceId, auditId);
    if (await anyChecksPruned(db, auditId))
      throw new AppError(
        "checks_pruned",
        `Audit ${auditId} no longer has its pages' checks: retention dropped them`,
        `Its site report is still in GET /api/v1/audits/${auditId}/report as JSON or CSV; audit the site again for a ${format} export.`,
      );
    return streamAuditExport(
      format,
      {
        id: audit.id,
        url: audit.startUrl,
        mode: audit.mode,
        completedAt: audit.completedAt?.toISOString() ?? null,
        report: audit.report,
        // each pass of the file reads the pages anew, their checks only when it shows them
        pages: ({ checks }) => exportedPagesOf(auditPageViews(db, auditId, { checks }), audit.mode),
      },
      TOOL,
    );
  };

  /**
   * Cancels an audit under way: it and its pages not yet started are marked cancelled, pages
   * being scanned finish and are kept, nothing more is queued. A finished audit is left as it
   * is; either way the answer is the audit as it now stands.
   */
  const cancel = async (workspaceId: string, auditId: string) => {
    const audit = await owned(workspaceId, auditId);
    if (auditRows.isUnderWay(audit.status)) await auditRows.cancel(db, auditId);
    return view(await owned(workspaceId, auditId), true);
  };

  return {
    create,
    get,
    progress,
    listForSite,
    pages,
    pagesAsCsv,
    report,
    reportAsCsv,
    exportReport,
    cancel,
    ...createAuditIssueReader({ db, owned }),
  };
};
