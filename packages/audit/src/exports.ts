import type { AuditPageView, SiteReport } from "@scan/contract";
import { type CsvCell, csvLines, toCsv } from "./csv";

const REPORT_HEADER = [
  "kind",
  "check",
  "category",
  "severity",
  "status",
  "score",
  "max_score",
  "url",
  "detail",
  "pages",
] as const;

/**
 * The site report as CSV, one row per thing to act on: a row per finding of a failing site
 * check (its URL, what is wrong, the pages involved separated by spaces), a row per site check
 * that passed or did not apply, then a row per page check with its pass rate.
 */
export const reportCsv = (report: SiteReport): string => {
  const rows: CsvCell[][] = [];
  for (const check of report.site_checks) {
    const head = ["site", check.id, check.category, check.severity, check.status, check.score, check.maxScore];
    if (check.findings.length === 0) rows.push([...head, "", check.description, ""]);
    for (const finding of check.findings) rows.push([...head, finding.url, finding.detail, finding.pages.join(" ")]);
  }
  for (const check of report.page_checks) {
    const rate = check.pass_rate === null ? "not applicable" : `${Math.round(check.pass_rate * 1000) / 10} %`;
    rows.push([
      "page",
      check.id,
      check.category,
      check.severity,
      check.pass_rate === null ? "skip" : check.fail + check.warn === 0 ? "pass" : "fail",
      "",
      "",
      "",
      `passes on ${check.pass} of ${check.pages} pages (${rate}); warns on ${check.warn}, fails on ${check.fail}`,
      "",
    ]);
  }
  return toCsv(REPORT_HEADER, rows);
};

const PAGES_HEADER = [
  "url",
  "status",
  "http_status",
  "final_url",
  "depth",
  "in_sitemap",
  "overall",
  "seo",
  "aeo",
  "geo",
  "grade",
  "critical",
  "warning",
  "info",
  "failing_checks",
  "error",
] as const;

const pageRow = (page: AuditPageView): CsvCell[] => [
  page.url,
  page.status,
  page.http_status,
  page.final_url,
  page.depth,
  page.in_sitemap,
  page.scores?.overall,
  page.scores?.seo,
  page.scores?.aeo,
  page.scores?.geo,
  page.grade,
  page.issues.critical,
  page.issues.warning,
  page.issues.info,
  (page.checks ?? [])
    .filter((check) => check.status === "fail")
    .map((check) => check.id)
    .join(" "),
  page.error,
];

/** The audit's pages as CSV, one row per page, in the order they were found. */
export const pagesCsv = (pages: Iterable<AuditPageView>): string => {
  const rows = function* () {
    for (const page of pages) yield pageRow(page);
  };
  return toCsv(PAGES_HEADER, rows());
};

/** The same file in parts as the pages are read: a line per page, never the whole file. */
export const streamPagesCsv = (pages: AsyncIterable<AuditPageView>): AsyncGenerator<string> => {
  const rows = async function* () {
    for await (const page of pages) yield pageRow(page);
  };
  return csvLines(PAGES_HEADER, rows());
};
