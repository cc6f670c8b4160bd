import { z } from "zod";
import { CreateAuditRequest } from "./audit";
import { ScanMode } from "./scan";
import { SiteView } from "./site";

export const AuditFrequency = z.enum(["daily", "weekly"]);
export type AuditFrequency = z.infer<typeof AuditFrequency>;

/** POST /api/v1/sites/:id/schedule: the audit to run, and how often */
export const AuditScheduleRequest = CreateAuditRequest.extend({
  frequency: AuditFrequency.meta({ description: "`daily` or `weekly`" }),
  /** receives a signed POST when an audit of the site is worse than the one before (vetted like a callback_url) */
  alert_url: z.string({ error: "must be a string" }).max(2048, "must be at most 2,048 characters").optional(),
  /** addresses mailed when an audit of the site is worse than the one before (the operator's SMTP server) */
  alert_emails: z
    .array(z.email({ error: "must be an e-mail address such as seo@agency.example" }), {
      error: "must be a list of e-mail addresses",
    })
    .max(10, "must hold at most 10 addresses")
    .default([]),
  /**
   * addresses mailed the client report (the audit's PDF, in the workspace's name and logo) each
   * time an audit the schedule started completes, whether or not it regressed
   */
  report_emails: z
    .array(z.email({ error: "must be an e-mail address such as client@example.com" }), {
      error: "must be a list of e-mail addresses",
    })
    .max(10, "must hold at most 10 addresses")
    .default([]),
  /**
   * a Slack incoming-webhook URL posted to when an audit of the site is worse than the one before;
   * the masked value a schedule shows keeps the stored URL
   */
  alert_slack_url: z.string({ error: "must be a string" }).max(2048, "must be at most 2,048 characters").optional(),
  /** the overall score's fall, in points, that counts as a regression */
  alert_drop: z
    .int({ error: "must be an integer from 1 to 100" })
    .min(1, "must be an integer from 1 to 100")
    .max(100, "must be an integer from 1 to 100")
    .default(5),
});
export type AuditScheduleRequest = z.infer<typeof AuditScheduleRequest>;

export const AuditScheduleView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  frequency: AuditFrequency,
  mode: ScanMode,
  max_pages: z.int().positive(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  alert_url: z.string().nullable(),
  alert_emails: z.array(z.string()),
  /** addresses mailed the client report (PDF) of each audit the schedule starts */
  report_emails: z.array(z.string()),
  /** the Slack webhook URL, masked (it is a secret): its origin and the last 4 characters */
  alert_slack_url: z.string().nullable(),
  alert_drop: z.int(),
  /** the cron pattern (UTC) the queue runs it on: a time of day, and for weekly a weekday, fixed per site */
  pattern: z.string(),
  /** when it runs next, as the queue has it; null when the queue does not have it at this moment */
  next_run_at: z.iso.datetime().nullable(),
  last_audit_id: z.uuid().nullable(),
  last_run_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type AuditScheduleView = z.infer<typeof AuditScheduleView>;

/**
 * GET /api/v1/sites/:id: the site with its audit schedule, null when it has none, so that a page
 * about one site learns both in one read and a site without a schedule is not an error.
 */
export const SiteDetail = SiteView.extend({ schedule: AuditScheduleView.nullable() });
export type SiteDetail = z.infer<typeof SiteDetail>;
