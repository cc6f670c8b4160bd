import { AEO2_META, evaluateAeo2 } from "./evaluate";
import { EvaluateRequest } from "./input";
import { EvaluationMeta, EvaluationOutput } from "./output";

const strictly = (value: unknown) => EvaluationOutput.parse(value);

describe("the evaluator's output schema", () => {
  it("describes the answer to an empty request", () => {
    const out = evaluateAeo2(EvaluateRequest.parse({}));
    expect(strictly(out)).toEqual(out);
    expect(out.recommendations.length).toBeGreaterThan(0);
  });

  it("describes a full answer, estimate and recommendations included", () => {
    const out: EvaluationOutput = evaluateAeo2(
      EvaluateRequest.parse({
        citations: [
          {
            brandName: "Acme",
            targetUrl: "https://acme.com/",
            responseText: "Acme leads",
            citedSources: [{ url: "https://rival.io/x" }],
            position: 3,
          },
          { brandName: "Acme", targetUrl: "https://acme.com/", citedSources: [{ url: "https://docs.acme.com/a" }] },
        ],
        evidence: [{ sourceType: "news", url: "https://news.example/a", supportsClaim: true }, {}],
        revenue: {
          monthlyAiImpressions: 10_000,
          conversionRate: 0.02,
          revenuePerConversion: 120,
          grossMargin: 0.6,
          attributionCoverage: 0.5,
        },
      }),
    );
    expect(strictly(out)).toEqual(out);
    expect(out.revenue.estimate).not.toBeNull();
  });

  it("describes the meta", () => {
    expect(EvaluationMeta.parse(AEO2_META)).toEqual(AEO2_META);
  });
});
