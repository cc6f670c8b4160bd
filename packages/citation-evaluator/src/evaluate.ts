import { type CitationScore, scoreCitation } from "./citation";
import { type EvidenceScore, scoreEvidence } from "./evidence";
import type { EvaluateRequest } from "./input";
import { type Recommendation, recommend } from "./recommendations";
import { type RevenueScore, scoreRevenue } from "./revenue";

/** docs/spec/public-scanning-api.md §2.7 and §9: the evaluator's version and what its scores rest on. */
export const AEO2_META = {
  version: "2.0",
  provenance:
    "Scoring is deterministic over the observations provided in this request; the evaluator does not fetch, verify or check the provenance of the citations, evidence or revenue figures.",
} as const;

/** The evaluator's `data` (docs/spec/public-scanning-api.md §2.7): one citation and one evidence result per input item, in input order. */
export type Evaluation = {
  citations: CitationScore[];
  evidence: EvidenceScore[];
  revenue: RevenueScore;
  recommendations: Recommendation[];
};

/**
 * The AEO 2.0 evaluator: a pure, deterministic function of a validated request. The same
 * input always gives the same output; no clock, randomness or I/O is involved.
 * Formulas: citation.ts (`scoreCitation`), evidence.ts (`scoreEvidence`), revenue.ts
 * (`scoreRevenue`), recommendations.ts (`recommend`).
 */
export const evaluateAeo2 = (request: EvaluateRequest): Evaluation => {
  const citations = (request.citations ?? []).map(scoreCitation);
  const evidence = (request.evidence ?? []).map(scoreEvidence);
  const revenue = scoreRevenue(citations, evidence, request.revenue ?? null);
  return {
    citations: citations.map(({ label, score, isCited }) => ({ label, score, isCited })),
    evidence: evidence.map(({ band, score }) => ({ band, score })),
    revenue,
    recommendations: recommend(citations, evidence, request.revenue ?? null, revenue),
  };
};
