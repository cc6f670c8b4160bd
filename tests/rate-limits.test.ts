import { generateApiKey } from "@scan/platform";
import { createAccount, untilKeyDropped } from "./support/accounts";
import {
  type AccountsApi,
  body,
  type CallInit,
  expectRateHeaders,
  freshAddress,
  MISSING_SCAN,
  nowS,
  startAccountsApi,
} from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Rate limits (docs/spec/public-scanning-api.md §8) in one gateway: headers on every answer, 429 with Retry-After in both
 * forms, the plan table, the anonymous limit per client address, refused credentials, and
 * X-Forwarded-For with and without a trusted proxy. Counting across processes is in
 * rate-limit-processes.test.ts.
 */

// containers (when testcontainers provides the services) outlive every describe of the file
afterAll(() => stopContainers());

describe("rate limits", () => {
  let ctx: AccountsApi;
  const call = (path: string, init?: CallInit) => ctx.call(path, init);
  const scanWith = (headers: Record<string, string>, from?: string) => ctx.scanWith(headers, from);
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startAccountsApi();
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("carry X-RateLimit-* on successes and errors, counting down per key", async () => {
    const account = await createAccount(stack.db);
    const key = { "x-api-key": account.key };
    const responses = [
      await scanWith(key),
      await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: key }),
      await call("/api/v1/scan/not-a-uuid", { headers: key }),
      await call("/api/v1/scan", { method: "PUT", headers: key }),
      await call("/api/v1/nothing-here", { headers: key }),
      await call("/api/v1/scan", { rawBody: "{", headers: { ...key, "x-response-form": "B" } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([202, 404, 400, 405, 404, 400]);
    const remaining = responses.map((r) => expectRateHeaders(r, 10));
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4]);
    const resets = new Set(responses.map((r) => r.headers.get("x-ratelimit-reset")));
    expect(resets.size).toBeLessThanOrEqual(2);
    // outside /api/v1 (and on unknown paths there is none): the key's counter is shown, not spent
    const health = await api(stack.gateway.url, "/healthz", { headers: key });
    expect(expectRateHeaders(health, 10)).toBe(4);
    const missing = await api(stack.gateway.url, "/nothing-here", { headers: key });
    expect(missing.status).toBe(404);
    expect(expectRateHeaders(missing, 10)).toBe(4);
    const anonymous = await api(stack.gateway.url, "/healthz");
    // anonymous callers: their address's allowance (10 an hour by default)
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("10");
  });

  it("answer 429 with Retry-After in whole seconds, in both forms, once a key's hour is spent", async () => {
    const account = await createAccount(stack.db);
    const key = { "x-api-key": account.key };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: key })).status);
    expect(statuses).toEqual(Array(10).fill(404));
    const a = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: key });
    expect(a.status).toBe(429);
    expect(body(a)).toEqual({
      ok: false,
      error: {
        code: "rate_limited",
        message: expect.stringMatching(/10 requests per hour/),
        hint: expect.any(String),
      },
    });
    const b = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { ...key, "x-response-form": "B" } });
    expect(b.status).toBe(429);
    expect(body(b)).toEqual({ error: expect.any(String), code: "RATE_LIMITED" });
    for (const response of [a, b]) {
      const retryAfter = response.headers.get("retry-after") as string;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(3_600);
      expect(expectRateHeaders(response, 10)).toBe(0);
      expect(Number(response.headers.get("x-ratelimit-reset")) - nowS()).toBeGreaterThanOrEqual(Number(retryAfter) - 1);
    }
    // another key of another user is untouched
    const other = await createAccount(stack.db);
    expect((await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": other.key } })).status).toBe(404);
  });

  it("follow the plan table, and a plan change applies at once", async () => {
    for (const [plan, limit] of [
      ["starter", 100],
      ["pro", 1_000],
      ["agency", 10_000],
    ] as const) {
      const account = await createAccount(stack.db, plan);
      const response = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
    }
    const account = await createAccount(stack.db, "free");
    await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
    await stack.db.user.update({ where: { id: account.user.id }, data: { plan: "starter" } });
    // the gateway hears of the change through Postgres NOTIFY (its key cache drops the key)
    await untilKeyDropped(stack.gateway, account.key);
    const upgraded = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
    expect(upgraded.headers.get("x-ratelimit-limit")).toBe("100");
    expect(upgraded.headers.get("x-ratelimit-remaining")).toBe("98");
  });

  it("count the key endpoints per user, by plan", async () => {
    const account = await createAccount(stack.db, "starter");
    const auth = { authorization: `Bearer ${account.token}` };
    const first = await call("/api/v1/keys", { headers: auth });
    const second = await call("/api/v1/keys", { headers: { ...auth, "x-response-form": "B" } });
    expect(expectRateHeaders(first, 100)).toBe(99);
    expect(expectRateHeaders(second, 100)).toBe(98);
    // the user's API key has a count of its own
    const keyed = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
    expect(expectRateHeaders(keyed, 100)).toBe(99);
  });

  it("allow 10 anonymous requests per hour per client address; another address is unaffected", async () => {
    const from = freshAddress();
    const first = await scanWith({}, from);
    expect(first.status).toBe(202);
    expect(expectRateHeaders(first, 10)).toBe(9);
    for (let i = 0; i < 9; i++) {
      expect((await call("/api/v1/scan", { body: {}, from })).status).toBe(400);
    }
    const a = await scanWith({}, from);
    expect(a.status).toBe(429);
    expect(body(a).error.code).toBe("rate_limited");
    expect(a.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const b = await scanWith({ "x-response-form": "B" }, from);
    expect(body(b)).toEqual({ error: expect.any(String), code: "RATE_LIMITED" });
    expect((await scanWith({})).status).toBe(202);
  });

  it("count refused credentials against the caller's anonymous allowance", async () => {
    const from = freshAddress();
    const forged = generateApiKey().key;
    for (let i = 0; i < 10; i++) {
      const response = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": forged }, from });
      expect(response.status).toBe(401);
      expect(expectRateHeaders(response, 10)).toBe(9 - i);
    }
    const blocked = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": forged }, from });
    expect(blocked.status).toBe(429);
    expect((await scanWith({}, from)).status).toBe(429);
  });

  it("behind the trusted proxy, entries the client puts in X-Forwarded-For buy no more requests", async () => {
    const client = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      // the client's forged entry first, then the address the trusted proxy saw
      const response = await call("/api/v1/scan", {
        body: {},
        headers: { "x-forwarded-for": `10.9.8.${i}, ${client}` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });
});

describe("client address without a trusted proxy", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("ignores X-Forwarded-For: a forged one does not buy an anonymous caller more scans", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await api(stack.gateway.url, "/api/v1/scan", {
        body: {},
        headers: { "x-forwarded-for": `203.0.113.${i + 1}`, "x-real-ip": `203.0.113.${i + 1}` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
  });
});
