import { z } from "zod";
import { CheckCategory, CheckEvidence, CheckResult, CheckSeverity } from "./check-result";
import { Grade } from "./grade";
import { IssueCounts } from "./scan";

/** The site report of a completed audit (GET /api/v1/audits/:id/report) and what it is made of. */

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
  /** the check's evidence grade (docs/checks.md, "Evidence grades") */
  evidence: CheckEvidence.optional(),
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
