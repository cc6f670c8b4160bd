import { createHmac, generateKeyPairSync } from "node:crypto";
import { type FixtureServer, html, startFixtureServer } from "./fixture-server";
import { createTestDatabase, type TestDatabase, testRedisUrl } from "./services";
import { type ApiResponse, api, type Stack, startStack } from "./stack";

/** Helpers shared by the tests of accounts, keys, ownership, quotas and rate limits. */

export type Envelope = { ok?: boolean; success?: boolean; data?: any; meta?: any; error?: any; code?: string };
export const body = (response: ApiResponse) => response.body as Envelope;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const MISSING_SCAN = "7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11";

export const nowS = () => Math.floor(Date.now() / 1000);

let lastAddress = 0;
/** A client address no other test of the file uses, so anonymous allowances never mix. */
export const freshAddress = () => {
  lastAddress += 1;
  return `198.51.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
};

export const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
/** A JWT put together by hand, as an attacker would. */
export const forgeToken = (header: object, payload: object, sign: (input: string) => string) => {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign(input)}`;
};
export const hmac = (secret: string) => (input: string) =>
  createHmac("sha256", secret).update(input).digest("base64url");

let rsaPair: { publicKey: string; privateKey: string } | null = null;
export const rsaKeys = () => {
  rsaPair ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return rsaPair;
};

/** Checks the X-RateLimit-* headers and answers Remaining. */
export const expectRateHeaders = (response: ApiResponse, limit: number) => {
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  const remaining = Number(response.headers.get("x-ratelimit-remaining"));
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining <= limit).toBe(true);
  const reset = Number(response.headers.get("x-ratelimit-reset"));
  // epoch seconds, within the one-hour window
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(nowS());
  expect(reset).toBeLessThanOrEqual(nowS() + 3_601);
  return remaining;
};

/** `a` in Form A and `b` in Form B are both 401 with this message. */
export const expectUnauthenticated = (a: ApiResponse, b: ApiResponse, message: RegExp) => {
  expect(a.status).toBe(401);
  expect(body(a)).toEqual({
    ok: false,
    error: { code: "unauthenticated", message: expect.stringMatching(message), hint: expect.any(String) },
  });
  expect(b.status).toBe(401);
  expect(body(b)).toEqual({ error: expect.stringMatching(message), code: "INVALID_API_KEY" });
};

export type CallInit = {
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** the client address the trusted proxy reports; a fresh one by default */
  from?: string;
};

export type AccountsApi = {
  stack: Stack;
  site: FixtureServer;
  database: TestDatabase;
  call: (path: string, init?: CallInit) => Promise<ApiResponse>;
  /** POST /api/v1/scan of the fixture page */
  scanWith: (headers: Record<string, string>, from?: string) => Promise<ApiResponse>;
  close: () => Promise<void>;
};

/**
 * The real gateway (no worker: scans are stored and queued, and POST answers 202 at once)
 * behind one trusted proxy (TRUST_PROXY=1), so each request can come from a client address
 * of its own through the X-Forwarded-For a proxy would add.
 */
export const startAccountsApi = async (env: Record<string, string> = {}): Promise<AccountsApi> => {
  const site = await startFixtureServer({ "/page": html("<!doctype html><title>A page</title><h1>A page</h1>") });
  const database = await createTestDatabase();
  const stack = await startStack({
    databaseUrl: database.url,
    redisUrl: await testRedisUrl(),
    allowlist: [site.hostPort],
    worker: false,
    env: { SCAN_WAIT_MS: "1", TRUST_PROXY: "1", ...env },
  });
  const call = (path: string, init: CallInit = {}) =>
    api(stack.gateway.url, path, {
      ...init,
      headers: { "x-forwarded-for": init.from ?? freshAddress(), ...init.headers },
    });
  const scanWith = (headers: Record<string, string>, from?: string) =>
    call("/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" }, headers, ...(from ? { from } : {}) });
  return {
    stack,
    site,
    database,
    call,
    scanWith,
    close: async () => {
      await stack.close();
      await site.close();
      await database.drop();
    },
  };
};
