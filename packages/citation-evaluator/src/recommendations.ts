import type { CitationFacts } from "./citation";
import { EVIDENCE_WEIGHTS, type EvidenceFacts } from "./evidence";
import type { RevenueInput } from "./input";
import { REVENUE_WEIGHTS, type RevenueScore, VISIBILITY_SHARE } from "./revenue";

export type RecommendationPriority = "high" | "medium" | "low";

/**
 * One prioritised action. `id` names the rule (stable, for programs), `impact` is the estimated
 * gain in revenue-score points (0-100 scale) if the action succeeds; both go beyond the
 * `{priority, action, reason}` of docs/spec/public-scanning-api.md §2.7.
 */
export type Recommendation = {
  id: string;
  priority: RecommendationPriority;
  action: string;
  reason: string;
  impact: number;
};

/** high: 15 points or more; medium: 5 to 14.9; low: under 5. */
export const priorityFor = (impact: number): RecommendationPriority =>
  impact >= 15 ? "high" : impact >= 5 ? "medium" : "low";

type Candidate = { id: string; impact: number; action: string; reason: string };

const w = (weight: number): number => weight / 10;
const count = <T>(items: readonly T[], test: (item: T) => boolean): number => items.filter(test).length;
const of = (part: number, whole: number, noun: string): string => `${part} of ${whole} ${noun}`;

/**
 * The rules, each with its impact formula (n citations, E evidence items; wV = 0.5, wR = 0.2,
 * wE = 0.3 are the revenue weights):
 *
 * | id | when | impact |
 * |---|---|---|
 * | track-citations | no citations | 100·(wV + wR) = 70 |
 * | collect-evidence | no evidence | 100·wE = 30 |
 * | win-competitor-answers | c answers are `competitor_cited` | 100·wV·c/n |
 * | enter-uncited-answers | x answers are `not_cited` | 100·wV·x/n |
 * | link-brand-mentions | m answers are `brand_mentioned` | 100·wV·(1 − 0.5)·m/n |
 * | improve-rank | some answer cites or names the brand, rank < 100 | wR·(100 − rank) |
 * | replace-unsupporting-evidence | u items do not support the claim | wE·35·u/E |
 * | use-primary-sources | items below primary weight | wE·40·Σ(1 − weight)/E |
 * | complete-evidence | items lack URL or snippet | wE·Σ(15·[no URL] + 10·[no snippet])/E |
 * | improve-attribution | revenue sent, attributionCoverage < 1 | 10·(1 − attributionCoverage) |
 *
 * Each impact is the revenue-score points the action would recover if it fully succeeded;
 * attribution moves no score, so it gets at most 10, below any action worth more. Sorted by
 * impact, highest first; ties keep the order of the table. Impacts are rounded to one decimal;
 * rules whose condition does not hold, or whose impact rounds to 0, give nothing, so a perfect
 * input has no recommendations.
 */
export const recommend = (
  citations: readonly CitationFacts[],
  evidence: readonly EvidenceFacts[],
  revenue: RevenueInput | null,
  score: RevenueScore,
): Recommendation[] => {
  const candidates: Candidate[] = [];
  const n = citations.length;
  const e = evidence.length;
  const wV = w(REVENUE_WEIGHTS.visibility);
  const wR = w(REVENUE_WEIGHTS.rank);
  const wE = w(REVENUE_WEIGHTS.evidence);

  if (n === 0) {
    candidates.push({
      id: "track-citations",
      impact: 100 * (wV + wR),
      action: "Record how AI engines answer the queries you care about and send them as citations.",
      reason: "No citation observations were given, so visibility and rank score 0.",
    });
  }
  if (e === 0) {
    candidates.push({
      id: "collect-evidence",
      impact: 100 * wE,
      action: "Collect evidence for your key claims: the source, its URL and the quoted snippet.",
      reason: "No evidence items were given, so the evidence component scores 0.",
    });
  }
  const competitor = count(citations, (c) => c.label === "competitor_cited");
  if (competitor > 0) {
    candidates.push({
      id: "win-competitor-answers",
      impact: (100 * wV * competitor) / n,
      action:
        "Publish answer-first pages for the queries where answers cite other sites: lead with the direct answer, back it with statistics and sources, and make sure AI crawlers may fetch the page.",
      reason: `${of(competitor, n, "answers")} cite other sites and neither name the brand nor cite its site.`,
    });
  }
  const uncited = count(citations, (c) => c.label === "not_cited");
  if (uncited > 0) {
    candidates.push({
      id: "enter-uncited-answers",
      impact: (100 * wV * uncited) / n,
      action:
        "Get named where answers cite nobody: publish quotable definitions and figures, and earn mentions on the sites the engines read.",
      reason: `${of(uncited, n, "answers")} cite no source and do not name the brand.`,
    });
  }
  const mentioned = count(citations, (c) => c.label === "brand_mentioned");
  if (mentioned > 0) {
    candidates.push({
      id: "link-brand-mentions",
      impact: (100 * wV * (1 - VISIBILITY_SHARE.brand_mentioned) * mentioned) / n,
      action:
        "Turn brand mentions into citations: give the mentioned facts a page of their own on your site, with structured data, that engines can quote and link.",
      reason: `${of(mentioned, n, "answers")} name the brand but cite none of its pages.`,
    });
  }
  const visible = count(citations, (c) => c.visible);
  if (visible > 0 && score.components.rank < 100) {
    candidates.push({
      id: "improve-rank",
      impact: wR * (100 - score.components.rank),
      action:
        "Move up in the answers that include you: put the answer in the first sentence, add statistics and quotations, and cite your sources.",
      reason: `Rank scores ${score.components.rank} of 100 over ${of(visible, n, "answers")} that cite or name the brand (first place scores 100).`,
    });
  }
  const unsupporting = count(evidence, (item) => !item.supports);
  if (unsupporting > 0) {
    candidates.push({
      id: "replace-unsupporting-evidence",
      impact: (wE * EVIDENCE_WEIGHTS.supportsClaim * unsupporting) / e,
      action: "Replace evidence that does not support the claim with sources that state it.",
      reason: `${of(unsupporting, e, "evidence items")} are not marked as supporting the claim.`,
    });
  }
  const shortfall = evidence.reduce((sum, item) => sum + (1 - item.weight), 0);
  if (shortfall > 0) {
    const notPrimary = count(evidence, (item) => item.weight < 1);
    candidates.push({
      id: "use-primary-sources",
      impact: (wE * EVIDENCE_WEIGHTS.sourceType * shortfall) / e,
      action: "Back claims with primary sources: original data, studies and official documentation.",
      reason: `${of(notPrimary, e, "evidence items")} are not primary sources.`,
    });
  }
  const missing = evidence.reduce(
    (sum, item) => sum + (item.hasUrl ? 0 : EVIDENCE_WEIGHTS.url) + (item.hasSnippet ? 0 : EVIDENCE_WEIGHTS.snippet),
    0,
  );
  if (missing > 0) {
    const incomplete = count(evidence, (item) => !item.hasUrl || !item.hasSnippet);
    candidates.push({
      id: "complete-evidence",
      impact: (wE * missing) / e,
      action: "Give every evidence item the URL of its source and the snippet that makes the claim.",
      reason: `${of(incomplete, e, "evidence items")} lack a URL or a snippet.`,
    });
  }
  if (revenue && revenue.attributionCoverage < 1) {
    candidates.push({
      id: "improve-attribution",
      impact: 10 * (1 - revenue.attributionCoverage),
      action:
        "Measure more of the traffic AI answers send: tag links you control and ask new customers where they heard of you.",
      reason: `Attribution covers ${Math.round(revenue.attributionCoverage * 100)} % of conversions; the rest of the estimate will not show in analytics.`,
    });
  }
  return candidates
    .map((candidate, order) => ({ candidate, order }))
    .sort((a, b) => b.candidate.impact - a.candidate.impact || a.order - b.order)
    .map(({ candidate }) => {
      const impact = Math.round(candidate.impact * 10) / 10;
      return {
        id: candidate.id,
        priority: priorityFor(impact),
        action: candidate.action,
        reason: candidate.reason,
        impact,
      };
    })
    .filter((recommendation) => recommendation.impact > 0);
};
