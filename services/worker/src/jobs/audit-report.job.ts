import { randomUUID } from "node:crypto";
import {
  type Answer,
  type AuditedPage,
  buildSiteReport,
  crawlerRobots,
  isJudgedPage,
  type JudgedPage,
  llmsTxtLinks,
  PageFacts,
  regressionOf,
  runSiteChecks,
  startPageCatalog,
} from "@scan/audit";
import {
  type AlertChannel,
  CheckResult,
  type RegressionAlert,
  SiteReport,
  type SiteReport as SiteReportType,
} from "@scan/contract";
import { AuditJobPayload } from "@scan/queue";
import { alerts as alertRows, audits, sites } from "@scan/records";
import { fetchAiCatalog, fetchDocument, TargetError } from "@scan/scanner";
import { type Job, UnrecoverableError } from "bullmq";
import { z } from "zod";
import { StoredDiscovery } from "../domain/audit-store";
import type { AuditJobDeps } from "./audit-steps";

/** page rows read per query while the report is built */
const BATCH = 500;
/** llms.txt links fetched at once */
const LINK_FETCHES = 4;

const Checks = z.array(CheckResult);

/**
 * The report step: the site checks over every page's facts, each page check's pass rate, the
 * worst pages and the site scores, stored on the audit, which completes. A full audit's scores
 * become the site's latest. Runs once per audit (its job id is the audit's); run again after it
 * stored, it does nothing.
 */
export const createAuditReport = ({
  db,
  scanner,
  log,
  reportFetchTimeoutMs,
  enqueueAlert,
  enqueueReportMail,
}: AuditJobDeps) => {
  /**
   * The regression alerts of a completed audit, one per channel the site's schedule has (signed
   * webhook, mail, Slack), when the audit is worse than the site's previous completed audit of
   * the same mode. Returned as the rows to store in the transaction that completes the audit:
   * one alert per audit and channel.
   */
  const alertFor = async (
    audit: {
      id: string;
      siteId: string;
      userId: string;
      workspaceId: string;
      mode: "quick" | "full";
      startUrl: string;
    },
    report: SiteReportType,
    detectedAt: Date,
  ) => {
    const schedule = await db.auditSchedule.findUnique({
      where: { siteId: audit.siteId },
      select: { alertUrl: true, alertEmails: true, alertSlackUrl: true, alertDrop: true },
    });
    if (!schedule) return [];
    const targets: Array<{ channel: AlertChannel; url: string }> = [
      ...(schedule.alertUrl ? [{ channel: "webhook" as const, url: schedule.alertUrl }] : []),
      ...(schedule.alertEmails.length > 0 ? [{ channel: "email" as const, url: schedule.alertEmails.join(", ") }] : []),
      ...(schedule.alertSlackUrl ? [{ channel: "slack" as const, url: schedule.alertSlackUrl }] : []),
    ];
    if (targets.length === 0) return [];
    const previous = await db.audit.findFirst({
      where: { siteId: audit.siteId, mode: audit.mode, status: "completed", id: { not: audit.id } },
      orderBy: [{ completedAt: "desc" }, { id: "desc" }],
      select: { id: true, report: true },
    });
    if (!previous?.report) return [];
    const before = SiteReport.parse(previous.report);
    const { reasons, pageChecksFailing } = regressionOf(before, report, schedule.alertDrop);
    if (reasons.length === 0) return [];
    for (const reason of reasons) {
      if (reason.kind !== "check_failing" || reason.scope !== "page" || !pageChecksFailing.includes(reason.check))
        continue;
      const failing = JSON.stringify([{ id: reason.check, status: "fail" }]);
      const rows = await db.$queryRaw<Array<{ url: string }>>`
        SELECT "url" FROM "audit_pages" WHERE "audit_id" = ${audit.id}::uuid AND "checks" @> ${failing}::jsonb
        ORDER BY "position" LIMIT 50`;
      reason.pages = rows.map((row) => row.url);
    }
    return targets.map(({ channel, url }) => {
      const id = randomUUID();
      const body: RegressionAlert = {
        event: "site.regressed",
        alert_id: id,
        site_id: audit.siteId,
        site_url: new URL(audit.startUrl).origin,
        audit_id: audit.id,
        previous_audit_id: previous.id,
        mode: audit.mode,
        scores: { before: before.scores, after: report.scores },
        grade: { before: before.grade, after: report.grade },
        reasons,
        detected_at: detectedAt.toISOString(),
      };
      return {
        id,
        auditId: audit.id,
        channel,
        previousAuditId: previous.id,
        siteId: audit.siteId,
        userId: audit.userId,
        workspaceId: audit.workspaceId,
        url,
        body,
      };
    });
  };

  /** hands the stored, undelivered alerts of the audit to the webhook queue (each job's id is its alert's) */
  const queueAlert = async (auditId: string) => {
    const alerts = await db.auditAlert.findMany({ where: { auditId, state: "pending" }, select: { id: true } });
    for (const alert of alerts) await enqueueAlert({ alertId: alert.id });
  };

  /**
   * the client report's mail, when the schedule that started this audit asks for it: a delivery
   * made for every audit it starts, regressed or not (an audit started by hand mails nothing)
   */
  const queueReportMail = async (auditId: string, siteId: string) => {
    const schedule = await db.auditSchedule.findUnique({
      where: { siteId },
      select: { lastAuditId: true, reportEmails: true },
    });
    if (schedule?.lastAuditId === auditId && schedule.reportEmails.length > 0) await enqueueReportMail({ auditId });
  };

  /** answers to llms.txt links the audit did not scan: fetched hop by hop under the address policy */
  const answersOf = async (urls: readonly string[]): Promise<Map<string, Answer>> => {
    const answers = new Map<string, Answer>();
    const deadline = Date.now() + reportFetchTimeoutMs;
    const queue = [...urls];
    const fetchOne = async (url: string) => {
      try {
        const { final, redirects } = await fetchDocument(new URL(url), scanner.policy, {
          deadline,
          maxBytes: 64 * 1024,
          maxRedirects: 5,
        });
        answers.set(url, { status: final.status, redirected: redirects.length > 0, finalUrl: final.url });
      } catch (error) {
        if (!(error instanceof TargetError)) throw error;
        answers.set(url, { status: 0, redirected: false, finalUrl: null });
      }
    };
    await Promise.all(
      Array.from({ length: LINK_FETCHES }, async () => {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) await fetchOne(url);
      }),
    );
    return answers;
  };

  /**
   * The site's ai-catalog.json as the site checks judge it: discovery's (robots.txt's `Agentmap:`
   * or the well-known path), with the start page's `<link>` and `Link` header from its scan; the
   * catalog those name is fetched now only when it is another than discovery fetched.
   */
  const catalogOf = async (discovery: StoredDiscovery | null, startFacts: PageFacts | null) => {
    if (!discovery?.aiCatalog) return null;
    const { signals, fetch } = startPageCatalog(discovery.aiCatalog, startFacts);
    if (fetch === null) return { ...discovery.aiCatalog, signals };
    return fetchAiCatalog(signals, scanner.policy, Date.now() + reportFetchTimeoutMs);
  };

  return async (auditId: string): Promise<void> => {
    const audit = await db.audit.findUnique({
      where: { id: auditId },
      select: {
        id: true,
        status: true,
        mode: true,
        siteId: true,
        userId: true,
        workspaceId: true,
        startUrl: true,
        discovery: true,
      },
    });
    // completed by an earlier run that may have stopped before handing its alert over
    if (audit?.status === "completed") await queueAlert(auditId);
    if (audit?.status !== "finalizing") return;
    const origin = new URL(audit.startUrl).origin;
    const discovery: StoredDiscovery | null = audit.discovery ? StoredDiscovery.parse(audit.discovery) : null;
    const pages: AuditedPage[] = [];
    const judged: JudgedPage[] = [];
    let startFacts: PageFacts | null = null;
    let after = 0;
    for (;;) {
      const rows = await db.auditPage.findMany({
        where: { auditId, position: { gt: after } },
        select: {
          position: true,
          url: true,
          status: true,
          httpStatus: true,
          inSitemap: true,
          facts: true,
          overall: true,
          checks: true,
        },
        orderBy: { position: "asc" },
        take: BATCH,
      });
      for (const row of rows) {
        const facts = row.facts ? PageFacts.parse(row.facts) : null;
        if (row.url === audit.startUrl) startFacts = facts;
        pages.push({ url: row.url, status: row.status, httpStatus: row.httpStatus, inSitemap: row.inSitemap, facts });
        const redirected = facts === null || facts.redirects.length > 0;
        if (
          isJudgedPage({ status: row.status, httpStatus: row.httpStatus, redirected }) &&
          row.overall !== null &&
          row.checks
        )
          judged.push({ url: row.url, overall: row.overall, checks: Checks.parse(row.checks) });
      }
      const last = rows.at(-1);
      if (rows.length < BATCH || !last) break;
      after = last.position;
    }
    const llmsTxt = discovery
      ? { url: discovery.llmsTxt.url, status: discovery.llmsTxt.status, body: discovery.llmsTxt.body }
      : null;
    const known = new Set(pages.map((page) => page.url));
    const [extraAnswers, aiCatalog] = await Promise.all([
      answersOf(llmsTxtLinks(llmsTxt).filter((url) => !known.has(url))),
      catalogOf(discovery, startFacts),
    ]);
    const siteChecks = runSiteChecks({
      origin,
      pages,
      robots: crawlerRobots(discovery?.robotsTxt ?? null, origin),
      llmsTxt,
      extraAnswers,
      aiCatalog,
    });
    const report = buildSiteReport({
      mode: audit.mode,
      pages: judged,
      siteChecks,
      discovery: discovery?.summary ?? null,
    });
    const completedAt = new Date();
    const alerts = await alertFor(audit, report, completedAt);
    // the audit completes and its alerts are stored together: an audit alerts once per channel or not at all
    const { stored } = await audits.complete(db, auditId, report, completedAt, (tx) =>
      alertRows.insertAuditAlerts(tx, alerts),
    );
    if (stored && alerts.length > 0) await queueAlert(auditId);
    if (stored) await queueReportMail(auditId, audit.siteId);
    // only a full audit that judged pages speaks for the site (docs/spec/checks.md: quick scores are partial)
    if (stored && audit.mode === "full" && judged.length > 0)
      await sites.recordAuditScores(db, { id: auditId, siteId: audit.siteId, scores: report.scores, completedAt });
    log.info(
      {
        auditId,
        pages: pages.length,
        judged: judged.length,
        overall: report.scores.overall,
        failing: siteChecks.filter((check) => check.status === "fail").map((check) => check.id),
      },
      "audit completed",
    );
  };
};

/** The report's job: its payload names the audit. */
export const createAuditReportJob = (deps: AuditJobDeps) => {
  const report = createAuditReport(deps);
  return async (job: Job): Promise<void> => {
    const parsed = AuditJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad audit payload: ${parsed.error.message}`);
    await report(parsed.data.auditId);
  };
};
