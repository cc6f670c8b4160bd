import { type AuditFrequency, ScanMode } from "@scan/contract";
import { z } from "zod";
import { AUDIT_PAGE_PRIORITY, INTERACTIVE_PRIORITY_CEILING } from "./priority";

/** The jobs of an audit, on the scan queue (so they share its workers and its priorities). */
export const AUDIT_JOBS = {
  /** a site's schedule came due: start an audit */
  scheduled: "audit-scheduled",
  /** robots.txt, sitemaps and llms.txt read; the first pages admitted */
  discover: "audit-discover",
  /** one page scanned and its links admitted */
  page: "audit-page",
  /** the site checks and the report, once no page is left */
  report: "audit-report",
} as const;

export const AUDIT_JOB = {
  attempts: 2,
  backoffMs: 500,
  keepCompleted: { age: 3600, count: 5000 },
  keepFailed: { age: 24 * 3600, count: 5000 },
  /** as for scans: a page or step whose job keeps getting lost is failed rather than tried for ever */
  maxRequeues: 3,
} as const;

export const AuditJobPayload = z.object({ auditId: z.uuid(), requestId: z.string().max(200).optional() });
export type AuditJobPayload = z.infer<typeof AuditJobPayload>;

export const AuditPageJobPayload = z.object({ auditId: z.uuid(), pageId: z.uuid(), url: z.url(), mode: ScanMode });
export type AuditPageJobPayload = z.infer<typeof AuditPageJobPayload>;

/** attempts, backoff and retention of every audit job, the scheduled one's template included */
const auditJobRetries = () => ({
  attempts: AUDIT_JOB.attempts,
  backoff: { type: "fixed", delay: AUDIT_JOB.backoffMs },
  removeOnComplete: AUDIT_JOB.keepCompleted,
  removeOnFail: AUDIT_JOB.keepFailed,
});

const auditJobOptions = (jobId: string, priority: number) => ({ jobId, priority, ...auditJobRetries() });

/** The id of an audit's discovery or report job (BullMQ ids may not hold `:`). */
export const auditStepJobId = (step: "discover" | "report", auditId: string) => `audit-${step}-${auditId}`;

/** An audit's discovery or report job: ahead of its pages (they wait for it), behind interactive scans. */
export const auditStepJob = (step: "discover" | "report", payload: AuditJobPayload) => ({
  name: AUDIT_JOBS[step],
  data: payload,
  opts: auditJobOptions(auditStepJobId(step, payload.auditId), INTERACTIVE_PRIORITY_CEILING),
});

/** A page's job: its id is the page row's, so a page is queued once however often it is found. */
export const auditPageJob = (payload: AuditPageJobPayload) => ({
  name: AUDIT_JOBS.page,
  data: payload,
  opts: auditJobOptions(payload.pageId, AUDIT_PAGE_PRIORITY),
});

// schedules ------------------------------------------------------------------------------------

export const AuditScheduledPayload = z.object({ siteId: z.uuid() });
export type AuditScheduledPayload = z.infer<typeof AuditScheduledPayload>;

/** The job scheduler of a site's schedule: one per site, so upserting it again replaces it. */
export const auditSchedulerId = (siteId: string) => `audit-schedule-${siteId}`;

/**
 * The cron pattern of a schedule: its minute, hour (and weekday) come from the site's id, so a
 * site keeps its time from one run to the next and many sites' audits spread over the day
 * rather than all starting at midnight.
 */
export const schedulePattern = (siteId: string, frequency: AuditFrequency): string => {
  let hash = 0;
  for (const char of siteId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const minute = hash % 60;
  const hour = Math.floor(hash / 60) % 24;
  const weekday = Math.floor(hash / 1440) % 7;
  return frequency === "daily" ? `${minute} ${hour} * * *` : `${minute} ${hour} * * ${weekday}`;
};

/** What the queue is given for a schedule: the scheduler id, its repeat rule and the job it makes. */
export const auditScheduler = (schedule: { siteId: string; frequency: AuditFrequency }) => ({
  id: auditSchedulerId(schedule.siteId),
  repeat: { pattern: schedulePattern(schedule.siteId, schedule.frequency), tz: "UTC" },
  template: {
    name: AUDIT_JOBS.scheduled,
    data: { siteId: schedule.siteId } satisfies AuditScheduledPayload,
    opts: { priority: INTERACTIVE_PRIORITY_CEILING, ...auditJobRetries() },
  },
});
