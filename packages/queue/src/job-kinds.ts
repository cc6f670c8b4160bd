import type { z } from "zod";
import { AUDIT_JOBS, AuditJobPayload, AuditPageJobPayload, AuditScheduledPayload } from "./audit-jobs";
import { SCAN_JOB, SCAN_QUEUE, ScanJobPayload } from "./scan-job";
import { VISIBILITY_JOBS, VISIBILITY_QUEUE, VisibilitySamplePayload } from "./visibility-jobs";
import {
  ALERT_JOB,
  AlertJobPayload,
  REPORT_MAIL_JOB,
  ReportMailJobPayload,
  WEBHOOK_JOB,
  WEBHOOK_QUEUE,
  WebhookJobPayload,
} from "./webhook-job";

/** One kind of job the worker runs: the queue it waits on, its name there, and its payload's schema. */
export type JobKind = { queue: string; name: string; payload: z.ZodType };

/**
 * Every kind of job the worker takes, one entry each: a processor registry is built from this
 * list, and a job whose queue and name are not in it is not the worker's.
 */
export const JOB_KINDS = [
  { queue: SCAN_QUEUE, name: SCAN_JOB.name, payload: ScanJobPayload },
  { queue: SCAN_QUEUE, name: AUDIT_JOBS.scheduled, payload: AuditScheduledPayload },
  { queue: SCAN_QUEUE, name: AUDIT_JOBS.discover, payload: AuditJobPayload },
  { queue: SCAN_QUEUE, name: AUDIT_JOBS.page, payload: AuditPageJobPayload },
  { queue: SCAN_QUEUE, name: AUDIT_JOBS.report, payload: AuditJobPayload },
  { queue: VISIBILITY_QUEUE, name: VISIBILITY_JOBS.sample, payload: VisibilitySamplePayload },
  { queue: WEBHOOK_QUEUE, name: WEBHOOK_JOB.name, payload: WebhookJobPayload },
  { queue: WEBHOOK_QUEUE, name: ALERT_JOB.name, payload: AlertJobPayload },
  { queue: WEBHOOK_QUEUE, name: REPORT_MAIL_JOB.name, payload: ReportMailJobPayload },
] as const satisfies readonly JobKind[];

export type JobName = (typeof JOB_KINDS)[number]["name"];

/** The kind of a job taken from `queue`, or undefined when no kind of that name runs there. */
export const jobKindOf = (queue: string, name: string): JobKind | undefined =>
  JOB_KINDS.find((kind) => kind.queue === queue && kind.name === name);
