import { z } from "zod";
import { CheckResult } from "./check-result";
import { Grade } from "./grade";
import { pageParams, queryEnum } from "./list-query";
import { IssueCounts, ScanMode } from "./scan";
import { AuditScores, SiteReport } from "./site-report";
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
  /**
   * why the crawl admitted no more of the pages it found, once a limit left one out: its own
   * `max_pages`, or its client's audit pages this month (`client_page_quota`); null while none did
   */
  crawl_limit: z.object({ reason: z.enum(["max_pages", "client_page_quota"]), message: z.string() }).nullable(),
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
export const AuditReportFormat = z.enum(["json", "csv", "sarif", "junit", "pdf"], {
  error: "format must be json, csv, sarif, junit or pdf",
});
export type AuditReportFormat = z.infer<typeof AuditReportFormat>;

/** GET /api/v1/audits/:id/report */
export const AuditReportQuery = z.strictObject({
  format: AuditReportFormat.optional(),
});
export type AuditReportQuery = z.infer<typeof AuditReportQuery>;
