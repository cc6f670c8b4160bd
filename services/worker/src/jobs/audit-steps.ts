import type { SitemapBounds } from "@scan/audit";
import type { Db } from "@scan/db";
import { type AlertJobPayload, auditPageJob, auditStepJob, type ReportMailJobPayload } from "@scan/queue";
import { type AdmittedPage, audits } from "@scan/records";
import type { Scanner, SiteAccess } from "@scan/scanner";
import type { Queue } from "bullmq";
import type { Logger } from "pino";
import { z } from "zod";
import type { HostSlots } from "../domain/host-slots";

/**
 * The jobs of an audit, on the scan queue beside interactive scans (below them in priority):
 * the scheduled start, discovery, one job per page, and the report, each in a file of its own
 * (audit-*.job.ts); this module holds what they share. The rows in Postgres are the truth: a page is
 * admitted once per audit and URL, moves queued → running → scanned | failed | blocked by
 * conditional updates, and is counted from its row, so a job run twice (a stalled job handed
 * to another worker, a job queued again after Redis lost it) stores and counts nothing twice.
 */
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
  /** queues the mail of a scheduled audit's client report (its job id is the audit's: queued once) */
  enqueueReportMail: (payload: ReportMailJobPayload) => Promise<void>;
  /** the audited site's credentials when it is behind a login (sent to its own origin only) */
  siteAccess?: (auditId: string) => Promise<SiteAccess | undefined>;
  log: Logger;
};

export const stringList = z.array(z.string());

export type AuditSteps = {
  /** queues one page job per admitted page */
  enqueuePages: (auditId: string, mode: "quick" | "full", pages: readonly AdmittedPage[]) => Promise<void>;
  /** the audit's report is queued (once: its job id is the audit's) when no page is left to scan */
  reportIfDone: (auditId: string) => Promise<void>;
};

/** What the audit's jobs share: queueing pages and the report. */
export const createAuditSteps = ({ queue, db }: Pick<AuditJobDeps, "queue" | "db">): AuditSteps => {
  const enqueuePages = async (auditId: string, mode: "quick" | "full", pages: readonly AdmittedPage[]) => {
    if (pages.length === 0) return;
    await queue.addBulk(pages.map((page) => auditPageJob({ auditId, pageId: page.id, url: page.url, mode })));
  };

  const queueReport = async (auditId: string) => {
    const job = auditStepJob("report", { auditId });
    await queue.add(job.name, job.data, job.opts);
  };

  const reportIfDone = async (auditId: string) => {
    if (await audits.finishIfDone(db, auditId)) await queueReport(auditId);
  };
  return { enqueuePages, reportIfDone };
};
