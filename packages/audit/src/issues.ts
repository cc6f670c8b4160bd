import type {
  AuditIssue,
  AuditIssuePage,
  AuditIssueState,
  CheckCategory,
  CheckSeverity,
  PageCheckSummary,
  SiteCheckResult,
  SiteReport,
} from "@scan/contract";
import { type CsvCell, toCsv } from "./csv";

/**
 * The audit issue by issue: every page check that fails or warns on a judged page, every site
 * check that fails or warns, each with the pages it is on and its share of the judged pages,
 * compared with the previous completed audit of the same site and mode. One rule for both the
 * finished report and the pages counted so far, so the rollup of an audit under way reads as the
 * final one will.
 */

/** What the rollup needs of a page check: how many judged pages it failed or warned on. */
export type PageCheckCount = Pick<PageCheckSummary, "id" | "title" | "category" | "severity" | "fail" | "warn">;

/** The issues of one audit before they are compared: the page checks' counts and the site checks. */
export type IssueCounts = {
  pagesJudged: number;
  pageChecks: readonly PageCheckCount[];
  /** none until the audit's report step ran them */
  siteChecks: readonly SiteCheckResult[];
};

const SEVERITY_ORDER: Record<CheckSeverity, number> = { critical: 0, warning: 1, info: 2 };

const isIssue = (status: string) => status === "fail" || status === "warn";

/** The URLs a site check's findings name: the URL at fault and the pages involved, each once. */
export const siteCheckPages = (check: SiteCheckResult): number =>
  new Set(check.findings.flatMap((finding) => [finding.url, ...finding.pages])).size;

type Row = Omit<AuditIssue, "state" | "previous_pages" | "share">;

const rowsOf = ({ pageChecks, siteChecks }: IssueCounts): Map<string, Row> => {
  const rows = new Map<string, Row>();
  for (const check of pageChecks) {
    const pages = check.fail + check.warn;
    if (pages === 0) continue;
    rows.set(check.id, {
      check: check.id,
      scope: "page",
      title: check.title,
      category: check.category,
      severity: check.severity,
      pages,
      findings: null,
    });
  }
  for (const check of siteChecks) {
    if (!isIssue(check.status)) continue;
    rows.set(check.id, {
      check: check.id,
      scope: "site",
      title: check.title,
      category: check.category,
      severity: check.severity,
      pages: siteCheckPages(check),
      findings: check.findings_total,
    });
  }
  return rows;
};

const shareOf = (pages: number, judged: number): number | null =>
  judged === 0 ? null : Math.min(1, Math.round((pages / judged) * 10_000) / 10_000);

/** A finished report's counts. */
export const issueCountsOfReport = (report: SiteReport): IssueCounts => ({
  pagesJudged: report.pages_judged,
  pageChecks: report.page_checks,
  siteChecks: report.site_checks,
});

/**
 * Every issue of `current`, with its state against `previous` (null: nothing to compare with),
 * then the issues of `previous` no longer found, as `fixed`: most severe first, then most
 * pages, then by id; fixed ones last. `siteChecksRan` false (an audit under way) leaves the
 * previous audit's site checks out of `fixed`, since this audit has not run them yet.
 */
export const auditIssues = (
  current: IssueCounts,
  previous: IssueCounts | null,
  { siteChecksRan }: { siteChecksRan: boolean },
): AuditIssue[] => {
  const now = rowsOf(current);
  const before = previous ? rowsOf(previous) : null;
  const issues: AuditIssue[] = [...now.values()].map((row) => {
    const earlier = before?.get(row.check);
    const state: AuditIssueState | null = before === null ? null : earlier ? "persisting" : "new";
    return {
      ...row,
      share: shareOf(row.pages, current.pagesJudged),
      state,
      previous_pages: earlier?.pages ?? null,
    };
  });
  const fixed: AuditIssue[] = [];
  for (const row of before?.values() ?? []) {
    if (now.has(row.check) || (row.scope === "site" && !siteChecksRan)) continue;
    fixed.push({
      ...row,
      pages: 0,
      share: current.pagesJudged === 0 ? null : 0,
      findings: row.scope === "site" ? 0 : null,
      state: "fixed",
      previous_pages: row.pages,
    });
  }
  const order = (a: AuditIssue, b: AuditIssue) =>
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    b.pages - a.pages ||
    (b.previous_pages ?? 0) - (a.previous_pages ?? 0) ||
    a.check.localeCompare(b.check);
  return [...issues.sort(order), ...fixed.sort(order)];
};

/** The rollup's filters: each given one must match. */
export const filterIssues = (
  issues: readonly AuditIssue[],
  filter: {
    category?: CheckCategory | undefined;
    severity?: CheckSeverity | undefined;
    state?: AuditIssueState | undefined;
  },
): AuditIssue[] =>
  issues.filter(
    (issue) =>
      (filter.category === undefined || issue.category === filter.category) &&
      (filter.severity === undefined || issue.severity === filter.severity) &&
      (filter.state === undefined || issue.state === filter.state),
  );

/**
 * A site check's findings as the pages of its issue, those whose URL, finding or pages hold
 * `q` (any case) when it is given.
 */
export const siteCheckIssuePages = (check: SiteCheckResult, q: string | undefined): AuditIssuePage[] => {
  const needle = q?.toLowerCase();
  const status = check.status === "warn" ? "warn" : "fail";
  return check.findings
    .filter(
      (finding) =>
        needle === undefined ||
        [finding.url, finding.detail, ...finding.pages].some((text) => text.toLowerCase().includes(needle)),
    )
    .map((finding) => ({ url: finding.url, status, finding: finding.detail, related: finding.pages, page_id: null }));
};

const ISSUES_HEADER = [
  "check",
  "scope",
  "title",
  "category",
  "severity",
  "state",
  "pages",
  "share",
  "previous_pages",
  "findings",
] as const;

/** The rollup as CSV: a row per issue, in the rollup's order. */
export const issuesCsv = (issues: readonly AuditIssue[]): string =>
  toCsv(
    ISSUES_HEADER,
    issues.map((issue): CsvCell[] => [
      issue.check,
      issue.scope,
      issue.title,
      issue.category,
      issue.severity,
      issue.state ?? "",
      issue.pages,
      issue.share,
      issue.previous_pages,
      issue.findings,
    ]),
  );
