import { scoreCitation } from "./citation";
import { scoreEvidence } from "./evidence";
import type { CitationObservation, EvidenceItem, RevenueInput } from "./input";
import { scoreRevenue } from "./revenue";

const obs = (overrides: Partial<CitationObservation>): CitationObservation => ({
  brandName: "Acme",
  targetUrl: "https://acme.com/",
  ...overrides,
});
const own = { url: "https://acme.com/a" };
const other = { url: "https://rival.io/a" };

const verifiedFirst = obs({ responseText: "Acme", citedSources: [own] }); // rank 1
const verifiedThird = obs({ citedSources: [other, other, own] }); // rank 0.8
const mentionedNoRank = obs({ responseText: "Acme" }); // rank 0
const competitor = obs({ citedSources: [other] });
const nothing = obs({});

const good: EvidenceItem = { sourceType: "primary", supportsClaim: true, url: "https://x.org/", snippet: "s" }; // 100
const weak: EvidenceItem = { sourceType: "review", url: "https://x.org/" }; // 35

const funnel: RevenueInput = {
  monthlyAiImpressions: 10_000,
  conversionRate: 0.02,
  revenuePerConversion: 50,
  grossMargin: 0.6,
  attributionCoverage: 0.5,
};

describe("scoreRevenue: score = round(0.5·visibility + 0.2·rank + 0.3·evidence)", () => {
  it.each<
    [
      string,
      CitationObservation[],
      EvidenceItem[],
      { score: number; visibility: number; rank: number; evidence: number },
    ]
  >([
    ["nothing observed", [], [], { score: 0, visibility: 0, rank: 0, evidence: 0 }],
    [
      "one perfect answer, one perfect item",
      [verifiedFirst],
      [good],
      { score: 100, visibility: 100, rank: 100, evidence: 100 },
    ],
    [
      // visibility = 100·(1 + 1 + 0.5 + 0 + 0)/5 = 50; rank = 100·(1 + 0.8 + 0)/3 = 60; evidence = (100 + 35)/2 = 67.5 → 68
      // score = round(25 + 12 + 20.4) = 57
      "a mixed picture",
      [verifiedFirst, verifiedThird, mentionedNoRank, competitor, nothing],
      [good, weak],
      { score: 57, visibility: 50, rank: 60, evidence: 68 },
    ],
    [
      // visibility 0, rank 0 (no visible answer), evidence 35 → round(10.5) = 11
      "only competitors cited",
      [competitor, nothing],
      [weak],
      { score: 11, visibility: 0, rank: 0, evidence: 35 },
    ],
    [
      // visibility 50, rank 0 → 25
      "named without rank",
      [mentionedNoRank],
      [],
      { score: 25, visibility: 50, rank: 0, evidence: 0 },
    ],
  ])("%s", (_name, citations, evidence, expected) => {
    const result = scoreRevenue(citations.map(scoreCitation), evidence.map(scoreEvidence), null);
    expect({ score: result.score, ...result.components }).toEqual(expected);
    expect(result.estimate).toBeNull();
  });

  it("estimates money from the funnel and the visibility share", () => {
    const result = scoreRevenue([verifiedFirst, competitor].map(scoreCitation), [], funnel);
    // visibility 50: 5,000 visible impressions → 100 conversions → 5,000 revenue → 3,000 gross profit
    expect(result.estimate).toEqual({
      visibleImpressions: 5000,
      conversions: 100,
      revenue: 5000,
      grossProfit: 3000,
      attributedGrossProfit: 1500,
      grossProfitUpside: 3000,
    });
  });

  it("does not move the score with the revenue object", () => {
    const citations = [verifiedThird, competitor].map(scoreCitation);
    expect(scoreRevenue(citations, [], funnel).score).toBe(scoreRevenue(citations, [], null).score);
  });

  it("rounds an exact half up (integer tenths, no float drift)", () => {
    // visibility 50, rank 0, evidence 35: 25 + 0 + 10.5 = 35.5 → 36
    const result = scoreRevenue([mentionedNoRank].map(scoreCitation), [weak].map(scoreEvidence), null);
    expect(result.score).toBe(36);
  });
});
