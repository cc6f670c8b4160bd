import type { Scan } from "@scan/db/client";
import { CheckResult } from "@scan/shared/check-result";
import { Grade } from "@scan/shared/grade";
import type { ScanResult, StoredScan } from "@scan/shared/scan";
import { z } from "zod";

const StoredChecks = z.array(CheckResult);

const scoresOf = (scan: Scan) =>
  scan.seo === null || scan.aeo === null || scan.geo === null || scan.overall === null
    ? null
    : { seo: scan.seo, aeo: scan.aeo, geo: scan.geo, overall: scan.overall, total: scan.overall };

const checksOf = (scan: Scan) => (scan.checks === null ? null : StoredChecks.parse(scan.checks));

/** A completed scan as POST /api/v1/scan answers it (spec 2.2). */
export const toScanResult = (scan: Scan): ScanResult => {
  const scores = scoresOf(scan);
  const checks = checksOf(scan);
  if (scan.status !== "completed" || !scores || !checks || !scan.completedAt) {
    throw new Error(`scan ${scan.id} is ${scan.status}, not a completed result`);
  }
  return {
    id: scan.id,
    url: scan.url,
    finalUrl: scan.finalUrl,
    mode: scan.mode,
    status: "completed",
    grade: Grade.parse(scan.grade),
    scores,
    partial: scan.mode === "quick",
    issues: { critical: scan.issuesCritical, warning: scan.issuesWarning, info: scan.issuesInfo },
    checks,
    scannedAt: scan.completedAt.toISOString(),
    duration: scan.durationMs ?? 0,
  };
};

/** Any stored scan, as GET /api/v1/scan/:id answers it (spec 2.3). */
export const toStoredScan = (scan: Scan): StoredScan => ({
  id: scan.id,
  url: scan.url,
  final_url: scan.finalUrl,
  mode: scan.mode,
  status: scan.status,
  scores: scoresOf(scan),
  grade: scan.grade === null ? null : Grade.parse(scan.grade),
  partial: scan.mode === "quick",
  issues: { critical: scan.issuesCritical, warning: scan.issuesWarning, info: scan.issuesInfo },
  duration_ms: scan.durationMs,
  created_at: scan.createdAt.toISOString(),
  completed_at: scan.completedAt?.toISOString() ?? null,
  error:
    scan.status === "failed"
      ? { code: scan.errorCode ?? "internal_error", message: scan.errorMessage ?? "The scan failed" }
      : null,
  checks: checksOf(scan),
});
