import { networkInterfaces } from "node:os";
import { rawRequest, statusOf } from "./support/raw-http";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * "HTTPS only in production" (spec §1): plain-HTTP requests refused (pages redirected), HSTS on
 * HTTPS answers, X-Forwarded-Proto believed only from the trusted proxy hops, probes and metrics
 * reachable over plain HTTP. The gateway speaks plain HTTP itself; HTTPS arrives through a
 * TLS-terminating proxy, which these tests play by sending its header.
 */

type Envelope = { ok?: boolean; error?: { code: string; message: string; hint: string } | string; code?: string };

let database: TestDatabase;
let redisUrl: string;
const stacks: Stack[] = [];

const gatewayWith = async (env: Record<string, string>): Promise<string> => {
  const stack = await startStack({ databaseUrl: database.url, redisUrl, allowlist: [], worker: false, env });
  stacks.push(stack);
  return stack.gateway.url;
};

const hostOf = (base: string) => new URL(base).hostname;

beforeAll(async () => {
  database = await createTestDatabase();
  redisUrl = await testRedisUrl();
});

afterAll(async () => {
  for (const stack of stacks) await stack.close();
  await database?.drop();
  await stopContainers();
});

describe("in production with no trusted proxy", () => {
  let base: string;
  beforeAll(async () => {
    base = await gatewayWith({ NODE_ENV: "production" });
  });

  it("refuses an API call over plain HTTP with 403 in Form A, before looking at its key", async () => {
    const response = await api(base, "/api/v1/scan", {
      body: { url: "https://example.com/" },
      headers: { authorization: "Bearer aeo_live_000000000000000000000000000000000000" },
    });
    expect(response.status).toBe(403);
    const body = response.body as Envelope;
    expect(body.ok).toBe(false);
    expect(body.error).toEqual({
      code: "forbidden",
      message: expect.stringContaining("HTTPS only"),
      hint: expect.stringContaining(`https://${hostOf(base)}/api/v1/scan`),
    });
    // not authenticated, not counted
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("answers Form B with HTTPS_REQUIRED", async () => {
    const response = await api(base, "/api/v1/scans", { headers: { "x-response-form": "B" } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: expect.stringContaining("HTTPS only"), code: "HTTPS_REQUIRED" });
  });

  it("does not believe X-Forwarded-Proto from an untrusted sender", async () => {
    const response = await api(base, "/api/v1/scans", { headers: { "x-forwarded-proto": "https" } });
    expect(response.status).toBe(403);
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("redirects a page read (GET, HEAD) with 308 to the same path and query on https", async () => {
    for (const method of ["GET", "HEAD"]) {
      const response = await fetch(`${base}/docs?tab=scan`, { method, redirect: "manual" });
      expect([method, response.status]).toEqual([method, 308]);
      expect(response.headers.get("location")).toBe(`https://${hostOf(base)}/docs?tab=scan`);
    }
    const spec = await fetch(`${base}/openapi.json`, { redirect: "manual" });
    expect(spec.status).toBe(308);
  });

  it("refuses, not redirects, the tool server and a write to a page", async () => {
    expect((await fetch(`${base}/mcp`, { redirect: "manual" })).status).toBe(403);
    expect((await fetch(`${base}/docs`, { method: "POST", redirect: "manual" })).status).toBe(403);
  });

  it("refuses without redirecting when the Host header is no host name", async () => {
    const answer = await rawRequest(base, "GET /docs HTTP/1.1\r\nHost: evil.example/@x\r\nConnection: close\r\n\r\n");
    expect(statusOf(answer)).toBe(403);
    expect(answer).not.toMatch(/^location:/im);
  });

  it("keeps the probes and /metrics on plain HTTP", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      expect([path, response.headers.get("strict-transport-security")]).toEqual([path, null]);
    }
  });
});

describe("behind one trusted TLS-terminating proxy", () => {
  let base: string;
  beforeAll(async () => {
    base = await gatewayWith({ REQUIRE_HTTPS: "on", TRUST_PROXY: "1", HSTS_MAX_AGE_S: "600" });
  });

  it("serves a request the proxy received over HTTPS, with Strict-Transport-Security", async () => {
    const response = await api(base, "/api/v1/scans", { headers: { "x-forwarded-proto": "https" } });
    // through to authentication: the list wants a key
    expect(response.status).toBe(401);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=600");
    const docs = await fetch(`${base}/docs`, { headers: { "x-forwarded-proto": "https" }, redirect: "manual" });
    expect(docs.status).toBe(200);
    expect(docs.headers.get("strict-transport-security")).toBe("max-age=600");
  });

  it("refuses a request the proxy received over plain HTTP, or did not describe", async () => {
    for (const proto of ["http", undefined]) {
      const headers: Record<string, string> = proto ? { "x-forwarded-proto": proto } : {};
      const response = await api(base, "/api/v1/scans", { headers });
      expect([proto, response.status]).toEqual([proto, 403]);
      expect([proto, response.headers.get("strict-transport-security")]).toEqual([proto, null]);
    }
    const page = await fetch(`${base}/docs`, { headers: { "x-forwarded-proto": "http" }, redirect: "manual" });
    expect(page.status).toBe(308);
  });

  it("believes only the proxy's own value, not a client's claim before it", async () => {
    // the client sent "https"; the proxy, which received plain HTTP, appended "http"
    const spoofed = await api(base, "/api/v1/scans", { headers: { "x-forwarded-proto": "https, http" } });
    expect(spoofed.status).toBe(403);
    const genuine = await api(base, "/api/v1/scans", { headers: { "x-forwarded-proto": "http, https" } });
    expect(genuine.status).toBe(401);
  });

  it("keeps the probes on plain HTTP from inside the cluster", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe("the queue dashboard in production", () => {
  const ADMIN_TOKEN = "https-test-admin-token-0123456789";
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  let base: string;
  beforeAll(async () => {
    // every address of the machine, so that one other than loopback can be tried
    base = await gatewayWith({ NODE_ENV: "production", ADMIN_TOKEN, HOST: "0.0.0.0" });
  });

  it("is served over plain HTTP to a loopback peer, as kubectl port-forward connects", async () => {
    const page = await fetch(`${base}/admin/queues`, { headers: auth, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(page.headers.get("strict-transport-security")).toBeNull();
    // the exception is the dashboard's alone
    expect((await api(base, "/api/v1/scans")).status).toBe(403);
    expect((await fetch(`${base}/docs`, { redirect: "manual" })).status).toBe(308);
  });

  it("is not served over plain HTTP to any other peer", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    // a machine with no address but loopback has no other peer to try
    if (!external) return;
    const other = `http://${external.address}:${new URL(base).port}`;
    const page = await fetch(`${other}/admin/queues`, { headers: auth, redirect: "manual" });
    expect(page.status).toBe(308);
    expect(page.headers.get("location")).toBe(`https://${external.address}/admin/queues`);
    const call = await fetch(`${other}/admin/queues/api/queues`, { method: "PUT", headers: auth, redirect: "manual" });
    expect(call.status).toBe(403);
  });
});

describe("outside production", () => {
  it("serves plain HTTP and sends no HSTS by default, and when REQUIRE_HTTPS=off in production", async () => {
    const envs: Array<Record<string, string>> = [{}, { NODE_ENV: "production", REQUIRE_HTTPS: "off" }];
    for (const env of envs) {
      const base = await gatewayWith(env);
      const response = await api(base, "/api/v1/scans");
      expect([env, response.status]).toEqual([env, 401]);
      expect([env, response.headers.get("strict-transport-security")]).toEqual([env, null]);
    }
  });
});
