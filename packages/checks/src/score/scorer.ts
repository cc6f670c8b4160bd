import type { CheckCategory, CheckResult, CheckStatus, Grade, IssueCounts } from "@scan/contract";
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

const areaScore = (results: readonly CheckResult[], area: CheckCategory): number => {
  let earned = 0;
  let possible = 0;
  for (const r of results) {
    if (r.category !== area || r.status === "skip") continue;
    earned += r.score;
    possible += r.maxScore;
  }
  // an area with no applicable check has nothing wrong in it
  return possible === 0 ? 100 : Math.round((100 * earned) / possible);
};

export const scoreChecks = (results: readonly CheckResult[]): ScoreCard => {
  const seo = areaScore(results, "seo");
  const aeo = areaScore(results, "aeo");
  const geo = areaScore(results, "geo");
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
