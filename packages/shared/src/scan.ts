import { z } from "zod";
import { CheckResult } from "./check-result";
import { Grade } from "./grade";
import { ScanMode } from "./jobs";

/** POST /api/v1/scan body (spec 4.1). `url` is normalised per form after this parse. */
export const ScanRequest = z.strictObject({
  url: z.string({ error: "url is required and must be a string" }),
  mode: ScanMode.default("full"),
});
export type ScanRequest = z.infer<typeof ScanRequest>;

export const ScanStatus = z.enum(["queued", "running", "completed", "failed"]);
export type ScanStatus = z.infer<typeof ScanStatus>;

export const AreaScores = z.object({
  seo: z.int().min(0).max(100),
  aeo: z.int().min(0).max(100),
  geo: z.int().min(0).max(100),
  overall: z.int().min(0).max(100),
  /** Form B's name for overall; always present so one shape serves both forms */
  total: z.int().min(0).max(100),
});
export type AreaScores = z.infer<typeof AreaScores>;

export const IssueCounts = z.object({ critical: z.int(), warning: z.int(), info: z.int() });

/** The scan result answered by POST /api/v1/scan (spec 2.2), the same in both forms. */
export const ScanResult = z.object({
  id: z.uuid(),
  url: z.string(),
  finalUrl: z.string().nullable(),
  mode: ScanMode,
  status: z.literal("completed"),
  grade: Grade,
  scores: AreaScores,
  /** quick scans run 20 of the 53 checks: their scores are not comparable with a full scan's */
  partial: z.boolean(),
  issues: IssueCounts,
  checks: z.array(CheckResult),
  scannedAt: z.iso.datetime(),
  /** elapsed scan time in milliseconds, from queueing to stored result */
  duration: z.int().nonnegative(),
});
export type ScanResult = z.infer<typeof ScanResult>;

/** What the worker stores when a scan completes; validated before it is written. */
export const ScanOutcome = z.object({
  finalUrl: z.string(),
  scores: AreaScores,
  grade: Grade,
  issues: IssueCounts,
  checks: z.array(CheckResult),
});
export type ScanOutcome = z.infer<typeof ScanOutcome>;

/** GET /api/v1/scan/:id (spec 2.3), plus fields a caller needs to act on the status. */
export const StoredScan = z.object({
  id: z.uuid(),
  url: z.string(),
  final_url: z.string().nullable(),
  mode: ScanMode,
  status: ScanStatus,
  /** null until the scan has completed */
  scores: AreaScores.nullable(),
  grade: Grade.nullable(),
  partial: z.boolean(),
  issues: IssueCounts,
  /** null until the scan has finished */
  duration_ms: z.int().nonnegative().nullable(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  /** why a failed scan failed */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checks: z.array(CheckResult).nullable(),
});
export type StoredScan = z.infer<typeof StoredScan>;

export const ScanIdParam = z.object({ id: z.uuid({ error: "id must be a UUID" }) });
