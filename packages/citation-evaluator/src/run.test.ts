import { evaluateAeo2 } from "./evaluate";
import { observationsOfRun } from "./run";

const brand = { brandName: "Acme", targetUrl: "https://acme.com" };

describe("observationsOfRun", () => {
  it("makes one observation per stored answer: its text, its sources in order, the brand's rank", () => {
    const observations = observationsOfRun(brand, [
      {
        answerText: "Globex leads; Acme follows.",
        citations: [
          { url: "https://globex.io/pricing", domain: "globex.io" },
          { url: "https://www.acme.com/pricing", domain: "acme.com" },
        ],
        mentions: [
          { kind: "competitor", position: 1 },
          { kind: "brand", position: 2 },
        ],
      },
      {
        answerText: "Globex is the usual pick.",
        citations: [
          { url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc", domain: "globex.io" },
          { url: "mailto:sales@globex.io", domain: "globex.io" },
        ],
        mentions: [{ kind: "competitor", position: 1 }],
      },
      { answerText: null, citations: [], mentions: [] },
    ]);
    expect(observations).toEqual([
      {
        ...brand,
        responseText: "Globex leads; Acme follows.",
        citedSources: [{ url: "https://globex.io/pricing" }, { url: "https://www.acme.com/pricing" }],
        position: 2,
      },
      // a redirect link is judged by the site the engine named
      {
        ...brand,
        responseText: "Globex is the usual pick.",
        citedSources: [{ url: "https://globex.io/" }],
        position: null,
      },
      { ...brand, responseText: "", citedSources: [], position: null },
    ]);
    expect(evaluateAeo2({ citations: observations }).citations.map((c) => c.label)).toEqual([
      "verified_url",
      "competitor_cited",
      "not_cited",
    ]);
  });
});
