import { loadConfig } from "@scan/gateway";
import { resolveChromiumPath } from "@scan/scanner";
import { type Browser, chromium } from "playwright-core";
import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { stopContainers } from "./support/services";
import type { ApiResponse } from "./support/stack";

/**
 * CORS: no origin is allowed by default; the origins in CORS_ORIGINS get their preflights
 * answered 204 and every answer (errors included) readable, for the API and the tool server;
 * other origins' preflights are 403 without a CORS header. Preflights are never counted.
 * A real browser on an allowed and on a refused origin proves it end to end.
 */

jest.setTimeout(300_000);

const PAGE_ORIGIN_HEADERS = {
  "access-control-request-method": "POST",
  "access-control-request-headers": "x-api-key, content-type, idempotency-key",
};

afterAll(() => stopContainers());

const preflight = (ctx: AccountsApi, path: string, origin: string, from?: string) =>
  ctx.call(path, { method: "OPTIONS", headers: { origin, ...PAGE_ORIGIN_HEADERS }, ...(from ? { from } : {}) });

const expectNoCors = (response: ApiResponse) => {
  for (const name of [
    "access-control-allow-origin",
    "access-control-allow-methods",
    "access-control-allow-headers",
    "access-control-expose-headers",
  ]) {
    expect([name, response.headers.get(name)]).toEqual([name, null]);
  }
};

describe("CORS by default: no origin", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startAccountsApi();
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("refuses every preflight with 403 in the envelope and no CORS header", async () => {
    for (const path of ["/api/v1/scan", "/api/v1/sites", "/mcp", "/mcp/sse"]) {
      const response = await preflight(ctx, path, "https://app.example.com");
      expect([path, response.status]).toEqual([path, 403]);
      expect(body(response)).toEqual({
        ok: false,
        error: {
          code: "forbidden",
          message: "Browsers may not call this API from other origins (https://app.example.com): no origin is allowed",
          hint: expect.stringContaining("CORS_ORIGINS"),
        },
      });
      expectNoCors(response);
      // nothing to vary on when no origin is ever allowed
      expect(response.headers.get("vary")).toBeNull();
    }
  });

  it("answers requests that carry an Origin as before, without CORS headers", async () => {
    const account = await createAccount(ctx.stack.db);
    const response = await ctx.call("/api/v1/sites", {
      headers: { origin: "https://app.example.com", "x-api-key": account.key },
    });
    expect(response.status).toBe(200);
    expectNoCors(response);
  });

  it("leaves OPTIONS that is no preflight, and paths outside the API, as they were: 405", async () => {
    const plain = await ctx.call("/api/v1/scan", { method: "OPTIONS" });
    expect(plain.status).toBe(405);
    expect(plain.headers.get("allow")).toBe("POST");
    const probe = await ctx.call("/healthz", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", ...PAGE_ORIGIN_HEADERS },
    });
    expect(probe.status).toBe(405);
    expectNoCors(probe);
  });
});

describe("CORS with allowed origins", () => {
  let app: FixtureServer;
  let stranger: FixtureServer;
  let ctx: AccountsApi;
  let account: TestAccount;
  let browser: Browser;
  const ALLOWED = "https://app.example.com";

  beforeAll(async () => {
    // two web pages on origins of their own: one allowed, one not
    const page = html("<!doctype html><title>A page of another origin</title><p>calling the API</p>");
    app = await startFixtureServer({ "/": page });
    stranger = await startFixtureServer({ "/": page });
    ctx = await startAccountsApi({ CORS_ORIGINS: `${ALLOWED}, ${app.origin}`, RATE_LIMIT_ANONYMOUS: "5" });
    account = await createAccount(ctx.stack.db, "pro");
    const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
    browser = await chromium.launch({ executablePath: resolveChromiumPath(undefined), args });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    await app?.close();
    await stranger?.close();
  });

  it("answers an allowed origin's preflight 204 with the methods and headers, for the API and the tool server", async () => {
    for (const path of [
      "/api/v1/scan",
      "/api/v1/sites",
      "/api/v1/scan/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11",
      "/api/v1/no-such-path",
      "/mcp",
      "/mcp/sse",
    ]) {
      const response = await preflight(ctx, path, ALLOWED);
      expect([path, response.status]).toEqual([path, 204]);
      expect(response.body).toBe("");
      expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
      const allowed = (response.headers.get("access-control-allow-headers") ?? "").split(", ");
      expect(allowed).toEqual(
        expect.arrayContaining([
          "Authorization",
          "X-API-Key",
          "Content-Type",
          "Idempotency-Key",
          "If-None-Match",
          "Prefer",
          "X-Response-Form",
        ]),
      );
      expect(response.headers.get("access-control-max-age")).toBe("600");
      expect(response.headers.get("vary")).toContain("Origin");
      // no cookies anywhere: credentials mode stays off
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("refuses another origin's preflight with 403 and no CORS header", async () => {
    for (const origin of [
      "https://evil.example",
      "https://app.example.com.evil.example",
      "null",
      "http://app.example.com",
    ]) {
      const response = await preflight(ctx, "/api/v1/sites", origin);
      expect([origin, response.status]).toEqual([origin, 403]);
      expect(body(response).error.message).toBe(
        `Browsers may not call this API from ${origin}: the origin is not among the allowed ones`,
      );
      expectNoCors(response);
      expect(response.headers.get("vary")).toContain("Origin");
    }
  });

  it("never counts a preflight against the rate limit", async () => {
    const from = "198.51.200.7";
    for (let i = 0; i < 12; i++) {
      const response = await preflight(ctx, "/api/v1/scan", ALLOWED, from);
      expect(response.status).toBe(204);
      // the address's counter, shown and not spent
      expect(response.headers.get("x-ratelimit-limit")).toBe("5");
      expect(response.headers.get("x-ratelimit-remaining")).toBe("5");
    }
    const scan = await ctx.scanWith({ prefer: "respond-async" }, from);
    expect(scan.status).toBe(202);
    expect(scan.headers.get("x-ratelimit-remaining")).toBe("4");
  });

  it("lets an allowed origin read every answer, errors included, and its headers", async () => {
    const ok = await ctx.call("/api/v1/sites", { headers: { origin: ALLOWED, "x-api-key": account.key } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const exposed = (ok.headers.get("access-control-expose-headers") ?? "").split(", ");
    expect(exposed).toEqual(
      expect.arrayContaining([
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "Retry-After",
        "ETag",
        "Link",
        "Location",
        "X-Request-Id",
        "Idempotent-Replayed",
      ]),
    );
    expect(ok.headers.get("vary")).toContain("Origin");
    const refused = await ctx.call("/api/v1/sites", { headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    // another origin is answered (the server cannot tell a browser from a script) but not allowed to read it
    const other = await ctx.call("/api/v1/sites", {
      headers: { origin: "https://evil.example", "x-api-key": account.key },
    });
    expect(other.status).toBe(200);
    expectNoCors(other);
    expect(other.headers.get("vary")).toContain("Origin");
  });

  it("works from a real browser page on an allowed origin, and fails on another", async () => {
    const callFrom = async (origin: string) => {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        return await page.evaluate(
          async ({ base, key }) => {
            try {
              const response = await fetch(`${base}/api/v1/sites`, {
                method: "POST",
                headers: { "content-type": "application/json", "x-api-key": key, "idempotency-key": "browser-1" },
                body: JSON.stringify({ url: "https://from-a-page.example" }),
              });
              const list = await fetch(`${base}/api/v1/sites?limit=1`, { headers: { "x-api-key": key } });
              return {
                status: response.status,
                remaining: response.headers.get("x-ratelimit-remaining"),
                link: list.headers.get("link"),
                etag: list.headers.get("etag"),
              };
            } catch (error) {
              return { error: String(error) };
            }
          },
          { base: ctx.stack.gateway.url, key: account.key },
        );
      } finally {
        await page.close();
      }
    };
    const allowed = await callFrom(app.origin);
    expect(allowed).toEqual({
      status: 201,
      remaining: expect.stringMatching(/^\d+$/),
      link: expect.stringContaining('rel="last"'),
      etag: expect.stringMatching(/^W\//),
    });
    const refused = await callFrom(stranger.origin);
    expect(refused).toEqual({ error: expect.stringContaining("Failed to fetch") });
  });
});

describe("CORS_ORIGINS", () => {
  const env = { DATABASE_URL: "postgresql://x@127.0.0.1/x", REDIS_URL: "redis://127.0.0.1:6379" };

  it("takes exact origins or * and refuses anything else, naming the variable", () => {
    expect(loadConfig({ ...env }).CORS_ORIGINS).toEqual([]);
    expect(
      loadConfig({ ...env, CORS_ORIGINS: " https://app.example.com , http://localhost:5173/ " }).CORS_ORIGINS,
    ).toEqual(["https://app.example.com", "http://localhost:5173"]);
    expect(loadConfig({ ...env, CORS_ORIGINS: "*" }).CORS_ORIGINS).toEqual(["*"]);
    for (const [value, message] of [
      ["https://app.example.com/path", "write it as https://app.example.com"],
      ["https://App.Example.com", "write it as https://app.example.com"],
      ["https://app.example.com:443", "write it as https://app.example.com"],
      ["app.example.com", "is not an http(s) origin"],
      ["ftp://files.example.com", "is not an http(s) origin"],
      ["*, https://app.example.com", "give it alone"],
    ]) {
      expect(() => loadConfig({ ...env, CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
      expect(() => loadConfig({ ...env, CORS_ORIGINS: value })).toThrow(message);
    }
  });
});
