import fc from "fast-check";
import { CITATION_LABELS } from "./citation";
import { evaluateAeo2 } from "./evaluate";
import { bandFor } from "./evidence";
import { EvaluateRequest, MAX_CITATIONS, MAX_EVIDENCE } from "./input";
import { EvaluationOutput } from "./output";

const sites = [
  "https://acme.com",
  "https://www.acme.com",
  "https://docs.acme.com",
  "https://rival.io",
  "http://10.0.0.1:8080",
];
const url = fc
  .tuple(fc.constantFrom(...sites), fc.webPath())
  .map(([origin, path]) => `${origin}${path.startsWith("/") ? path : `/${path}`}`);
const brand = fc.constantFrom("Acme", "acme", "Big Corp", "Café", "C++");
const text = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.tuple(fc.string({ maxLength: 40 }), brand, fc.string({ maxLength: 40 })).map(([a, b, c]) => `${a} ${b} ${c}`),
);
const sourceType = fc.option(
  fc.oneof(
    fc.constantFrom("primary", "academic", "government", "news", "secondary", "review", "forum", "social", "PRIMARY"),
    fc.constantFrom("__proto__", "constructor", "toString", "valueOf"),
    fc.string({ maxLength: 50 }),
  ),
);
const ratio = fc.double({ min: 0, max: 1, noNaN: true });

const citation = fc.record(
  {
    brandName: brand,
    targetUrl: url,
    responseText: fc.option(text),
    citedSources: fc.option(fc.array(fc.record({ url, sourceType }, { requiredKeys: ["url"] }), { maxLength: 8 })),
    position: fc.option(fc.integer({ min: 1, max: 1000 })),
  },
  { requiredKeys: ["brandName", "targetUrl"] },
);
const evidence = fc.record(
  {
    sourceType,
    url: fc.option(url),
    snippet: fc.option(fc.string({ maxLength: 100 })),
    supportsClaim: fc.option(fc.boolean()),
  },
  { requiredKeys: [] },
);
const revenue = fc.record({
  monthlyAiImpressions: fc.double({ min: 0, max: 1e12, noNaN: true }),
  conversionRate: ratio,
  revenuePerConversion: fc.double({ min: 0, max: 1e9, noNaN: true }),
  grossMargin: ratio,
  attributionCoverage: ratio,
});
const request = fc.record(
  {
    citations: fc.option(fc.array(citation, { maxLength: MAX_CITATIONS })),
    evidence: fc.option(fc.array(evidence, { maxLength: MAX_EVIDENCE })),
    revenue: fc.option(revenue),
  },
  { requiredKeys: [] },
);

const inRange = (score: number) => Number.isInteger(score) && score >= 0 && score <= 100;

describe("evaluateAeo2 properties", () => {
  it("accepts every generated valid request", () => {
    fc.assert(fc.property(request, (body) => EvaluateRequest.safeParse(body).success));
  });

  it("gives the same output for the same input", () => {
    fc.assert(
      fc.property(request, (body) => {
        const input = EvaluateRequest.parse(body);
        const again = EvaluateRequest.parse(structuredClone(body));
        expect(evaluateAeo2(again)).toEqual(evaluateAeo2(input));
        expect(JSON.stringify(evaluateAeo2(input))).toBe(JSON.stringify(evaluateAeo2(input)));
      }),
    );
  });

  it("keeps every score within 0 to 100, as integers", () => {
    fc.assert(
      fc.property(request, (body) => {
        const out = evaluateAeo2(EvaluateRequest.parse(body));
        for (const c of out.citations) expect(inRange(c.score)).toBe(true);
        for (const e of out.evidence) expect(inRange(e.score)).toBe(true);
        expect(inRange(out.revenue.score)).toBe(true);
        for (const value of Object.values(out.revenue.components)) expect(inRange(value)).toBe(true);
        for (const r of out.recommendations) expect(r.impact > 0 && r.impact <= 100).toBe(true);
      }),
    );
  });

  // parsing strips what the schema does not name: an answer with a field it lacks is not equal
  it("answers exactly the published output schema", () => {
    fc.assert(
      fc.property(request, (body) => {
        const out = evaluateAeo2(EvaluateRequest.parse(body));
        expect(EvaluationOutput.parse(out)).toEqual(out);
      }),
    );
  });

  it("answers one citation and one evidence result per input item", () => {
    fc.assert(
      fc.property(request, (body) => {
        const out = evaluateAeo2(EvaluateRequest.parse(body));
        expect(out.citations).toHaveLength(body.citations?.length ?? 0);
        expect(out.evidence).toHaveLength(body.evidence?.length ?? 0);
      }),
    );
  });

  it("keeps labels, bands and order consistent with the scores", () => {
    fc.assert(
      fc.property(request, (body) => {
        const out = evaluateAeo2(EvaluateRequest.parse(body));
        for (const c of out.citations) {
          expect(CITATION_LABELS).toContain(c.label);
          expect(c.isCited).toBe(c.label === "verified_url");
          if (c.label === "competitor_cited" || c.label === "not_cited") expect(c.score).toBe(0);
          if (c.isCited) expect(c.score).toBeGreaterThanOrEqual(50);
        }
        for (const e of out.evidence) expect(e.band).toBe(bandFor(e.score));
        const impacts = out.recommendations.map((r) => r.impact);
        expect(impacts).toEqual([...impacts].sort((a, b) => b - a));
        expect(new Set(out.recommendations.map((r) => r.id)).size).toBe(out.recommendations.length);
        if (out.revenue.estimate) {
          for (const value of Object.values(out.revenue.estimate)) expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it("accepts a ratio exactly when it lies in 0..1", () => {
    fc.assert(
      fc.property(revenue, fc.double({ min: -2, max: 3, noNaN: true }), (funnel, value) => {
        const parsed = EvaluateRequest.safeParse({ revenue: { ...funnel, grossMargin: value } });
        expect(parsed.success).toBe(value >= 0 && value <= 1);
      }),
    );
  });
});
