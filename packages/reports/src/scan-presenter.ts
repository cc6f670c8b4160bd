import {
  type CallbackAttempt,
  type CallbackDelivery,
  type CallbackState,
  CheckResult,
  Grade,
  renderFailureOf,
  type ScanMode,
  type ScanResult,
  type ScanStatus,
  type StoredScan,
} from "@scan/contract";
import { z } from "zod";

/**
 * A stored scan row as the presenters need it. The Prisma model satisfies it structurally, so
 * the gateway (answers) and the worker (callback bodies) render one scan the same way.
 */
export type ScanRecord = {
  id: string;
  url: string;
  finalUrl: string | null;
  mode: ScanMode;
  status: ScanStatus;
  seo: number | null;
  aeo: number | null;
  geo: number | null;
  overall: number | null;
  grade: string | null;
  issuesCritical: number;
  issuesWarning: number;
  issuesInfo: number;
  checks: unknown;
  /** when retention dropped the check list; absent or null while the scan keeps it */
  checksPrunedAt?: Date | null;
  /** null until the scan has completed */
  rendered: boolean | null;
  /** a RenderFailureCode when a render was attempted and failed; absent or null otherwise */
  renderFailure?: string | null;
  durationMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  completedAt: Date | null;
};

export type DeliveryRecord = {
  attempt: number;
  createdAt: Date;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: Date | null;
};

const StoredChecks = z.array(CheckResult);

const scoresOf = (scan: ScanRecord) =>
  scan.seo === null || scan.aeo === null || scan.geo === null || scan.overall === null
    ? null
    : { seo: scan.seo, aeo: scan.aeo, geo: scan.geo, overall: scan.overall, total: scan.overall };

const checksOf = (scan: ScanRecord) =>
  scan.checks === null || scan.checks === undefined ? null : StoredChecks.parse(scan.checks);

/** A completed scan as POST /api/v1/scan answers it (docs/spec/public-scanning-api.md §2.2). */
export const toScanResult = (scan: ScanRecord): ScanResult => {
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
    rendered: scan.rendered ?? true,
    renderFailure: renderFailureOf(scan.renderFailure),
    scannedAt: scan.completedAt.toISOString(),
    duration: scan.durationMs ?? 0,
  };
};

/** Any stored scan, as GET /api/v1/scan/:id answers it (docs/spec/public-scanning-api.md §2.3). */
export const toStoredScan = (scan: ScanRecord): StoredScan => ({
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
  checks_pruned_at: scan.checksPrunedAt?.toISOString() ?? null,
  rendered: scan.rendered,
  render_failure: renderFailureOf(scan.renderFailure),
});

const toAttempt = (delivery: DeliveryRecord): CallbackAttempt => ({
  attempt: delivery.attempt,
  at: delivery.createdAt.toISOString(),
  ok: delivery.ok,
  status_code: delivery.statusCode,
  error: delivery.error,
  duration_ms: delivery.durationMs,
  next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
});

/** The callback's URL, state and attempts, oldest first; undefined for a scan without a callback. */
export const toCallbackDelivery = (
  scan: { callbackUrl: string | null; callbackState: CallbackState | null },
  deliveries: readonly DeliveryRecord[],
): CallbackDelivery | undefined =>
  scan.callbackUrl === null
    ? undefined
    : {
        url: scan.callbackUrl,
        state: scan.callbackState ?? "pending",
        attempts: [...deliveries].sort((a, b) => a.attempt - b.attempt).map(toAttempt),
      };
