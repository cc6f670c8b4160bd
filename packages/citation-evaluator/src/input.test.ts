import { EvaluateRequest, MAX_CITATIONS, MAX_EVIDENCE } from "./input";

const citation = { brandName: "Acme", targetUrl: "https://acme.com/" };
const revenue = {
  monthlyAiImpressions: 1000,
  conversionRate: 0.5,
  revenuePerConversion: 20,
  grossMargin: 0.5,
  attributionCoverage: 0.5,
};
const errorsOf = (body: unknown): string[] => {
  const parsed = EvaluateRequest.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("EvaluateRequest", () => {
  it("takes an empty body: all three fields are optional, null is absent", () => {
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ citations: null, evidence: null, revenue: null })).toEqual([]);
  });

  it.each([
    ["citations", MAX_CITATIONS, citation],
    ["evidence", MAX_EVIDENCE, { supportsClaim: true }],
  ])("takes %s up to %i items and refuses one more", (field, max, item) => {
    expect(errorsOf({ [field]: Array.from({ length: max }, () => item) })).toEqual([]);
    expect(errorsOf({ [field]: Array.from({ length: max + 1 }, () => item) })).toEqual([
      `${field}: must hold at most ${max} ${field === "citations" ? "citations" : "evidence items"}`,
    ]);
  });

  describe.each(["conversionRate", "grossMargin", "attributionCoverage"])("ratio %s", (field) => {
    it.each([0, 1, 0.5])("takes %d", (value) => {
      expect(errorsOf({ revenue: { ...revenue, [field]: value } })).toEqual([]);
    });
    it.each([-0.01, 1.01, 100])("refuses %d", (value) => {
      expect(errorsOf({ revenue: { ...revenue, [field]: value } })).toEqual([
        `revenue.${field}: must be a decimal from 0 to 1`,
      ]);
    });
    it("refuses a string", () => {
      expect(errorsOf({ revenue: { ...revenue, [field]: "0.5" } })).toEqual([`revenue.${field}: must be a number`]);
    });
  });

  it("requires the whole funnel when revenue is sent", () => {
    expect(errorsOf({ revenue: { conversionRate: 0.2 } })).toEqual([
      "revenue.monthlyAiImpressions: must be a number",
      "revenue.revenuePerConversion: must be a number",
      "revenue.grossMargin: must be a number",
      "revenue.attributionCoverage: must be a number",
    ]);
    expect(errorsOf({ revenue: { ...revenue, monthlyAiImpressions: -1 } })).toEqual([
      "revenue.monthlyAiImpressions: must be 0 or more",
    ]);
  });

  it.each([
    ["citations.0.targetUrl", { citations: [{ ...citation, targetUrl: "acme.com" }] }],
    ["citations.0.targetUrl", { citations: [{ ...citation, targetUrl: "ftp://acme.com/" }] }],
    ["citations.0.citedSources.0.url", { citations: [{ ...citation, citedSources: [{ url: "http://" }] }] }],
    ["evidence.0.url", { evidence: [{ url: "" }] }],
    ["evidence.0.url", { evidence: [{ url: "javascript:alert(1)" }] }],
  ])("refuses an invalid URL at %s", (path, body) => {
    expect(errorsOf(body)).toEqual([`${path}: must be a valid absolute http(s) URL`]);
  });

  it("requires brandName and targetUrl on a citation", () => {
    expect(errorsOf({ citations: [{}] })).toEqual([
      "citations.0.brandName: is required: the brand whose visibility is measured",
      "citations.0.targetUrl: must be a valid absolute http(s) URL",
    ]);
    expect(errorsOf({ citations: [{ ...citation, brandName: "  " }] })).toEqual([
      "citations.0.brandName: must not be empty",
    ]);
  });

  it("takes positions from 1 as integers", () => {
    expect(errorsOf({ citations: [{ ...citation, position: 1 }] })).toEqual([]);
    expect(errorsOf({ citations: [{ ...citation, position: 0 }] })).toEqual([
      "citations.0.position: must be 1 or more (1 = first); omit it when the brand is not ranked",
    ]);
    expect(errorsOf({ citations: [{ ...citation, position: 1.5 }] })).toEqual([
      "citations.0.position: must be an integer",
    ]);
  });

  it("refuses unknown fields at every level", () => {
    expect(errorsOf({ citation: [] })).toEqual([': Unrecognized key: "citation"']);
    expect(errorsOf({ citations: [{ ...citation, brand: "x" }] })).toEqual(['citations.0: Unrecognized key: "brand"']);
    expect(errorsOf({ evidence: [{ supports: true }] })).toEqual(['evidence.0: Unrecognized key: "supports"']);
    expect(errorsOf({ revenue: { ...revenue, currency: "EUR" } })).toEqual(['revenue: Unrecognized key: "currency"']);
  });

  it("takes a stored run by runId instead of citations, not beside them", () => {
    const runId = "0b1c2d3e-4f50-4a6b-8c7d-8e9fa0b1c2d3";
    expect(errorsOf({ runId, evidence: [{ supportsClaim: true }] })).toEqual([]);
    expect(errorsOf({ runId: "run-1" })).toEqual(["runId: must be a visibility run id (a UUID)"]);
    expect(errorsOf({ runId, citations: [citation] })).toEqual([
      "runId: send citations or runId, not both: a run's answers are its citations",
    ]);
  });

  it("refuses a wrong type for the supportsClaim flag", () => {
    expect(errorsOf({ evidence: [{ supportsClaim: "yes" }] })).toEqual([
      "evidence.0.supportsClaim: must be true or false",
    ]);
  });
});
