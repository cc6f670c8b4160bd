import { type CheckResult, type CheckSeverity, EVIDENCE_WEIGHTS } from "@scan/contract";

const SEVERITY_RANK: Record<CheckSeverity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * What the check's points weigh in the score, by its evidence grade (a result stored before
 * checks were graded carries none, and counted fully then).
 */
const weightOf = (check: CheckResult): number =>
  check.evidence ? EVIDENCE_WEIGHTS[check.evidence.grade] : EVIDENCE_WEIGHTS.documented;

/**
 * The checks a page fails or warns on, worst first: the problems that move the score before
 * the convention-only ones (which inform and weigh nothing), then by severity, then by the points
 * the check costs the score (a failure its whole weight, a warning half, each weighed by its
 * evidence grade), then in catalogue order, so the same scan always names the same problems.
 */
export const topProblems = (checks: readonly CheckResult[], count: number): CheckResult[] =>
  checks
    .map((check, index) => ({ check, index, weight: weightOf(check) }))
    .filter(({ check }) => check.status === "fail" || check.status === "warn")
    .sort(
      (a, b) =>
        Number(a.weight === 0) - Number(b.weight === 0) ||
        SEVERITY_RANK[a.check.severity] - SEVERITY_RANK[b.check.severity] ||
        b.weight * (b.check.maxScore - b.check.score) - a.weight * (a.check.maxScore - a.check.score) ||
        a.index - b.index,
    )
    .slice(0, count)
    .map(({ check }) => check);
