import { createAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api as rawApi, type Stack, startStack } from "./support/stack";

/**
 * POST /api/v1/aeo-2/evaluate through the real gateway (docs/spec/public-scanning-api.md §2.7, §4.2): both envelopes, the
 * limits, the ratio bounds and the 400s in each form. The evaluator needs no worker.
 */

type Envelope = { ok?: boolean; success?: boolean; data?: any; meta?: any; error?: any; code?: string };
const body = (response: { body: unknown }) => response.body as Envelope;

const PATH = "/api/v1/aeo-2/evaluate";
const PROVENANCE = expect.stringMatching(/deterministic.*does not .*verify.*provenance/i);

const citation = {
  brandName: "Acme",
  targetUrl: "https://www.acme.com/pricing",
  responseText: "For anvils, Acme is the usual choice.",
  citedSources: [{ url: "https://docs.acme.com/anvils", sourceType: "primary" }],
  position: 1,
};
const competitorCitation = {
  brandName: "Acme",
  targetUrl: "https://acme.com/",
  responseText: "Rival sells anvils.",
  citedSources: [{ url: "https://rival.io/anvils", sourceType: "news" }],
};
const evidence = { sourceType: "primary", url: "https://acme.com/study", snippet: "42 % of ...", supportsClaim: true };
const revenue = {
  monthlyAiImpressions: 10_000,
  conversionRate: 0.02,
  revenuePerConversion: 50,
  grossMargin: 0.6,
  attributionCoverage: 0.5,
};
const FULL = { citations: [citation, competitorCitation], evidence: [evidence, { sourceType: "forum" }], revenue };

const formB = { "x-response-form": "B" };

describe("POST /api/v1/aeo-2/evaluate", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let key: string;

  /** every call carries an API key unless the test says otherwise */
  const api = (
    url: string,
    path: string,
    init: Parameters<typeof rawApi>[2] & { anonymous?: boolean } = {},
  ): Promise<ApiResponse> =>
    rawApi(url, path, { ...init, headers: { ...(init.anonymous ? {} : { "x-api-key": key }), ...init.headers } });

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
    });
    base = stack.gateway.url;
    key = (await createAccount(stack.db, "agency")).key;
  }, 300_000);

  it("needs an API key, in both forms", async () => {
    const a = await api(base, PATH, { body: FULL, anonymous: true });
    expect(a.status).toBe(401);
    expect(body(a).error.code).toBe("unauthenticated");
    const b = await api(base, PATH, { body: FULL, anonymous: true, headers: formB });
    expect(b.status).toBe(401);
    expect(body(b)).toEqual({ error: expect.any(String), code: "INVALID_API_KEY" });
  });

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  it("scores observations in Form A with version, provenance and request id", async () => {
    const response = await api(base, PATH, { body: FULL, headers: { "x-request-id": "eval-1" } });
    expect(response.status).toBe(200);
    const { ok, data, meta } = body(response);
    expect(ok).toBe(true);
    expect(meta).toEqual({ version: "2.0", provenance: PROVENANCE, requestId: "eval-1" });
    expect(response.headers.get("x-request-id")).toBe("eval-1");
    expect(data.citations).toEqual([
      { label: "verified_url", score: 100, isCited: true },
      { label: "competitor_cited", score: 0, isCited: false },
    ]);
    expect(data.evidence).toEqual([
      { band: "good", score: 100 },
      { band: "poor", score: 12 },
    ]);
    // visibility 50, rank 100, evidence (100 + 12) / 2 = 56 → round(25 + 20 + 16.8) = 62
    expect(data.revenue).toEqual({
      score: 62,
      components: { visibility: 50, rank: 100, evidence: 56 },
      estimate: {
        visibleImpressions: 5000,
        conversions: 100,
        revenue: 5000,
        grossProfit: 3000,
        attributedGrossProfit: 1500,
        grossProfitUpside: 3000,
      },
    });
    expect(data.recommendations.length).toBeGreaterThan(0);
    for (const item of data.recommendations) {
      expect(item).toEqual({
        id: expect.any(String),
        priority: expect.stringMatching(/^(high|medium|low)$/),
        action: expect.any(String),
        reason: expect.any(String),
        impact: expect.any(Number),
      });
    }
    expect(data.recommendations[0].id).toBe("win-competitor-answers");
  });

  it("answers Form B as {success, data, meta: {version, provenance}} with the same data", async () => {
    const a = await api(base, PATH, { body: FULL });
    const b = await api(base, PATH, { body: FULL, headers: formB });
    expect(b.status).toBe(200);
    expect(Object.keys(body(b)).sort()).toEqual(["data", "meta", "success"]);
    expect(body(b).success).toBe(true);
    expect(body(b).meta).toEqual({ version: "2.0", provenance: PROVENANCE });
    expect(body(b).data).toEqual(body(a).data);
  });

  it("takes an empty object: all three fields are optional", async () => {
    for (const headers of [{}, formB]) {
      const response = await api(base, PATH, { body: {}, headers });
      expect(response.status).toBe(200);
      const { data } = body(response);
      expect(data.citations).toEqual([]);
      expect(data.evidence).toEqual([]);
      expect(data.revenue).toEqual({ score: 0, components: { visibility: 0, rank: 0, evidence: 0 }, estimate: null });
      expect(data.recommendations.map((r: { id: string }) => r.id)).toEqual(["track-citations", "collect-evidence"]);
    }
  });

  it("gives the same answer to the same request", async () => {
    const first = await api(base, PATH, { body: FULL });
    const second = await api(base, PATH, { body: FULL });
    expect(body(second).data).toEqual(body(first).data);
  });

  it("takes 100 citations and 100 evidence items, one result each", async () => {
    const response = await api(base, PATH, {
      body: { citations: Array(100).fill(citation), evidence: Array(100).fill(evidence) },
    });
    expect(response.status).toBe(200);
    expect(body(response).data.citations).toHaveLength(100);
    expect(body(response).data.evidence).toHaveLength(100);
  });

  it("scores a source type named after an Object property as unknown", async () => {
    const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    const response = await api(base, PATH, {
      body: {
        citations: [
          { ...citation, citedSources: names.map((sourceType) => ({ url: citation.targetUrl, sourceType })) },
        ],
        evidence: names.map((sourceType) => ({ sourceType })),
      },
    });
    expect(response.status).toBe(200);
    const unknown = await api(base, PATH, { body: { evidence: [{ sourceType: "blog" }] } });
    for (const item of body(response).data.evidence) expect(item).toEqual(body(unknown).data.evidence[0]);
    expect(Number.isInteger(body(response).data.revenue.score)).toBe(true);
  });

  it.each([
    ["citations", { citations: Array(101).fill(citation) }],
    ["evidence", { evidence: Array(101).fill(evidence) }],
  ])("refuses 101 %s in both forms", async (field, payload) => {
    const a = await api(base, PATH, { body: payload });
    expect(a.status).toBe(400);
    expect(body(a)).toEqual({
      ok: false,
      error: {
        code: "invalid_request",
        message: expect.stringContaining(`${field}: must hold at most 100`),
        hint: expect.any(String),
      },
    });
    const b = await api(base, PATH, { body: payload, headers: formB });
    expect(b.status).toBe(400);
    expect(body(b)).toEqual({
      error: expect.stringContaining(`${field}: must hold at most 100`),
      code: "VALIDATION_ERROR",
    });
  });

  it.each([0, 1])("takes the ratio bound %d", async (value) => {
    const response = await api(base, PATH, {
      body: { revenue: { ...revenue, conversionRate: value, grossMargin: value, attributionCoverage: value } },
    });
    expect(response.status).toBe(200);
  });

  it.each([-0.01, 1.01])("refuses the ratio %d in both forms", async (value) => {
    for (const field of ["conversionRate", "grossMargin", "attributionCoverage"]) {
      const payload = { revenue: { ...revenue, [field]: value } };
      const a = await api(base, PATH, { body: payload });
      expect([a.status, body(a).error?.code]).toEqual([400, "invalid_request"]);
      expect(body(a).error.message).toBe(`revenue.${field}: must be a decimal from 0 to 1`);
      const b = await api(base, PATH, { body: payload, headers: formB });
      expect(body(b)).toEqual({ error: `revenue.${field}: must be a decimal from 0 to 1`, code: "VALIDATION_ERROR" });
      expect(b.status).toBe(400);
    }
  });

  it.each([
    ["an invalid target URL", { citations: [{ ...citation, targetUrl: "acme" }] }, "citations.0.targetUrl"],
    ["an invalid evidence URL", { evidence: [{ ...evidence, url: "not a url" }] }, "evidence.0.url"],
    ["an unknown field", { citation: [] }, 'Unrecognized key: "citation"'],
    ["a citation without a brand", { citations: [{ targetUrl: "https://acme.com/" }] }, "citations.0.brandName"],
    ["a position of 0", { citations: [{ ...citation, position: 0 }] }, "citations.0.position"],
    ["citations that are not an array", { citations: "many" }, "citations"],
  ])("refuses %s with a 400 naming it, in both forms", async (_name, payload, named) => {
    const a = await api(base, PATH, { body: payload });
    expect(a.status).toBe(400);
    expect(body(a).ok).toBe(false);
    expect(body(a).error.code).toBe("invalid_request");
    expect(body(a).error.message).toContain(named);
    const b = await api(base, PATH, { body: payload, headers: formB });
    expect(b.status).toBe(400);
    expect(body(b).code).toBe("VALIDATION_ERROR");
    expect(body(b).error).toContain(named);
  });

  it.each([
    ["A", { ok: false, error: { code: "invalid_request", message: expect.any(String), hint: expect.any(String) } }],
    ["B", { error: expect.any(String), code: "INVALID_JSON" }],
  ])("answers broken JSON with 400 in Form %s", async (form, expected) => {
    const response = await api(base, PATH, { rawBody: '{"citations": [', headers: { "x-response-form": form } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expected);
  });

  it.each([
    ["A", "invalid_request"],
    ["B", "VALIDATION_ERROR"],
  ])("refuses a body that is not a JSON object in Form %s", async (form, code) => {
    for (const init of [{ body: [FULL] }, { rawBody: "citations=1", headers: { "content-type": "text/plain" } }]) {
      const response = await api(base, PATH, { ...init, headers: { ...init.headers, "x-response-form": form } });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain(code);
    }
  });

  it("answers 405 with Allow for other methods", async () => {
    const response = await api(base, PATH, { method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
