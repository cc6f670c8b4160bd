import type { CitationFacts } from "./citation";
import type { EvidenceFacts } from "./evidence";
import type { RevenueInput } from "./input";

/** Weights of the components in the revenue score, in tenths (0.5, 0.2, 0.3); they sum to 1. */
export const REVENUE_WEIGHTS = { visibility: 5, rank: 2, evidence: 3 } as const;

/** How much of an answer's visibility each label carries: a mention is half a citation. */
export const VISIBILITY_SHARE = { verified_url: 1, brand_mentioned: 0.5, competitor_cited: 0, not_cited: 0 } as const;

/**
 * Money terms of the revenue object, per month (beyond the fields of docs/spec/public-scanning-api.md §2.7). Null when no
 * revenue object was sent.
 */
export type RevenueEstimate = {
  /** impressions of answers that cite or name the brand: monthlyAiImpressions × visibility / 100 */
  visibleImpressions: number;
  /** visibleImpressions × conversionRate */
  conversions: number;
  /** conversions × revenuePerConversion */
  revenue: number;
  /** revenue × grossMargin */
  grossProfit: number;
  /** grossProfit × attributionCoverage: the part analytics will show */
  attributedGrossProfit: number;
  /** gross profit if every answer cited the brand (visibility 100), minus grossProfit */
  grossProfitUpside: number;
};

export type RevenueScore = {
  score: number;
  components: { visibility: number; rank: number; evidence: number };
  estimate: RevenueEstimate | null;
};

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * How much of the AI-answer opportunity the observations show the brand capturing (0-100):
 *
 *   visibility = round(100 × mean over citations of VISIBILITY_SHARE[label])   (0 without citations)
 *   rank       = round(100 × mean of the rank factor over citations that cite or name the brand)
 *                (0 when none does)
 *   evidence   = round(mean of the evidence scores)                            (0 without evidence)
 *   score      = round(0.5·visibility + 0.2·rank + 0.3·evidence)                (from the rounded components)
 *
 * The revenue object does not move the score (it sizes the opportunity, it does not measure
 * capture); it yields `estimate`, in the caller's currency, rounded to cents.
 */
export const scoreRevenue = (
  citations: readonly CitationFacts[],
  evidence: readonly EvidenceFacts[],
  revenue: RevenueInput | null,
): RevenueScore => {
  const visibility = Math.round(100 * mean(citations.map((citation) => VISIBILITY_SHARE[citation.label])));
  const rank = Math.round(100 * mean(citations.filter((c) => c.visible).map((c) => c.rank)));
  const evidenceScore = Math.round(mean(evidence.map((item) => item.score)));
  // integer tenths, so that 84.5 is not computed as 84.49999 and rounded down
  const score = Math.round(
    (REVENUE_WEIGHTS.visibility * visibility + REVENUE_WEIGHTS.rank * rank + REVENUE_WEIGHTS.evidence * evidenceScore) /
      10,
  );
  return {
    score,
    components: { visibility, rank, evidence: evidenceScore },
    estimate: revenue ? estimateFor(revenue, visibility) : null,
  };
};

const estimateFor = (revenue: RevenueInput, visibility: number): RevenueEstimate => {
  const profitPerImpression = revenue.conversionRate * revenue.revenuePerConversion * revenue.grossMargin;
  const visibleImpressions = (revenue.monthlyAiImpressions * visibility) / 100;
  const conversions = visibleImpressions * revenue.conversionRate;
  const revenueAmount = conversions * revenue.revenuePerConversion;
  const grossProfit = revenueAmount * revenue.grossMargin;
  return {
    visibleImpressions: cents(visibleImpressions),
    conversions: cents(conversions),
    revenue: cents(revenueAmount),
    grossProfit: cents(grossProfit),
    attributedGrossProfit: cents(grossProfit * revenue.attributionCoverage),
    grossProfitUpside: cents(Math.max(0, revenue.monthlyAiImpressions * profitPerImpression - grossProfit)),
  };
};
