import type {
  AuditPageView,
  CheckCategory,
  CheckResult,
  RenderFailure,
  ScanMode,
  ScanResult,
  StoredScan,
} from "@scan/contract";

/**
 * One scanned page as every renderer reads it: the stored scan of the API, the synchronous
 * answer, or an in-process scan of the command-line client. A report is a list of them, so a
 * site audit (many pages) renders through the same functions as one scan.
 */
export type PageReport = {
  /** the scan's id; null for an in-process scan, which is not stored */
  id: string | null;
  /** the URL that was asked for */
  url: string;
  /** where the page was after redirects; null when the scan failed before it got there */
  finalUrl: string | null;
  mode: ScanMode;
  status: "completed" | "failed";
  grade: string | null;
  scores: { seo: number; aeo: number; geo: number; overall: number } | null;
  checks: CheckResult[];
  /** when the result was stored (ISO 8601); null when not known */
  scannedAt: string | null;
  durationMs: number | null;
  /** why a failed scan failed */
  error: { code: string; message: string } | null;
  /** why a render that was attempted failed, so the page was judged on its HTML as served */
  renderFailure: RenderFailure | null;
};

/** What a report says about the program that made it (SARIF's tool.driver, JUnit's properties). */
export type ToolInfo = { name: string; version: string };

const scoresOf = (scores: { seo: number; aeo: number; geo: number; overall: number }) => ({
  seo: scores.seo,
  aeo: scores.aeo,
  geo: scores.geo,
  overall: scores.overall,
});

/** A finished stored scan (GET /api/v1/scan/:id); a queued or running one has nothing to report yet. */
export const pageOfStoredScan = (scan: StoredScan): PageReport => {
  if (scan.status !== "completed" && scan.status !== "failed") {
    throw new RangeError(`scan ${scan.id} is ${scan.status}: only a finished scan has a report`);
  }
  return {
    id: scan.id,
    url: scan.url,
    finalUrl: scan.final_url,
    mode: scan.mode,
    status: scan.status,
    grade: scan.grade,
    scores: scan.scores && scoresOf(scan.scores),
    checks: scan.checks ?? [],
    scannedAt: scan.completed_at,
    durationMs: scan.duration_ms,
    error: scan.error,
    renderFailure: scan.render_failure,
  };
};

/** POST /api/v1/scan's 200: always a completed scan. */
export const pageOfScanResult = (scan: ScanResult): PageReport => ({
  id: scan.id,
  url: scan.url,
  finalUrl: scan.finalUrl,
  mode: scan.mode,
  status: "completed",
  grade: scan.grade,
  scores: scoresOf(scan.scores),
  checks: scan.checks,
  scannedAt: scan.scannedAt,
  durationMs: scan.duration,
  error: null,
  renderFailure: scan.renderFailure,
});

/**
 * A page of an audit as its exports show it: a judged page (its checks count in the site
 * report) with its checks, or a page whose scan failed, with the reason. Other pages (blocked,
 * cancelled, answered 4xx or redirected) are not exported as pages: null. `id` is null, since an
 * audit page is no stored scan; the audit's id is on the export.
 */
export const pageOfAuditPage = (page: AuditPageView, mode: ScanMode): PageReport | null => {
  const about = {
    id: null,
    url: page.url,
    finalUrl: page.final_url,
    mode,
    scannedAt: page.scanned_at,
    renderFailure: null,
  };
  if (page.status === "failed") {
    const code = page.http_status ? `http_${page.http_status}` : "page_failed";
    return {
      ...about,
      status: "failed",
      grade: null,
      scores: null,
      checks: [],
      durationMs: null,
      error: { code, message: page.error ?? "The page's scan did not complete" },
    };
  }
  if (!page.judged) return null;
  if (page.checks === null) throw new RangeError(`the checks of ${page.url} were pruned: it has no report`);
  return {
    ...about,
    status: "completed",
    grade: page.grade,
    scores: page.scores && scoresOf(page.scores),
    checks: page.checks,
    durationMs: null,
    error: null,
  };
};

/** A scan whose target failed (the API's 502, or the in-process fetch), for the reason given. */
export const failedPage = (
  url: string,
  mode: ScanMode,
  error: { code: string; message: string },
  durationMs: number | null = null,
): PageReport => ({
  id: null,
  url,
  finalUrl: null,
  mode,
  status: "failed",
  grade: null,
  scores: null,
  checks: [],
  scannedAt: null,
  durationMs,
  error,
  renderFailure: null,
});

export const AREAS: readonly CheckCategory[] = ["seo", "aeo", "geo"];

export const AREA_LABEL: Record<CheckCategory, string> = { seo: "SEO", aeo: "AEO", geo: "GEO" };

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;
const STATUS_ORDER = { fail: 0, warn: 1, pass: 2, skip: 3 } as const;

/** Checks that did not pass (fail, then warn), the most severe first. */
export const failingChecks = (checks: readonly CheckResult[]): CheckResult[] =>
  checks
    .filter((check) => check.status === "fail" || check.status === "warn")
    .sort(
      (a, b) =>
        STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        a.category.localeCompare(b.category) ||
        a.id.localeCompare(b.id),
    );
