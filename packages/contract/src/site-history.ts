import { z } from "zod";
import { Grade } from "./grade";
import { pageParams, queryEnum } from "./list-query";
import { IssueCounts, ScanMode } from "./scan";
import { AuditScores } from "./site-report";

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
