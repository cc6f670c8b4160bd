import { z } from "zod";
import { CITATION_LABELS } from "./citation";
import { AEO2_META } from "./evaluate";
import { EVIDENCE_BANDS } from "./evidence";

/*
 * The evaluator's answer (docs/spec/public-scanning-api.md §2.7) as schemas, for the API reference; `evaluateAeo2` builds
 * it and output.test.ts holds every output it gives to these shapes.
 */

const Score = z.int().min(0).max(100);

/** One per input citation, in input order. */
export const CitationOutput = z.object({ label: z.enum(CITATION_LABELS), score: Score, isCited: z.boolean() });

/** One per input evidence item, in input order. */
export const EvidenceOutput = z.object({ band: z.enum(EVIDENCE_BANDS), score: Score });

/** Money terms per month in the caller's currency, rounded to cents (beyond docs/spec/public-scanning-api.md §2.7). */
export const RevenueEstimateOutput = z.object({
  visibleImpressions: z.number().nonnegative(),
  conversions: z.number().nonnegative(),
  revenue: z.number().nonnegative(),
  grossProfit: z.number().nonnegative(),
  attributedGrossProfit: z.number().nonnegative(),
  grossProfitUpside: z.number().nonnegative(),
});

export const RevenueOutput = z.object({
  score: Score,
  components: z.object({ visibility: Score, rank: Score, evidence: Score }),
  /** null when no `revenue` object was sent */
  estimate: RevenueEstimateOutput.nullable(),
});

/** A prioritised action; `id` and `impact` (revenue-score points it would recover) go beyond docs/spec/public-scanning-api.md §2.7. */
export const RecommendationOutput = z.object({
  id: z.string(),
  priority: z.enum(["high", "medium", "low"]),
  action: z.string(),
  reason: z.string(),
  impact: z.number().positive().max(100),
});

/** The evaluator's `data`. */
export const EvaluationOutput = z.object({
  citations: z.array(CitationOutput),
  evidence: z.array(EvidenceOutput),
  revenue: RevenueOutput,
  recommendations: z.array(RecommendationOutput),
});
export type EvaluationOutput = z.infer<typeof EvaluationOutput>;

/** The evaluator's `meta` (docs/spec/public-scanning-api.md §2.7, §9): in both forms. */
export const EvaluationMeta = z.object({
  version: z.literal(AEO2_META.version),
  provenance: z.literal(AEO2_META.provenance),
});
