import {
  type Answer,
  type AuditedPage,
  buildSiteReport,
  crawlerRobots,
  type JudgedPage,
  llmsTxtLinks,
  PageFacts,
  runSiteChecks,
} from "@scan/audit";
import { CheckResult } from "@scan/contract";
import { fetchDocument, TargetError } from "@scan/scanner";
import { z } from "zod";
import { StoredDiscovery, setSiteScoresFromAudit } from "../domain/audit-store";
import type { AuditJobDeps } from "./audit.job";

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
export const createAuditReport = ({ db, scanner, log, reportFetchTimeoutMs }: AuditJobDeps) => {
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

  return async (auditId: string): Promise<void> => {
    const audit = await db.audit.findUnique({
      where: { id: auditId },
      select: { id: true, status: true, mode: true, siteId: true, startUrl: true, discovery: true },
    });
    if (audit?.status !== "finalizing" || !audit) return;
    const origin = new URL(audit.startUrl).origin;
    const discovery: StoredDiscovery | null = audit.discovery ? StoredDiscovery.parse(audit.discovery) : null;
    const pages: AuditedPage[] = [];
    const judged: JudgedPage[] = [];
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
        pages.push({ url: row.url, status: row.status, httpStatus: row.httpStatus, inSitemap: row.inSitemap, facts });
        const ok = row.httpStatus !== null && row.httpStatus >= 200 && row.httpStatus < 300;
        if (
          row.status === "scanned" &&
          ok &&
          facts &&
          facts.redirects.length === 0 &&
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
    const extraAnswers = await answersOf(llmsTxtLinks(llmsTxt).filter((url) => !known.has(url)));
    const siteChecks = runSiteChecks({
      origin,
      pages,
      robots: crawlerRobots(discovery?.robotsTxt ?? null, origin),
      llmsTxt,
      extraAnswers,
    });
    const report = buildSiteReport({
      mode: audit.mode,
      pages: judged,
      siteChecks,
      discovery: discovery?.summary ?? null,
    });
    const completedAt = new Date();
    const { count } = await db.audit.updateMany({
      where: { id: auditId, status: "finalizing" },
      data: {
        status: "completed",
        report,
        seo: report.scores.seo,
        aeo: report.scores.aeo,
        geo: report.scores.geo,
        overall: report.scores.overall,
        grade: report.grade,
        issuesCritical: report.issues.critical,
        issuesWarning: report.issues.warning,
        issuesInfo: report.issues.info,
        completedAt,
      },
    });
    // only a full audit that judged pages speaks for the site (docs/spec/checks.md: quick scores are partial)
    if (count > 0 && audit.mode === "full" && judged.length > 0)
      await setSiteScoresFromAudit(db, { id: auditId, siteId: audit.siteId, scores: report.scores, completedAt });
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
