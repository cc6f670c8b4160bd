import type { CheckResult, CheckSeverity } from "@scan/contract";

const SEVERITY_RANK: Record<CheckSeverity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * The checks a page fails or warns on, worst first: by severity, then by the points the check
 * costs the page (a failure costs its whole weight, a warning half), then in catalogue order,
 * so the same scan always names the same problems.
 */
export const topProblems = (checks: readonly CheckResult[], count: number): CheckResult[] =>
  checks
    .map((check, index) => ({ check, index }))
    .filter(({ check }) => check.status === "fail" || check.status === "warn")
    .sort(
      (a, b) =>
        SEVERITY_RANK[a.check.severity] - SEVERITY_RANK[b.check.severity] ||
        b.check.maxScore - b.check.score - (a.check.maxScore - a.check.score) ||
        a.index - b.index,
    )
    .slice(0, count)
    .map(({ check }) => check);
