import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import type { ApiResponse } from "./support/stack";

/**
 * What a dashboard session spends (docs/api.md, Rate limits): its reads are counted on the
 * session's own budget (RATE_LIMIT_SESSION_READS) and never the plan's hourly allowance; a scan
 * started from the dashboard is one request of the plan, as over the API; an API key's
 * allowance is what it always was.
 */

afterAll(() => stopContainers());

const SESSION_READS = 40;
const FREE = 10;

describe("the dashboard and the hourly allowance", () => {
  let ctx: AccountsApi;

  /** A signed-up Free user's browser and its session's JWT, as the dashboard holds them. */
  const signedUp = async () => {
    const browser = new Browser(ctx.stack.gateway.url);
    expect((await browser.signUp(freshEmail(), PASSWORD)).status).toBe(201);
    const jwt = await browser.token();
    const call = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      ctx.call(path, { ...init, from: browser.from, headers: { authorization: `Bearer ${jwt}`, ...init.headers } });
    return { browser, call };
  };
  const scanBody = () => ({ url: ctx.site.url("/page"), mode: "quick" });
  const accountWindow = (response: ApiResponse) =>
    body(response).data.rateLimit as { limit: number; remaining: number };

  beforeAll(async () => {
    ctx = await startAccountsApi({
      SIGN_UP: "open",
      RATE_LIMIT_SESSION_READS: String(SESSION_READS),
      RATE_LIMIT_FREE: String(FREE),
    });
  }, 60_000);
  afterAll(() => ctx?.close());

  it("reads with a session spend the session's budget, never the plan's", async () => {
    const { call } = await signedUp();
    // three times the plan's hourly allowance of page loads: every one answers
    for (let n = 1; n <= FREE * 3; n += 1) {
      const path = ["/api/v1/scans", "/api/v1/sites", "/api/v1/keywords"][n % 3] as string;
      const response = await call(path);
      expect([n, path, response.status]).toEqual([n, path, 200]);
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(SESSION_READS));
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(SESSION_READS - n));
    }
    // the Account page shows the plan's window, still whole
    const account = await call("/api/v1/account");
    expect(accountWindow(account)).toMatchObject({ limit: FREE, remaining: FREE });
  });

  it("a scan started from the dashboard is one request of the plan, and its following reads cost the plan nothing", async () => {
    const { call } = await signedUp();
    const started = await call("/api/v1/scan", { body: scanBody(), headers: { prefer: "respond-async" } });
    expect(started.status).toBe(202);
    expect(started.headers.get("x-ratelimit-limit")).toBe(String(FREE));
    expect(started.headers.get("x-ratelimit-remaining")).toBe(String(FREE - 1));
    const id = body(started).data.id as string;
    for (let n = 0; n < 5; n += 1) expect((await call(`/api/v1/scan/${id}`)).status).toBe(200);
    expect(accountWindow(await call("/api/v1/account"))).toMatchObject({ limit: FREE, remaining: FREE - 1 });
  });

  it("once the plan's allowance is spent, scans are refused with the wait in words while every page still reads", async () => {
    const { call } = await signedUp();
    for (let n = 1; n <= FREE; n += 1) {
      const response = await call("/api/v1/scan", { body: scanBody(), headers: { prefer: "respond-async" } });
      expect([n, response.status]).toEqual([n, 202]);
    }
    const refused = await call("/api/v1/scan", { body: scanBody(), headers: { prefer: "respond-async" } });
    expect(refused.status).toBe(429);
    expect(body(refused).error).toEqual({
      code: "rate_limited",
      message: `Rate limit of ${FREE} requests per hour reached for this user`,
      hint: expect.stringMatching(/^Try again in about (\d+ minutes|an hour)\.$/),
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3_000);
    for (const path of ["/api/v1/scans", "/api/v1/sites", "/api/v1/account"]) {
      expect([path, (await call(path)).status]).toEqual([path, 200]);
    }
    const account = await call("/api/v1/account");
    expect(accountWindow(account)).toMatchObject({ limit: FREE, remaining: 0 });
  });

  it("the session's budget stops a script that reads without end, and says whose budget it is", async () => {
    const { call } = await signedUp();
    for (let n = 1; n <= SESSION_READS; n += 1) expect((await call("/api/v1/scans")).status).toBe(200);
    const refused = await call("/api/v1/scans");
    expect(refused.status).toBe(429);
    expect(body(refused).error.message).toBe(
      `Rate limit of ${SESSION_READS} requests per hour reached for this dashboard session's reads`,
    );
    // a change is still the plan's to count
    const started = await call("/api/v1/scan", { body: scanBody(), headers: { prefer: "respond-async" } });
    expect(started.status).toBe(202);
  });

  it("the Account page answers once the session's reads are spent, spends none of them, and explains the budget", async () => {
    const { call } = await signedUp();
    const before = await call("/api/v1/account");
    expect(before.status).toBe(200);
    expect(body(before).data.sessionReads).toMatchObject({ limit: SESSION_READS, remaining: SESSION_READS });
    expect(before.headers.get("x-ratelimit-remaining")).toBe(String(SESSION_READS));
    for (let n = 1; n <= SESSION_READS; n += 1) expect((await call("/api/v1/scans")).status).toBe(200);
    expect((await call("/api/v1/sites")).status).toBe(429);

    for (const method of ["GET", "HEAD"]) {
      const account = await call("/api/v1/account", { method });
      expect([method, account.status]).toEqual([method, 200]);
      expect(account.headers.get("x-ratelimit-limit")).toBe(String(SESSION_READS));
      expect(account.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(account.headers.get("retry-after")).toBeNull();
    }
    const account = await call("/api/v1/account", { headers: { "x-response-form": "B" } });
    expect(body(account)).toEqual({ success: true, data: expect.any(Object) });
    const view = body(account).data;
    // the session's budget, spent, with when it starts again; the plan's window, untouched
    expect(view.sessionReads).toEqual({ limit: SESSION_READS, remaining: 0, reset: expect.any(Number) });
    expect(view.sessionReads.reset).toBeGreaterThan(Date.now() / 1000);
    expect(view.rateLimit).toMatchObject({ limit: FREE, remaining: FREE });
    // every other read is still refused, the Account page's many loads notwithstanding
    expect((await call("/api/v1/scans")).status).toBe(429);
  });

  it("an API key's allowance is unchanged: every request counts, reads included, and the user's dashboard does not touch it", async () => {
    const { browser, call } = await signedUp();
    const created = await browser.send("/api/v1/keys", {
      body: { name: "ci" },
      headers: { authorization: `Bearer ${await browser.token()}` },
    });
    expect(created.status).toBe(201);
    const key = body(created).data.key as string;
    const withKey = (path: string) => ctx.call(path, { headers: { "x-api-key": key } });
    // the dashboard reads many times meanwhile
    for (let n = 0; n < FREE * 2; n += 1) expect((await call("/api/v1/scans")).status).toBe(200);
    for (let n = 1; n <= FREE; n += 1) {
      const response = await withKey("/api/v1/scans");
      expect([n, response.status, response.headers.get("x-ratelimit-remaining")]).toEqual([n, 200, String(FREE - n)]);
    }
    const refused = await withKey("/api/v1/account");
    expect(refused.status).toBe(429);
    expect(body(refused).error.message).toBe(`Rate limit of ${FREE} requests per hour reached for this API key`);
  });
});
