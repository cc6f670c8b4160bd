import { z } from "zod";
import { MAX_AUDIT_PAGES } from "./audit";
import { CheckCategory, CheckEvidence, CheckSeverity, CheckStatus } from "./check-result";
import { Grade } from "./grade";
import { ScanMode } from "./scan";

/**
 * Inputs and outputs of the page tools, served as MCP tools (aeo_scan, aeo_score, aeo_fix,
 * aeo_generate) and, for fix and generate, as REST endpoints with the same shapes. Arguments
 * are strict: a field the tool does not know is refused by name rather than ignored.
 */

const requiredString = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? "is required" : `must be a string (${what})`) });

/** The page to scan: absolute http(s), or a bare host or host/path read as https. */
export const ToolUrl = requiredString("the page's URL").describe(
  "The page to scan: an absolute http(s) URL, or a host or host/path (read as https://).",
);

export const ScanToolInput = z.strictObject({
  url: ToolUrl,
  mode: ScanMode.optional().describe(
    'quick: the 20 core checks (about 10 s); full: all 57 checks (about 25 s). Default "full".',
  ),
});
export type ScanToolInput = z.infer<typeof ScanToolInput>;

export const ScoreToolInput = z.strictObject({ url: ToolUrl });
export type ScoreToolInput = z.infer<typeof ScoreToolInput>;

/** One of the problems aeo_score names: a failing or warning check and how to fix it. */
export const Problem = z.object({
  id: z.string(),
  category: CheckCategory,
  status: CheckStatus,
  severity: CheckSeverity,
  title: z.string(),
  description: z.string(),
  fix: z.string(),
  /** the check's evidence grade (docs/checks.md, "Evidence grades") */
  evidence: CheckEvidence.optional(),
});
export type Problem = z.infer<typeof Problem>;

/** aeo_score's answer: a quick scan's area scores, overall, grade and its three worst problems. */
export const ScoreSummary = z.object({
  /** the stored scan (GET /api/v1/scan/:id) */
  id: z.uuid(),
  url: z.string(),
  finalUrl: z.string().nullable(),
  grade: Grade,
  scores: z.object({
    seo: z.int().min(0).max(100),
    aeo: z.int().min(0).max(100),
    geo: z.int().min(0).max(100),
    overall: z.int().min(0).max(100),
  }),
  /** the worst three failing or warning checks, worst first; fewer when fewer fail */
  topProblems: z.array(Problem).max(3),
  scannedAt: z.iso.datetime(),
});
export type ScoreSummary = z.infer<typeof ScoreSummary>;

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
