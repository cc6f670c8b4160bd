import { evaluateAeo2 } from "./evaluate";
import type { EvaluateRequest } from "./input";
import { priorityFor } from "./recommendations";

const own = { url: "https://acme.com/a" };
const other = { url: "https://rival.io/a" };
const perfectCitation = {
  brandName: "Acme",
  targetUrl: "https://acme.com/",
  responseText: "Acme",
  citedSources: [own],
};
const perfectEvidence = { sourceType: "primary", supportsClaim: true, url: "https://acme.com/data", snippet: "42 %" };

const recommendationsFor = (request: EvaluateRequest) =>
  evaluateAeo2(request).recommendations.map(({ id, priority, impact }) => ({ id, priority, impact }));

describe("priorityFor", () => {
  it.each([
    [70, "high"],
    [15, "high"],
    [14.9, "medium"],
    [5, "medium"],
    [4.9, "low"],
    [0.1, "low"],
  ])("%d → %s", (impact, priority) => {
    expect(priorityFor(impact)).toBe(priority);
  });
});

describe("recommend", () => {
  it("asks for observations when nothing was sent, citations first", () => {
    expect(recommendationsFor({})).toEqual([
      { id: "track-citations", priority: "high", impact: 70 },
      { id: "collect-evidence", priority: "high", impact: 30 },
    ]);
  });

  it("has nothing to say about a perfect input", () => {
    expect(
      recommendationsFor({
        citations: [perfectCitation],
        evidence: [perfectEvidence],
        revenue: {
          monthlyAiImpressions: 1000,
          conversionRate: 0.1,
          revenuePerConversion: 10,
          grossMargin: 0.5,
          attributionCoverage: 1,
        },
      }),
    ).toEqual([]);
  });

  it("orders the impacts of a mixed input by the documented formulas", () => {
    const result = recommendationsFor({
      citations: [
        perfectCitation,
        { ...perfectCitation, responseText: "", citedSources: [other, other, own] }, // verified, rank 0.8
        { ...perfectCitation, citedSources: [] }, // brand_mentioned, no rank
        { ...perfectCitation, responseText: "", citedSources: [other] }, // competitor_cited
      ],
      evidence: [perfectEvidence, { sourceType: "forum", supportsClaim: false }],
      revenue: {
        monthlyAiImpressions: 1000,
        conversionRate: 0.1,
        revenuePerConversion: 10,
        grossMargin: 0.5,
        attributionCoverage: 0.25,
      },
    });
    // n = 4, E = 2. rank = round(100·(1 + 0.8 + 0)/3) = 60
    expect(result).toEqual([
      { id: "win-competitor-answers", priority: "medium", impact: 12.5 }, // 50·1/4
      { id: "improve-rank", priority: "medium", impact: 8 }, // 0.2·(100 − 60)
      { id: "improve-attribution", priority: "medium", impact: 7.5 }, // 10·(1 − 0.25)
      { id: "link-brand-mentions", priority: "medium", impact: 6.3 }, // 25·1/4 = 6.25
      { id: "replace-unsupporting-evidence", priority: "medium", impact: 5.3 }, // 0.3·35·1/2 = 5.25
      { id: "use-primary-sources", priority: "low", impact: 4.2 }, // 0.3·40·0.7/2
      { id: "complete-evidence", priority: "low", impact: 3.8 }, // 0.3·25/2
    ]);
  });

  it("counts not-cited answers apart from competitor-cited ones", () => {
    const result = recommendationsFor({
      citations: [{ ...perfectCitation, responseText: "", citedSources: [] }, perfectCitation],
      evidence: [perfectEvidence],
    });
    expect(result).toEqual([{ id: "enter-uncited-answers", priority: "high", impact: 25 }]);
  });

  it("says what was found in the reason", () => {
    const [first] = evaluateAeo2({
      citations: [{ ...perfectCitation, responseText: "", citedSources: [other] }, perfectCitation],
      evidence: [perfectEvidence],
    }).recommendations;
    expect(first).toEqual({
      id: "win-competitor-answers",
      priority: "high",
      impact: 25,
      action: expect.stringMatching(/answer-first pages/),
      reason: "1 of 2 answers cite other sites and neither name the brand nor cite its site.",
    });
  });
});
