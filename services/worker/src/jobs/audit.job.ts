import {
  crawlerRobots,
  factsOfPage,
  normaliseAuditUrl,
  PageFacts,
  refusalOf,
  type SitemapBounds,
  type UrlRules,
} from "@scan/audit";
import type { Db } from "@scan/db";
import { vetTarget } from "@scan/platform";
import {
  type AlertJobPayload,
  AUDIT_JOBS,
  AuditJobPayload,
  AuditPageJobPayload,
  AuditScheduledPayload,
  auditPageJob,
  auditSchedulerId,
  auditStepJob,
} from "@scan/queue";
import { type Scanner, type SiteAccess, TargetError } from "@scan/scanner";
import { DelayedError, type Job, type Queue, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { z } from "zod";
import { type AdmittedPage, admitPages, type Candidate, finishIfDone, StoredDiscovery } from "../domain/audit-store";
import type { HostSlots } from "../domain/host-slots";
import { discoverSite } from "../domain/site-discovery";
import { createAuditReport } from "./audit-report";

export type AuditJobDeps = {
  db: Db;
  scanner: Pick<Scanner, "scan" | "policy">;
  /** the scan queue: pages and the report are queued on it */
  queue: Pick<Queue, "add" | "addBulk" | "removeJobScheduler">;
  hostSlots: HostSlots;
  sitemapBounds?: SitemapBounds;
  /** how long discovery (robots.txt, llms.txt, the sitemaps) may take */
  discoveryTimeoutMs: number;
  /** how long the report's fetches of llms.txt links may take */
  reportFetchTimeoutMs: number;
  /** queues the delivery of a regression alert (its job id is the alert's: queued once) */
  enqueueAlert: (payload: AlertJobPayload) => Promise<void>;
  /** the audited site's credentials when it is behind a login (sent to its own origin only) */
  siteAccess?: (auditId: string) => Promise<SiteAccess | undefined>;
  log: Logger;
};

const stringList = z.array(z.string());

/** the robots rules of recent audits, read once per process rather than once per page */
const RULES_KEPT = 64;

/**
 * The jobs of an audit, on the scan queue beside interactive scans (below them in priority):
 * discovery, one job per page, and the report. The rows in Postgres are the truth: a page is
 * admitted once per audit and URL, moves queued → running → scanned | failed | blocked by
 * conditional updates, and is counted from its row, so a job run twice (a stalled job handed
 * to another worker, a job queued again after Redis lost it) stores and counts nothing twice.
 */
export const createAuditProcessor = (deps: AuditJobDeps) => {
  const { db, scanner, queue, hostSlots, log } = deps;
  const rulesCache = new Map<string, { rules: UrlRules; robots: ReturnType<typeof crawlerRobots> }>();

  const enqueuePages = async (auditId: string, mode: "quick" | "full", pages: readonly AdmittedPage[]) => {
    if (pages.length === 0) return;
    await queue.addBulk(pages.map((page) => auditPageJob({ auditId, pageId: page.id, url: page.url, mode })));
  };

  const queueReport = async (auditId: string) => {
    const job = auditStepJob("report", { auditId });
    await queue.add(job.name, job.data, job.opts);
  };

  const failAudit = (auditId: string, code: string, message: string) =>
    db.audit.updateMany({
      where: { id: auditId, status: { in: ["discovering", "running", "finalizing"] } },
      data: { status: "failed", errorCode: code, errorMessage: message.slice(0, 1000), completedAt: new Date() },
    });

  const discover = async (job: Job) => {
    const parsed = AuditJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad audit payload: ${parsed.error.message}`);
    const { auditId } = parsed.data;
    const audit = await db.audit.findUnique({ where: { id: auditId } });
    if (!audit) throw new UnrecoverableError(`audit ${auditId} does not exist`);
    if (audit.status !== "discovering") return;
    const origin = new URL(audit.startUrl).origin;
    const found = await discoverSite(origin, scanner.policy, {
      deadline: Date.now() + deps.discoveryTimeoutMs,
      ...(deps.sitemapBounds ? { bounds: deps.sitemapBounds } : {}),
    });
    if (found.robots.state === "unreachable") {
      await failAudit(
        auditId,
        "upstream_failure",
        `${found.robotsTxt.url} could not be read (${found.robotsTxt.error ?? `status ${found.robotsTxt.status}`}); under RFC 9309 a crawler must then assume the whole site is disallowed`,
      );
      return;
    }
    const rules: UrlRules = {
      origin,
      include: stringList.parse(audit.include),
      exclude: stringList.parse(audit.exclude),
    };
    const stored: StoredDiscovery = {
      summary: found.summary,
      robotsTxt: found.robotsTxt,
      llmsTxt: found.llmsTxt,
      aiCatalog: found.aiCatalog,
    };
    await db.audit.updateMany({
      where: { id: auditId, status: "discovering" },
      data: { discovery: stored, startedAt: audit.startedAt ?? new Date() },
    });
    const sitemapped = new Set(found.sitemapUrls);
    const candidates: Candidate[] = [{ url: audit.startUrl, depth: 0, inSitemap: sitemapped.has(audit.startUrl) }];
    for (const url of found.sitemapUrls) {
      if (url !== audit.startUrl && refusalOf(url, rules) === null) candidates.push({ url, depth: 1, inSitemap: true });
    }
    const admitted = await admitPages(db, auditId, candidates);
    await enqueuePages(auditId, audit.mode, admitted);
    // pages admitted by an earlier run of this job (lost before it got here) are queued again by the reaper
    await db.audit.updateMany({ where: { id: auditId, status: "discovering" }, data: { status: "running" } });
    log.info(
      {
        auditId,
        sitemaps: found.summary.sitemaps.length,
        sitemapUrls: found.sitemapUrls.length,
        admitted: admitted.length,
      },
      "audit discovered",
    );
    if (await finishIfDone(db, auditId)) await queueReport(auditId);
  };

  const rulesOf = (audit: {
    id: string;
    startUrl: string;
    include: unknown;
    exclude: unknown;
    discovery?: unknown;
  }) => {
    const cached = rulesCache.get(audit.id);
    if (cached) return cached;
    const origin = new URL(audit.startUrl).origin;
    const discovery = StoredDiscovery.parse(audit.discovery);
    const entry = {
      rules: { origin, include: stringList.parse(audit.include), exclude: stringList.parse(audit.exclude) },
      robots: crawlerRobots(discovery.robotsTxt, origin),
    };
    if (rulesCache.size >= RULES_KEPT) rulesCache.delete(rulesCache.keys().next().value as string);
    rulesCache.set(audit.id, entry);
    return entry;
  };

  /** ends a page that will not be scanned, then lets the audit finish if it was the last */
  const settlePage = async (auditId: string, pageId: string, data: Record<string, unknown>) => {
    await db.auditPage.updateMany({
      where: { id: pageId, status: { in: ["queued", "running"] } },
      data: { ...data, completedAt: new Date() },
    });
    if (await finishIfDone(db, auditId)) await queueReport(auditId);
  };

  const page = async (job: Job, token?: string) => {
    const parsed = AuditPageJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad audit page payload: ${parsed.error.message}`);
    const { auditId, pageId, url, mode } = parsed.data;
    const [audit, row] = await Promise.all([
      // the stored discovery (robots.txt and llms.txt bodies) is read once per audit and process
      db.audit.findUnique({
        where: { id: auditId },
        select: {
          id: true,
          status: true,
          startUrl: true,
          include: true,
          exclude: true,
          discovery: !rulesCache.has(auditId),
        },
      }),
      db.auditPage.findUnique({ where: { id: pageId }, select: { status: true, depth: true } }),
    ]);
    if (!audit || !row) throw new UnrecoverableError(`audit page ${pageId} does not exist`);
    if (row.status !== "queued" && row.status !== "running") {
      // done already (a stalled job run again): the audit may still be waiting for its report
      if (await finishIfDone(db, auditId)) await queueReport(auditId);
      return;
    }
    if (audit.status !== "running" && audit.status !== "discovering") {
      await settlePage(auditId, pageId, { status: "cancelled" });
      return;
    }
    const { rules, robots } = rulesOf(audit);
    if (!robots.allowsCrawler(url)) {
      await settlePage(auditId, pageId, {
        status: "blocked",
        errorMessage: "robots.txt disallows the audit's crawler",
      });
      return;
    }
    // the one address policy, before anything is fetched (the scanner vets every hop again)
    const verdict = await vetTarget(
      new URL(url),
      scanner.policy.allowlist,
      scanner.policy.resolve,
      scanner.policy.ports,
    );
    if (!verdict.allowed) {
      await settlePage(auditId, pageId, { status: "failed", errorMessage: `${url} refused: ${verdict.reason}` });
      return;
    }
    const wait = await hostSlots.acquire(rules.origin, pageId, (robots.crawlDelayS ?? 0) * 1000);
    if (wait > 0) {
      // back to the queue for a while: the host has its share of pages in flight, or a Crawl-delay to run out
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
    try {
      const started = await db.auditPage.updateMany({
        where: { id: pageId, status: { in: ["queued", "running"] } },
        data: { status: "running", startedAt: new Date() },
      });
      if (started.count === 0) return;
      let scanned: Awaited<ReturnType<Scanner["scan"]>>;
      try {
        scanned = await scanner.scan({ url, mode, access: await deps.siteAccess?.(auditId) });
      } catch (error) {
        if (!(error instanceof TargetError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        await settlePage(auditId, pageId, {
          status: "failed",
          httpStatus: error instanceof TargetError ? (error.status ?? null) : null,
          errorMessage: message.slice(0, 1000),
        });
        return;
      }
      const { outcome, snapshot } = scanned;
      const facts = factsOfPage(scanned.page);
      // what the page leads to: its links, its canonical and hreflang alternates (the site checks
      // need their answers), and where it redirected to
      const found = [
        ...facts.links,
        ...(facts.canonical ? [facts.canonical] : []),
        ...facts.hreflang.map((alternate) => alternate.href),
        ...(snapshot.finalUrl !== url ? [normaliseAuditUrl(snapshot.finalUrl)] : []),
      ].filter((link): link is string => link !== null && link !== url && refusalOf(link, rules) === null);
      const candidates = found.map((link) => ({ url: link, depth: row.depth + 1, inSitemap: false }));
      // admitted while the page is still running: the audit cannot look finished while a page
      // it found is yet to be admitted (a run cut short here is run again, and admits nothing twice)
      const admitted = await admitPages(db, auditId, candidates);
      await enqueuePages(auditId, mode, admitted);
      await db.auditPage.updateMany({
        where: { id: pageId, status: "running" },
        data: {
          status: "scanned",
          httpStatus: snapshot.status,
          finalUrl: outcome.finalUrl,
          seo: outcome.scores.seo,
          aeo: outcome.scores.aeo,
          geo: outcome.scores.geo,
          overall: outcome.scores.overall,
          grade: outcome.grade,
          issuesCritical: outcome.issues.critical,
          issuesWarning: outcome.issues.warning,
          issuesInfo: outcome.issues.info,
          checks: outcome.checks,
          facts: PageFacts.parse(facts),
          errorMessage: null,
          completedAt: new Date(),
        },
      });
      if (await finishIfDone(db, auditId)) await queueReport(auditId);
    } finally {
      await hostSlots.release(rules.origin, pageId).catch(() => undefined);
    }
  };

  const report = createAuditReport(deps);

  /**
   * A schedule came due: an audit of the site as the schedule says, unless one of the site's
   * audits is still under way (it is skipped, not queued behind it) or this very firing already
   * started one (a job run twice). A schedule deleted meanwhile removes its scheduler.
   */
  const scheduled = async (job: Job) => {
    const parsed = AuditScheduledPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad schedule payload: ${parsed.error.message}`);
    const { siteId } = parsed.data;
    const schedule = await db.auditSchedule.findUnique({
      where: { siteId },
      include: { site: { select: { url: true } } },
    });
    if (!schedule) {
      await queue.removeJobScheduler(auditSchedulerId(siteId));
      return;
    }
    const firing = `schedule-${job.id ?? job.timestamp}`;
    const audit = await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`audit-schedule:${siteId}`}, 0))`;
      const started = await tx.audit.findFirst({ where: { siteId, requestId: firing }, select: { id: true } });
      if (started) return null;
      const active = await tx.audit.count({
        where: { siteId, status: { in: ["discovering", "running", "finalizing"] } },
      });
      if (active > 0) {
        log.info({ siteId }, "scheduled audit skipped: an audit of the site is under way");
        return null;
      }
      const created = await tx.audit.create({
        data: {
          userId: schedule.userId,
          siteId,
          startUrl: `${schedule.site.url}/`,
          mode: schedule.mode,
          maxPages: schedule.maxPages,
          include: stringList.parse(schedule.include),
          exclude: stringList.parse(schedule.exclude),
          requestId: firing,
        },
      });
      await tx.auditSchedule.update({ where: { siteId }, data: { lastAuditId: created.id, lastRunAt: new Date() } });
      return created;
    });
    if (!audit) return;
    const step = auditStepJob("discover", { auditId: audit.id });
    await queue.add(step.name, step.data, step.opts);
    log.info({ siteId, auditId: audit.id }, "scheduled audit started");
  };

  return async (job: Job, token?: string): Promise<void> => {
    if (job.name === AUDIT_JOBS.discover) return discover(job);
    if (job.name === AUDIT_JOBS.scheduled) return scheduled(job);
    if (job.name === AUDIT_JOBS.page) return page(job, token);
    if (job.name === AUDIT_JOBS.report) {
      const parsed = AuditJobPayload.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`bad audit payload: ${parsed.error.message}`);
      return report(parsed.data.auditId);
    }
    throw new UnrecoverableError(`unknown audit job ${job.name}`);
  };
};
