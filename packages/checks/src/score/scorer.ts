import type { CheckCategory, CheckResult, CheckStatus, EvidenceGrade, Grade, IssueCounts } from "@scan/contract";
import { EVIDENCE_WEIGHTS, evidenceFor } from "../evidence";
import { gradeFor } from "./grade";

export type Scores = { seo: number; aeo: number; geo: number; overall: number; total: number };
export type ScoreCard = { scores: Scores; grade: Grade; issues: IssueCounts };

/** Weight of each area in the overall score, in tenths (docs/spec/checks.md "Scoring": 0.4, 0.3, 0.3). */
const AREA_WEIGHTS: Record<CheckCategory, number> = { seo: 4, aeo: 3, geo: 3 };
/** A page search engines may not index cannot grade above F. */
const NOT_INDEXABLE_CAP = 39;

/** pass earns maxScore, warn half of it, fail 0; skip is not scored at all. */
export const pointsFor = (status: CheckStatus, maxScore: number): number => {
  switch (status) {
    case "pass":
      return maxScore;
    case "warn":
      return maxScore / 2;
    default:
      return 0;
  }
};

/**
 * The grade a result is weighed by: the one it carries, else the catalogue's for its id (a
 * result stored before results carried their grade).
 */
const gradeOf = (result: CheckResult): EvidenceGrade => result.evidence?.grade ?? evidenceFor(result.id).grade;

/**
 * An area's score: the points its checks earned over the points they could earn, each check's
 * points weighed by its evidence grade (docs/checks.md, "Evidence grades"). A convention-only
 * check weighs 0: it neither earns nor loses anything.
 */
const areaScore = (
  results: readonly CheckResult[],
  area: CheckCategory,
  weights: Readonly<Record<EvidenceGrade, number>>,
): number => {
  let earned = 0;
  let possible = 0;
  for (const r of results) {
    if (r.category !== area || r.status === "skip") continue;
    const weight = weights[gradeOf(r)];
    earned += weight * r.score;
    possible += weight * r.maxScore;
  }
  // an area with no applicable (weighed) check has nothing wrong in it
  return possible === 0 ? 100 : Math.round((100 * earned) / possible);
};

/**
 * Area scores, overall, grade and issue counts of a page's (or a site's) results. `weights` is
 * the catalogue's (EVIDENCE_WEIGHTS); equal weights give the scores as they were before checks
 * were graded, which scripts/evidence-scores.ts uses to compare.
 */
export const scoreChecks = (
  results: readonly CheckResult[],
  weights: Readonly<Record<EvidenceGrade, number>> = EVIDENCE_WEIGHTS,
): ScoreCard => {
  const seo = areaScore(results, "seo", weights);
  const aeo = areaScore(results, "aeo", weights);
  const geo = areaScore(results, "geo", weights);
  // integer tenths, so that 84.5 is not computed as 84.49999 and rounded down
  let overall = Math.round((AREA_WEIGHTS.seo * seo + AREA_WEIGHTS.aeo * aeo + AREA_WEIGHTS.geo * geo) / 10);
  const indexable = results.find((r) => r.id === "indexable");
  if (indexable?.status === "fail") overall = Math.min(overall, NOT_INDEXABLE_CAP);
  const issues: IssueCounts = { critical: 0, warning: 0, info: 0 };
  for (const r of results) {
    if (r.status === "warn" || r.status === "fail") issues[r.severity] += 1;
  }
  return { scores: { seo, aeo, geo, overall, total: overall }, grade: gradeFor(overall), issues };
};
