import type { Grade, RegressionReason, SiteReport } from "@scan/contract";

const GRADE_ORDER: readonly Grade[] = ["F", "D", "C", "B", "B+", "A", "A+"];

/** A reason before the pages of page checks are filled in: those the caller looks up. */
export type Regression = { reasons: RegressionReason[]; pageChecksFailing: string[] };

/**
 * How the current audit is worse than the previous one of the same site and mode: the overall
 * score fell by `drop` points or more, the grade is lower, or a check that passed before fails
 * now: a site check that passed, or a page check that passed on every page where it ran. The
 * pages of a site check are its findings' URLs; those of a page check are for the caller to
 * look up (`pageChecksFailing`), since the report keeps counts, not pages.
 */
export const regressionOf = (previous: SiteReport, current: SiteReport, drop: number): Regression => {
  const reasons: RegressionReason[] = [];
  const before = previous.scores.overall;
  const after = current.scores.overall;
  if (before - after >= drop) reasons.push({ kind: "score_drop", points: before - after, before, after });
  if (GRADE_ORDER.indexOf(current.grade) < GRADE_ORDER.indexOf(previous.grade))
    reasons.push({ kind: "grade_lower", before: previous.grade, after: current.grade });
  const passedSite = new Set(previous.site_checks.filter((check) => check.status === "pass").map((check) => check.id));
  for (const check of current.site_checks) {
    if (check.status !== "fail" || !passedSite.has(check.id)) continue;
    const pages = [...new Set(check.findings.flatMap((finding) => [finding.url, ...finding.pages]))].slice(0, 50);
    reasons.push({ kind: "check_failing", scope: "site", check: check.id, title: check.title, pages });
  }
  const passedPage = new Set(
    previous.page_checks.filter((check) => check.pages > 0 && check.pass === check.pages).map((check) => check.id),
  );
  const pageChecksFailing: string[] = [];
  for (const check of current.page_checks) {
    if (check.fail === 0 || !passedPage.has(check.id)) continue;
    pageChecksFailing.push(check.id);
    reasons.push({ kind: "check_failing", scope: "page", check: check.id, title: check.title, pages: [] });
  }
  return { reasons, pageChecksFailing };
};
