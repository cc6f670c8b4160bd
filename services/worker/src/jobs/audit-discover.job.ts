import { refusalOf, type UrlRules } from "@scan/audit";
import { AuditJobPayload } from "@scan/queue";
import { audits, type Candidate } from "@scan/records";
import { type Job, UnrecoverableError } from "bullmq";
import type { StoredDiscovery } from "../domain/audit-store";
import { discoverSite } from "../domain/site-discovery";
import { type AuditJobDeps, type AuditSteps, stringList } from "./audit-steps";

/**
 * An audit's first job: robots.txt, llms.txt and the sitemaps read (robots.txt unreachable fails
 * the audit, RFC 9309), the discovery stored, the start page and the sitemaps' URLs admitted
 * and queued, the audit running.
 */
export const createAuditDiscoverJob = (deps: AuditJobDeps, { enqueuePages, reportIfDone }: AuditSteps) => {
  const { db, scanner, log } = deps;
  return async (job: Job): Promise<void> => {
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
      await audits.fail(db, auditId, {
        code: "upstream_failure",
        message: `${found.robotsTxt.url} could not be read (${found.robotsTxt.error ?? `status ${found.robotsTxt.status}`}); under RFC 9309 a crawler must then assume the whole site is disallowed`,
      });
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
    await audits.recordDiscovery(db, auditId, stored, audit.startedAt ?? new Date());
    const sitemapped = new Set(found.sitemapUrls);
    const candidates: Candidate[] = [{ url: audit.startUrl, depth: 0, inSitemap: sitemapped.has(audit.startUrl) }];
    for (const url of found.sitemapUrls) {
      if (url !== audit.startUrl && refusalOf(url, rules) === null) candidates.push({ url, depth: 1, inSitemap: true });
    }
    const admitted = await audits.admitPages(db, auditId, candidates);
    await enqueuePages(auditId, audit.mode, admitted);
    // pages admitted by an earlier run of this job (lost before it got here) are queued again by the reaper
    await audits.markRunning(db, auditId);
    log.info(
      {
        auditId,
        sitemaps: found.summary.sitemaps.length,
        sitemapUrls: found.sitemapUrls.length,
        admitted: admitted.length,
      },
      "audit discovered",
    );
    await reportIfDone(auditId);
  };
};
