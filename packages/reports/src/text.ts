import type { CheckStatus } from "@scan/contract";
import { failingChecks, type PageReport } from "./page-report";

/** How text is painted: ANSI colours on a terminal, nothing elsewhere. */
export type Paint = {
  bad: (text: string) => string;
  warn: (text: string) => string;
  good: (text: string) => string;
  strong: (text: string) => string;
  faint: (text: string) => string;
};

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

export const ANSI: Paint = {
  bad: sgr(31, 39),
  warn: sgr(33, 39),
  good: sgr(32, 39),
  strong: sgr(1, 22),
  faint: sgr(2, 22),
};

const same = (text: string) => text;
export const PLAIN: Paint = { bad: same, warn: same, good: same, strong: same, faint: same };

/**
 * Whether to paint output bound for a stream: FORCE_COLOR set to anything but `0` or `false`
 * paints even into a pipe, and `FORCE_COLOR=0` never paints (Node's own precedence); otherwise
 * NO_COLOR set to a non-empty value (no-color.org) or TERM=dumb turns colours off, and a
 * terminal gets them.
 */
export const useColour = (isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean => {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
};

/** Left-aligned columns, two spaces apart; the last column is not padded. `paint` colours a padded cell. */
export const table = (
  rows: readonly (readonly string[])[],
  indent = "  ",
  paint: (cell: string, row: number, column: number) => string = same,
): string => {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row, r) => {
      const cells = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)));
      const line = cells.join("  ").trimEnd();
      // paint after the layout so that escape codes never count as width
      return (
        indent +
        (paint === same
          ? line
          : cells
              .map((cell, i) => paint(cell, r, i))
              .join("  ")
              .trimEnd())
      );
    })
    .join("\n");
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const paintStatus = (paint: Paint, status: CheckStatus | string, text: string): string =>
  status === "fail" ? paint.bad(text) : status === "warn" ? paint.warn(text) : text;

const paintScore = (paint: Paint, score: number, text: string): string =>
  score >= 75 ? paint.good(text) : score >= 55 ? paint.warn(text) : paint.bad(text);

/** One page's readable report: what was scanned, the scores, then each failing check with its fix. */
const renderPage = (page: PageReport, paint: Paint): string => {
  const lines: string[] = [];
  const facts = [page.mode, page.durationMs === null ? null : seconds(page.durationMs), page.id && `id ${page.id}`]
    .filter(Boolean)
    .join(", ");
  lines.push(`${paint.strong(`Scan of ${page.url}`)} (${facts})`);
  if (page.finalUrl && page.finalUrl !== page.url) lines.push(`  final URL ${page.finalUrl}`);
  if (page.status === "failed" || !page.scores) {
    lines.push(
      "",
      paint.bad(`Failed: ${page.error?.message ?? "the scan did not complete"} (${page.error?.code ?? "error"})`),
    );
    return `${lines.join("\n")}\n`;
  }
  const { seo, aeo, geo, overall } = page.scores;
  const scoreRows = [
    ["area", "score"],
    ["SEO", String(seo).padStart(5)],
    ["AEO", String(aeo).padStart(5)],
    ["GEO", String(geo).padStart(5)],
    ["overall", `${String(overall).padStart(5)}  grade ${page.grade ?? "?"}`],
  ];
  const scoreOfRow = [null, seo, aeo, geo, overall];
  lines.push(
    "",
    table(scoreRows, "  ", (cell, row, column) => {
      const score = scoreOfRow[row];
      if (row === 0) return paint.faint(cell);
      return column === 1 && score !== null && score !== undefined ? paintScore(paint, score, cell) : cell;
    }),
  );
  if (page.renderFailure) {
    lines.push(
      paint.warn(`  Judged on the HTML as served: ${page.renderFailure.message} (${page.renderFailure.code})`),
    );
  }
  if (page.mode === "quick") {
    lines.push(
      paint.faint(
        `  (quick scan: ${count(page.checks.length, "core check")}; not comparable with a full scan's scores)`,
      ),
    );
  }
  const failing = failingChecks(page.checks);
  const fails = failing.filter((c) => c.status === "fail").length;
  lines.push("");
  if (failing.length === 0) {
    lines.push(paint.good(`All ${count(page.checks.length, "check")} passed or did not apply.`));
    return `${lines.join("\n")}\n`;
  }
  lines.push(`Failing checks: ${fails} failed, ${count(failing.length - fails, "warning")}, of ${page.checks.length}`);
  const rows = [
    ["status", "area", "severity", "check", "points", "finding"],
    ...failing.map((c) => [c.status, c.category, c.severity, c.id, `${c.score}/${c.maxScore}`, c.description]),
  ];
  lines.push(
    table(rows, "  ", (cell, row, column) => {
      if (row === 0) return paint.faint(cell);
      return column === 0 ? paintStatus(paint, failing[row - 1]?.status ?? "", cell) : cell;
    }),
  );
  const fixes = failing.filter((c) => c.fix.trim() !== "");
  if (fixes.length > 0) {
    lines.push("", paint.strong("How to fix"));
    for (const check of fixes) lines.push(`  ${check.id}: ${check.fix}`);
  }
  return `${lines.join("\n")}\n`;
};

/** The readable report of each page, a blank line between pages. */
export const renderText = (pages: readonly PageReport[], paint: Paint = PLAIN): string =>
  pages.map((page) => renderPage(page, paint)).join("\n");
