import type { CheckResult } from "@scan/contract";

/** What the client prints, from the API's stored scan or from an in-process scan. */
export type Report = {
  /** null for an in-process scan, which is not stored */
  id: string | null;
  url: string;
  finalUrl: string | null;
  mode: "quick" | "full";
  status: "completed" | "failed";
  grade: string | null;
  scores: { seo: number; aeo: number; geo: number; overall: number } | null;
  checks: CheckResult[];
  durationMs: number | null;
  error: { code: string; message: string } | null;
};

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

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export const table = (rows: readonly (readonly string[])[], indent = "  "): string => {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) =>
      (indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).trimEnd(),
    )
    .join("\n");
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The readable report: what was scanned, the scores, then each failing check with its fix. */
export const formatReport = (report: Report): string => {
  const lines: string[] = [];
  const facts = [
    report.mode,
    report.durationMs === null ? null : seconds(report.durationMs),
    report.id && `id ${report.id}`,
  ]
    .filter(Boolean)
    .join(", ");
  lines.push(`Scan of ${report.url} (${facts})`);
  if (report.finalUrl && report.finalUrl !== report.url) lines.push(`  final URL ${report.finalUrl}`);
  if (report.status === "failed" || !report.scores) {
    lines.push(
      "",
      `Failed: ${report.error?.message ?? "the scan did not complete"} (${report.error?.code ?? "error"})`,
    );
    return `${lines.join("\n")}\n`;
  }
  const { seo, aeo, geo, overall } = report.scores;
  lines.push(
    "",
    table([
      ["area", "score"],
      ["SEO", String(seo).padStart(5)],
      ["AEO", String(aeo).padStart(5)],
      ["GEO", String(geo).padStart(5)],
      ["overall", `${String(overall).padStart(5)}  grade ${report.grade ?? "?"}`],
    ]),
  );
  if (report.mode === "quick") {
    lines.push(
      `  (quick scan: ${count(report.checks.length, "core check")}; not comparable with a full scan's scores)`,
    );
  }
  const failing = failingChecks(report.checks);
  const fails = failing.filter((c) => c.status === "fail").length;
  lines.push("");
  if (failing.length === 0) {
    lines.push(`All ${count(report.checks.length, "check")} passed or did not apply.`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    `Failing checks: ${fails} failed, ${count(failing.length - fails, "warning")}, of ${report.checks.length}`,
  );
  lines.push(
    table([
      ["status", "area", "severity", "check", "points", "finding"],
      ...failing.map((c) => [c.status, c.category, c.severity, c.id, `${c.score}/${c.maxScore}`, c.description]),
    ]),
  );
  const fixes = failing.filter((c) => c.fix.trim() !== "");
  if (fixes.length > 0) {
    lines.push("", "How to fix");
    for (const check of fixes) lines.push(`  ${check.id}: ${check.fix}`);
  }
  return `${lines.join("\n")}\n`;
};

/** A scan whose target failed (the API's 502, or the in-process fetch), for the reason given. */
export const failedReport = (
  url: string,
  mode: Report["mode"],
  error: { code: string; message: string },
  durationMs: number | null = null,
): Report => ({
  id: null,
  url,
  finalUrl: null,
  mode,
  status: "failed",
  grade: null,
  scores: null,
  checks: [],
  durationMs,
  error,
});
