import { z } from "zod";
import { CheckCategory, CheckResult, CheckSeverity } from "./check-result";
import { Grade } from "./grade";
import { AUDIT_PAGE_PRIORITY, INTERACTIVE_PRIORITY_CEILING, ScanMode } from "./jobs";
import { pageParams, queryEnum } from "./list-query";
import { IssueCounts } from "./scan";
import { SiteView } from "./site";
import { hasNoNul, NUL_MESSAGE } from "./text";

/** The most pages any audit may ask for, whatever the plan (the plan's ceiling is usually lower). */
export const MAX_AUDIT_PAGES = 10_000;
/** include and exclude patterns per audit, each */
export const MAX_AUDIT_PATTERNS = 20;
export const MAX_AUDIT_PATTERN_LENGTH = 200;

/**
 * A robots.txt-style path pattern (RFC 9309 section 2.2.3): matched against the path and query
 * from its start, `*` any run of characters, a closing `$` the end of the URL.
 */
export const AuditPattern = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(MAX_AUDIT_PATTERN_LENGTH, `must be at most ${MAX_AUDIT_PATTERN_LENGTH} characters`)
  .regex(/^[/*]/, 'must start with "/" or "*" (a path pattern such as /blog/*)')
  .refine(hasNoNul, NUL_MESSAGE);

const patternList = z
  .array(AuditPattern, { error: "must be an array of path patterns" })
  .max(MAX_AUDIT_PATTERNS, `must hold at most ${MAX_AUDIT_PATTERNS} patterns`);

/** POST /api/v1/sites/:id/audits */
export const CreateAuditRequest = z.strictObject({
  /** each page's scan: `quick` (20 checks) or `full` (53); only a full audit sets the site's latest scores */
  mode: ScanMode.default("full").meta({ description: "`quick` or `full` (default)" }),
  /** at most this many pages; default and ceiling: the plan's */
  max_pages: z
    .int({ error: `must be an integer from 1 to ${MAX_AUDIT_PAGES}` })
    .min(1, `must be an integer from 1 to ${MAX_AUDIT_PAGES}`)
    .max(MAX_AUDIT_PAGES, `must be an integer from 1 to ${MAX_AUDIT_PAGES}`)
    .optional(),
  /** when given, only URLs whose path matches one of these are audited (the start page always is) */
  include: patternList.default([]),
  /** URLs whose path matches one of these are never audited; exclude wins over include */
  exclude: patternList.default([]),
});
export type CreateAuditRequest = z.infer<typeof CreateAuditRequest>;

export const AuditIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

export const AuditStatus = z.enum(["discovering", "running", "finalizing", "completed", "failed", "cancelled"]);
export type AuditStatus = z.infer<typeof AuditStatus>;
/** statuses from which an audit does not move */
export const FINISHED_AUDIT_STATUSES: readonly AuditStatus[] = ["completed", "failed", "cancelled"];

export const AuditPageStatus = z.enum(["queued", "running", "scanned", "failed", "blocked", "cancelled"]);
export type AuditPageStatus = z.infer<typeof AuditPageStatus>;

/** How far an audit has come, counted from its page rows. */
export const AuditProgress = z.object({
  /** pages admitted to the audit (never more than max_pages) */
  discovered: z.int().nonnegative(),
  /** waiting for a worker */
  queued: z.int().nonnegative(),
  /** being scanned now */
  running: z.int().nonnegative(),
  /** scanned and judged (a 4xx answer included) */
  scanned: z.int().nonnegative(),
  /** no answer, a 5xx answer, or the scan broke */
  failed: z.int().nonnegative(),
  /** not fetched: robots.txt disallows the audit's crawler */
  blocked: z.int().nonnegative(),
  /** not scanned because the audit was cancelled first */
  cancelled: z.int().nonnegative(),
});
export type AuditProgress = z.infer<typeof AuditProgress>;

export const AuditScores = z.object({
  seo: z.int().min(0).max(100),
  aeo: z.int().min(0).max(100),
  geo: z.int().min(0).max(100),
  overall: z.int().min(0).max(100),
  total: z.int().min(0).max(100),
});

/** One thing a site check found: a URL, what is wrong with it, and the pages involved. */
export const SiteFinding = z.object({
  url: z.string(),
  detail: z.string(),
  /** the pages involved (the pages linking to a broken URL, the pages sharing a title...), at most 50 */
  pages: z.array(z.string()),
});
export type SiteFinding = z.infer<typeof SiteFinding>;

/** A site check's verdict: a check result as the catalogue defines it, with its findings. */
export const SiteCheckResult = CheckResult.extend({
  /** the findings, at most 100; `findings_total` counts them all */
  findings: z.array(SiteFinding),
  findings_total: z.int().nonnegative(),
});
export type SiteCheckResult = z.infer<typeof SiteCheckResult>;

/** One page check across the audit's judged pages. */
export const PageCheckSummary = z.object({
  id: z.string(),
  category: CheckCategory,
  severity: CheckSeverity,
  title: z.string(),
  /** pages where it ran (skipped pages aside) */
  pages: z.int().nonnegative(),
  pass: z.int().nonnegative(),
  warn: z.int().nonnegative(),
  fail: z.int().nonnegative(),
  skip: z.int().nonnegative(),
  /** pass ÷ pages, 0 to 1; null when it ran nowhere */
  pass_rate: z.number().min(0).max(1).nullable(),
});
export type PageCheckSummary = z.infer<typeof PageCheckSummary>;

export const WorstPage = z.object({
  url: z.string(),
  overall: z.int().min(0).max(100),
  grade: Grade,
  issues: IssueCounts,
  /** ids of the checks that failed on it */
  failing: z.array(z.string()),
});
export type WorstPage = z.infer<typeof WorstPage>;

/** A sitemap file discovery read. */
export const SitemapRead = z.object({
  url: z.string(),
  /** the HTTP status; 0 when nothing answered or the address was refused */
  status: z.int(),
  kind: z.enum(["urlset", "sitemapindex", "invalid", "unreachable"]),
  /** page URLs it listed */
  urls: z.int().nonnegative(),
  gzip: z.boolean(),
  error: z.string().nullable(),
});
export type SitemapRead = z.infer<typeof SitemapRead>;

/** What discovery found before the pages were scanned. */
export const AuditDiscovery = z.object({
  robots_txt: z.object({ url: z.string(), status: z.int(), crawl_delay_s: z.number().nonnegative().nullable() }),
  sitemaps: z.array(SitemapRead),
  /** distinct page URLs the sitemaps listed on the site's origin */
  sitemap_urls: z.int().nonnegative(),
  /** listed URLs left out: another origin */
  sitemap_urls_elsewhere: z.int().nonnegative(),
  /** a bound (files, bytes or URLs) stopped the reading early */
  truncated: z.boolean(),
  llms_txt: z.object({ url: z.string(), status: z.int() }).nullable(),
});
export type AuditDiscovery = z.infer<typeof AuditDiscovery>;

/** The site report of a completed audit. */
export const SiteReport = z.object({
  /** true for a quick audit: its scores are partial, never compared with a full audit's */
  partial: z.boolean(),
  scores: AuditScores,
  grade: Grade,
  issues: IssueCounts,
  /** pages whose checks count in the scores: answered 2xx without a redirect */
  pages_judged: z.int().nonnegative(),
  site_checks: z.array(SiteCheckResult),
  page_checks: z.array(PageCheckSummary),
  /** the lowest-scoring judged pages, at most 10 */
  worst_pages: z.array(WorstPage),
  discovery: AuditDiscovery.nullable(),
});
export type SiteReport = z.infer<typeof SiteReport>;

/** An audit as the API shows it. */
export const AuditView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  /** where the crawl started */
  url: z.string(),
  mode: ScanMode,
  status: AuditStatus,
  max_pages: z.int().positive(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  progress: AuditProgress,
  /** the site scores once completed, else null */
  scores: AuditScores.nullable(),
  grade: Grade.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  completed_at: z.iso.datetime().nullable(),
  /** the site report once completed (GET /api/v1/audits/:id), else null */
  report: SiteReport.nullable(),
});
export type AuditView = z.infer<typeof AuditView>;

/** One page of an audit. */
export const AuditPageView = z.object({
  id: z.uuid(),
  url: z.string(),
  depth: z.int().nonnegative(),
  in_sitemap: z.boolean(),
  status: AuditPageStatus,
  http_status: z.int().nullable(),
  final_url: z.string().nullable(),
  /** its checks count in the site report: scanned, and answered 2xx at its own URL (no redirect) */
  judged: z.boolean(),
  scores: AuditScores.nullable(),
  grade: Grade.nullable(),
  issues: IssueCounts,
  checks: z.array(CheckResult).nullable(),
  error: z.string().nullable(),
  scanned_at: z.iso.datetime().nullable(),
});
export type AuditPageView = z.infer<typeof AuditPageView>;

/** GET /api/v1/audits/:id/pages */
export const AuditPageListQuery = z.strictObject({
  ...pageParams,
  /** `json` (default): the envelope's page; `csv`: one row per page, the whole audit */
  format: queryEnum(["json", "csv"], "json"),
});
export type AuditPageListQuery = z.infer<typeof AuditPageListQuery>;

/**
 * What GET /api/v1/audits/:id/report answers in: the report as JSON, or a file (docs/audits.md,
 * Exports). `?format=` names one outright; without it, `Accept` chooses, as for a stored scan.
 */
export const AuditReportFormat = z.enum(["json", "csv", "sarif", "junit"], {
  error: "format must be json, csv, sarif or junit",
});
export type AuditReportFormat = z.infer<typeof AuditReportFormat>;

/** GET /api/v1/audits/:id/report */
export const AuditReportQuery = z.strictObject({
  format: AuditReportFormat.optional(),
});
export type AuditReportQuery = z.infer<typeof AuditReportQuery>;

// the queue ---------------------------------------------------------------------------------

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

const auditJobOptions = (jobId: string, priority: number) => ({
  jobId,
  priority,
  attempts: AUDIT_JOB.attempts,
  backoff: { type: "fixed", delay: AUDIT_JOB.backoffMs },
  removeOnComplete: AUDIT_JOB.keepCompleted,
  removeOnFail: AUDIT_JOB.keepFailed,
});

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
    opts: {
      priority: INTERACTIVE_PRIORITY_CEILING,
      attempts: AUDIT_JOB.attempts,
      backoff: { type: "fixed", delay: AUDIT_JOB.backoffMs },
      removeOnComplete: AUDIT_JOB.keepCompleted,
      removeOnFail: AUDIT_JOB.keepFailed,
    },
  },
});

// history ----------------------------------------------------------------------------------------

/** GET /api/v1/sites/:id/history */
export const SiteHistoryQuery = z.strictObject({
  ...pageParams,
  /** `scan`: single-page scans of the site; `audit`: its completed audits; `all` (default): both */
  kind: queryEnum(["all", "scan", "audit"], "all"),
});
export type SiteHistoryQuery = z.infer<typeof SiteHistoryQuery>;

/** One point of a site's history: a completed scan of one of its pages, or a completed audit. */
export const SiteHistoryEntry = z.object({
  kind: z.enum(["scan", "audit"]),
  id: z.uuid(),
  /** the scanned page, or the audit's start page */
  url: z.string(),
  mode: ScanMode,
  /** a quick scan's or quick audit's scores are partial: never compared as equals with a full one's */
  partial: z.boolean(),
  scores: AuditScores,
  grade: Grade,
  issues: IssueCounts,
  /** pages an audit judged; 1 for a scan */
  pages: z.int().nonnegative(),
  completed_at: z.iso.datetime(),
});
export type SiteHistoryEntry = z.infer<typeof SiteHistoryEntry>;

// regression alerts --------------------------------------------------------------------------------

/** Why an audit counts as a regression against the site's previous audit of the same mode. */
export const RegressionReason = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("score_drop"), points: z.int().positive(), before: z.int(), after: z.int() }),
  z.object({ kind: z.literal("grade_lower"), before: Grade, after: Grade }),
  z.object({
    kind: z.literal("check_failing"),
    /** a site check, or a page check that passed on every page before */
    scope: z.enum(["site", "page"]),
    check: z.string(),
    title: z.string(),
    /** the pages it fails on now (at most 50) */
    pages: z.array(z.string()),
  }),
]);
export type RegressionReason = z.infer<typeof RegressionReason>;

/** The body POSTed to a schedule's alert_url: the same bytes on every attempt. */
export const RegressionAlert = z.object({
  event: z.literal("site.regressed"),
  alert_id: z.uuid(),
  site_id: z.uuid(),
  site_url: z.string(),
  audit_id: z.uuid(),
  previous_audit_id: z.uuid(),
  mode: ScanMode,
  scores: z.object({ before: AuditScores, after: AuditScores }),
  grade: z.object({ before: Grade, after: Grade }),
  reasons: z.array(RegressionReason).min(1),
  detected_at: z.iso.datetime(),
});
export type RegressionAlert = z.infer<typeof RegressionAlert>;

export const AlertDeliveryState = z.enum(["pending", "delivered", "failed"]);
export type AlertDeliveryState = z.infer<typeof AlertDeliveryState>;

/** How an alert reaches people: a signed webhook, a mail, or a Slack message. */
export const AlertChannel = z.enum(["webhook", "email", "slack"]);
export type AlertChannel = z.infer<typeof AlertChannel>;

/**
 * A secret URL as it may be shown (a Slack webhook's path is its token): the scheme, host and
 * port, then the path's last 4 characters. Showing the same URL twice gives the same mask.
 */
export const maskSecretUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    const rest = `${parsed.pathname}${parsed.search}`;
    return `${parsed.origin}/…${rest.length > 12 ? rest.slice(-4) : ""}`;
  } catch {
    return "…";
  }
};

/**
 * A stored regression alert as GET /api/v1/sites/:id/alerts shows it: what the webhook said and
 * how its delivery went. Where it was sent is shown as an origin only: an alert URL's path or
 * query may hold the receiver's token.
 */
export const AuditAlertView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  /** the audit that regressed */
  audit_id: z.uuid(),
  /** the site's previous completed audit of the same mode, compared against */
  previous_audit_id: z.uuid(),
  mode: ScanMode,
  scores: z.object({ before: AuditScores, after: AuditScores }),
  grade: z.object({ before: Grade, after: Grade }),
  reasons: z.array(RegressionReason).min(1),
  created_at: z.iso.datetime(),
  delivery: z.object({
    /** how it was sent: `webhook` (signed POST), `email` or `slack` */
    channel: AlertChannel,
    /** where it was sent, as it may be shown: the webhook's origin, the mail's addresses, the Slack URL masked */
    to: z.string(),
    /** `pending` until a 2xx (`delivered`) or the last attempt failed (`failed`) */
    state: AlertDeliveryState,
    /** sends tried so far */
    attempts: z.int().nonnegative(),
    /** why the last attempt failed (`HTTP 500`, `could not connect (ECONNREFUSED)`, ...); null after a success */
    last_error: z.string().nullable(),
    delivered_at: z.iso.datetime().nullable(),
    /** the scheme, host and port the alert was sent to (empty for a mail) */
    origin: z.string(),
  }),
});
export type AuditAlertView = z.infer<typeof AuditAlertView>;

/** The delivery job of an alert, on the webhook queue: its id is the alert's, so it is queued once. */
export const ALERT_JOB = { name: "deliver-alert" } as const;
export const AlertJobPayload = z.object({
  alertId: z.uuid(),
  /** attempts made before this job (it was queued again from the alert's row after the queue lost it) */
  attemptsBefore: z.int().nonnegative().optional(),
});
export type AlertJobPayload = z.infer<typeof AlertJobPayload>;
export const alertJobId = (alertId: string) => `alert-${alertId}`;

// the tool server ------------------------------------------------------------------------------------

/** aeo_audit_site: start an audit of a site (`url`), or read one (`audit_id`) */
export const AuditToolInput = z.strictObject({
  url: z
    .string({ error: "must be a string" })
    .optional()
    .describe(
      "Starts an audit of this URL's site (its origin): an absolute http(s) URL, or a host (read as https://).",
    ),
  audit_id: z
    .uuid({ error: "must be a UUID" })
    .optional()
    .describe("Reads this audit: its progress, and its report once done."),
  mode: ScanMode.optional().describe('With url: "quick" (20 checks a page) or "full" (53, the default).'),
  max_pages: z
    .int({ error: `must be an integer from 1 to ${MAX_AUDIT_PAGES}` })
    .min(1, `must be an integer from 1 to ${MAX_AUDIT_PAGES}`)
    .max(MAX_AUDIT_PAGES, `must be an integer from 1 to ${MAX_AUDIT_PAGES}`)
    .optional()
    .describe("With url: at most this many pages (default and ceiling: the plan's)."),
});
export type AuditToolInput = z.infer<typeof AuditToolInput>;
