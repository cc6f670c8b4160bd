import { crawlerRobots, factsOfPage, normaliseAuditUrl, PageFacts, refusalOf, type UrlRules } from "@scan/audit";
import { vetTarget } from "@scan/platform";
import { AuditPageJobPayload } from "@scan/queue";
import { auditPages, audits } from "@scan/records";
import { type Scanner, TargetError } from "@scan/scanner";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import { StoredDiscovery } from "../domain/audit-store";
import { type AuditJobDeps, type AuditSteps, stringList } from "./audit-steps";

/** the robots rules of recent audits, read once per process rather than once per page */
const RULES_KEPT = 64;

/**
 * One page of an audit: refused when robots.txt disallows it or the address policy does, held
 * back while its host has its share of pages in flight or a Crawl-delay to run out, then
 * scanned; the links, canonical and alternates it leads to are admitted and queued before the
 * page is stored, and the last page to end queues the report.
 */
export const createAuditPageJob = (deps: AuditJobDeps, { enqueuePages, reportIfDone }: AuditSteps) => {
  const { db, scanner, hostSlots } = deps;
  const rulesCache = new Map<string, { rules: UrlRules; robots: ReturnType<typeof crawlerRobots> }>();

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
  const settlePage = async (auditId: string, end: Promise<unknown>) => {
    await end;
    await reportIfDone(auditId);
  };

  return async (job: Job, token?: string): Promise<void> => {
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
      await reportIfDone(auditId);
      return;
    }
    if (audit.status !== "running" && audit.status !== "discovering") {
      await settlePage(auditId, auditPages.cancel(db, pageId));
      return;
    }
    const { rules, robots } = rulesOf(audit);
    if (!robots.allowsCrawler(url)) {
      await settlePage(auditId, auditPages.block(db, pageId, "robots.txt disallows the audit's crawler"));
      return;
    }
    // the one address policy, before anything is fetched (the scanner vets every hop again)
    const verdict = await vetTarget(new URL(url), scanner.policy);
    if (!verdict.allowed) {
      await settlePage(auditId, auditPages.fail(db, pageId, { message: `${url} refused: ${verdict.reason}` }));
      return;
    }
    const wait = await hostSlots.acquire(rules.origin, pageId, (robots.crawlDelayS ?? 0) * 1000);
    if (wait > 0) {
      // back to the queue for a while: the host has its share of pages in flight, or a Crawl-delay to run out
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
    try {
      const started = await auditPages.markRunning(db, pageId);
      if (!started.moved) return;
      let scanned: Awaited<ReturnType<Scanner["scan"]>>;
      try {
        scanned = await scanner.scan({ url, mode, access: await deps.siteAccess?.(auditId) });
      } catch (error) {
        if (!(error instanceof TargetError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        await settlePage(
          auditId,
          auditPages.fail(db, pageId, {
            message,
            httpStatus: error instanceof TargetError ? (error.status ?? null) : null,
          }),
        );
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
      const admitted = await audits.admitPages(db, auditId, candidates);
      await enqueuePages(auditId, mode, admitted);
      await auditPages.complete(db, pageId, { httpStatus: snapshot.status, outcome, facts: PageFacts.parse(facts) });
      await reportIfDone(auditId);
    } finally {
      await hostSlots.release(rules.origin, pageId).catch(() => undefined);
    }
  };
};
