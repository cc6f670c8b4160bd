import type { AreaScores, Grade, IssueCounts, ScanOutcome } from "@scan/contract";

/** What a judged page or site is summed up by: its scores, its grade and its issue counts. */
export type Verdict = { scores: AreaScores; grade: Grade; issues: IssueCounts };

/** A verdict as the columns scans, audit pages and audits store it under. */
export const verdictColumns = ({ scores, grade, issues }: Verdict) => ({
  seo: scores.seo,
  aeo: scores.aeo,
  geo: scores.geo,
  overall: scores.overall,
  grade,
  issuesCritical: issues.critical,
  issuesWarning: issues.warning,
  issuesInfo: issues.info,
});

/**
 * A scanned page's outcome as the columns both a scan and an audit page store: the one
 * mapping from outcome to row (a scan adds how it was rendered, a page its facts).
 */
export const outcomeColumns = (outcome: ScanOutcome) => ({
  finalUrl: outcome.finalUrl,
  ...verdictColumns(outcome),
  checks: outcome.checks,
});
