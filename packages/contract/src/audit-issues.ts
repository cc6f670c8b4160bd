import { z } from "zod";
import { AuditStatus } from "./audit";
import { CheckCategory, CheckSeverity } from "./check-result";
import { pageParams, queryEnum, queryFilter } from "./list-query";
import { ScanMode } from "./scan";
import { hasNoNul, NUL_MESSAGE } from "./text";

/**
 * An audit issue by issue (GET /api/v1/audits/:id/issues): every page check and site check that
 * fails or warns, with the pages it does so on, and how it stands against the site's previous
 * completed audit of the same mode.
 */

/** Longest `q` accepted by GET /api/v1/audits/:id/issues/:check/pages. */
export const MAX_ISSUE_QUERY = 200;

/**
 * Against the previous completed audit of the same site and mode: `new` (not failing there),
 * `persisting` (failing there too), `fixed` (failing there, not here).
 */
export const AuditIssueState = z.enum(["new", "persisting", "fixed"]);
export type AuditIssueState = z.infer<typeof AuditIssueState>;

export const AuditIssueScope = z.enum(["page", "site"]);
export type AuditIssueScope = z.infer<typeof AuditIssueScope>;

/** One check that fails or warns in the audit, or (state `fixed`) did in the previous one. */
export const AuditIssue = z.object({
  /** the check's id, as in the catalogue (docs/checks.md) */
  check: z.string(),
  /** `page`: a check run on each page; `site`: a check run once over the whole site */
  scope: AuditIssueScope,
  title: z.string(),
  category: CheckCategory,
  severity: CheckSeverity,
  /**
   * a page check: the judged pages where it fails or warns; a site check: the distinct URLs its
   * findings name (the URL at fault and the pages involved). 0 for a fixed issue.
   */
  pages: z.int().nonnegative(),
  /** `pages` ÷ the judged pages, 0 to 1 (at most 1); null when no page was judged */
  share: z.number().min(0).max(1).nullable(),
  /** a site check's findings, all counted; null for a page check */
  findings: z.int().nonnegative().nullable(),
  /** null when there is no previous completed audit of the same site and mode to compare with */
  state: AuditIssueState.nullable(),
  /** `pages` in the previous audit; null when it was not failing there, or there is none */
  previous_pages: z.int().nonnegative().nullable(),
});
export type AuditIssue = z.infer<typeof AuditIssue>;

/** The issue rollup of an audit: final once the audit has completed, the pages done so far before. */
export const AuditIssues = z.object({
  audit_id: z.uuid(),
  site_id: z.uuid(),
  mode: ScanMode,
  /** the audit's status; the rollup is final only when it is `completed` */
  status: AuditStatus,
  /**
   * true once the audit has completed: every page and the site checks counted. Before, the
   * page checks of the pages scanned so far; site checks run once every page is done.
   */
  complete: z.boolean(),
  /** pages whose checks count: scanned, answered 2xx at their own URL */
  pages_judged: z.int().nonnegative(),
  /** the audit compared with; null when the site has no earlier completed audit of this mode */
  previous_audit_id: z.uuid().nullable(),
  /** the issues the filters keep: most severe first, then most pages; fixed ones last */
  issues: z.array(AuditIssue),
});
export type AuditIssues = z.infer<typeof AuditIssues>;

/** GET /api/v1/audits/:id/issues */
export const AuditIssuesQuery = z.strictObject({
  category: queryFilter(CheckCategory.options),
  severity: queryFilter(CheckSeverity.options),
  state: queryFilter(AuditIssueState.options),
  /** `json` (default): the rollup in the envelope; `csv`: one row per issue the filters keep */
  format: queryEnum(["json", "csv"], "json"),
});
export type AuditIssuesQuery = z.infer<typeof AuditIssuesQuery>;

/** A check id as the catalogue writes them */
export const AuditIssueParams = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
  check: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, "check must be a check id such as meta-description (lower-case, digits, -)"),
});

/** GET /api/v1/audits/:id/issues/:check/pages */
export const AuditIssuePagesQuery = z.strictObject({
  ...pageParams,
  /** case-insensitive substring of the page's URL or its finding, matched literally; blank is no filter */
  q: z
    .string({ error: (issue) => (Array.isArray(issue.input) ? "must be given once" : "must be a string") })
    .trim()
    .max(MAX_ISSUE_QUERY, `must be at most ${MAX_ISSUE_QUERY} characters`)
    .refine(hasNoNul, NUL_MESSAGE)
    .transform((value) => (value === "" ? undefined : value))
    .optional(),
});
export type AuditIssuePagesQuery = z.infer<typeof AuditIssuePagesQuery>;

/** One page an issue is on, with what the check found there. */
export const AuditIssuePage = z.object({
  /** the page (a page check), or the URL at fault (a site check's finding) */
  url: z.string(),
  /** `fail` or `warn`: the check's verdict on the page (a site check's, for its findings) */
  status: z.enum(["fail", "warn"]),
  /** what the check found: its description on that page, or the site check's finding */
  finding: z.string(),
  /** a site check's finding: the pages involved (linking to it, sharing its title...), at most 50; [] for a page check */
  related: z.array(z.string()),
  /** the audit page's id (as in GET /api/v1/audits/:id/pages); null for a site check's finding */
  page_id: z.uuid().nullable(),
});
export type AuditIssuePage = z.infer<typeof AuditIssuePage>;
