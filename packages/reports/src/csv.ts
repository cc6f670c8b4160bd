import type { PageReport } from "./page-report";

/** The columns, one row per check of each page; `evidence` is the check's evidence grade. */
export const CSV_COLUMNS = [
  "url",
  "final_url",
  "scan_id",
  "mode",
  "scanned_at",
  "area",
  "check_id",
  "title",
  "status",
  "severity",
  "score",
  "max_score",
  "finding",
  "fix",
  "evidence",
] as const;

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (OWASP, CSV Injection):
 * `=`, `+`, `-`, `@`, tab and carriage return. Findings quote page text ("Title is '=HYPERLINK(…)'"),
 * so every text cell that starts with one is prefixed with a single quote, which spreadsheets
 * show as text and do not evaluate.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF (quotes
 * doubled), and when it was neutralised, as OWASP advises; numbers as they are.
 */
const field = (value: string | number | null): string => {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const formula = FORMULA_START.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const reasonOf = (page: PageReport): string =>
  page.error ? `${page.error.message} (${page.error.code})` : "The scan did not complete";

const row = (values: readonly (string | number | null)[]): string => `${values.map(field).join(",")}\r\n`;

/**
 * The pages as CSV (RFC 4180: a header row, CRLF line ends, UTF-8), one row per check. A page
 * whose scan failed has one row with status `error` and the reason as its finding, so a
 * spreadsheet of many pages still shows it.
 */
export const renderCsv = (pages: readonly PageReport[]): string => {
  let out = row(CSV_COLUMNS);
  for (const page of pages) {
    const about = [page.url, page.finalUrl, page.id, page.mode, page.scannedAt] as const;
    if (page.status === "failed") {
      out += row([...about, null, null, null, "error", null, null, null, reasonOf(page), null, null]);
      continue;
    }
    for (const check of page.checks) {
      out += row([
        ...about,
        check.category,
        check.id,
        check.title,
        check.status,
        check.severity,
        check.score,
        check.maxScore,
        check.description,
        check.fix === "" ? null : check.fix,
        check.evidence?.grade ?? null,
      ]);
    }
  }
  return out;
};
