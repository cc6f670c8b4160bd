import fc from "fast-check";
import { createAccount } from "./support/accounts";
import { formOf, inEnvelope } from "./support/envelopes";
import { bodyOf, rawRequest, statusOf } from "./support/raw-http";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * Thousands of generated malformed requests to every route the gateway serves: bodies, query
 * strings, path parameters, headers and raw bytes. Whatever arrives, the answer is never a 5xx
 * and always the selected envelope (Form A or B), with the rate-limit headers under /api/v1.
 */

const RUNS_PER_ROUTE = 150;
const FORM_HEADERS = [undefined, "A", "B", "b", " a ", "C", "", "AB"] as const;

type Envelope = Record<string, unknown>;

const STRANGE_STRINGS = [
  "",
  "%",
  "%E0%A4%A",
  "%00",
  "..%2F..%2Fetc%2Fpasswd",
  "' OR 1=1 --",
  "\u0000",
  "\ud800",
  "😀".repeat(50),
  "a".repeat(5_000),
  "-1",
  "0",
  "1e3",
  "101",
  "99999999999999999999999",
  "NaN",
  "null",
  "[]",
  "{}",
  "true",
  "00000000-0000-0000-0000-000000000000",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
];

const strange = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...STRANGE_STRINGS), fc.uuid());

const QUERY_KEYS = ["page", "limit", "q", "site_id", "engine", "date_range", "key", "status", "siteId", "__proto__"];

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 })), strange), { maxLength: 6 })
  .map((pairs) =>
    pairs.length === 0
      ? ""
      : `?${pairs.map(([k, v]) => `${encode(k)}=${k === "q" && v.includes("%") ? wellFormed(v) : encode(v)}`).join("&")}`,
  );

const FIELDS = [
  "url",
  "mode",
  "citations",
  "evidence",
  "revenue",
  "name",
  "keyword",
  "site_id",
  "platform",
  "query_text",
  "cited",
  "citation_url",
  "checked_at",
  "position",
  "volume",
  "difficulty",
  "default_form",
  "callback_url",
  "urls",
];

const value: fc.Arbitrary<unknown> = fc.oneof(
  { maxDepth: 2 },
  strange,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("quick", "full", "chatgpt", "https://example.com/", "http://127.0.0.1/", "ftp://x/", "javascript:1"),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELDS, "sourceType", "brandName", "targetUrl"), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 4,
  }),
);

/** near-valid objects (the route's own field names with wrong values) and plain junk */
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 }).map((object) => JSON.stringify(object)),
  fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)),
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    "[".repeat(3_000),
    `{"url":"${"a".repeat(200_000)}"}`,
    '{"url":"\\u0000"}',
    '{"mode":"quick","url":"http://[::1]/"}',
    `{"citations":${JSON.stringify(Array.from({ length: 101 }, () => ({})))}}`,
    "1".repeat(400),
    '"just a string"',
    "",
  ),
);

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/merge-patch+json",
  undefined,
];

/** percent-encodes anything, lone surrogates included (as U+FFFD, the way a client would send them) */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
const encode = (text: string) => encodeURIComponent(wellFormed(text));

const pathFor = (route: RouteInfo, param: string) => route.path.replace(/:[A-Za-z_]+/g, encode(param));

describe("fuzz: malformed input to every route", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let routes: RouteInfo[];
  let credentials: Record<string, Record<string, string>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      // every request counts against a limit; the fuzz is about input, not limits
      env: { RATE_LIMIT_ANONYMOUS: "1000000", RATE_LIMIT_AGENCY: "1000000", SCAN_WAIT_MS: "1" },
    });
    base = stack.gateway.url;
    routes = gatewayRoutes(stack.gateway.server);
    const account = await createAccount(stack.db, "agency");
    credentials = {
      none: {},
      key: { "x-api-key": account.key },
      bearerKey: { authorization: `Bearer ${account.key}` },
      jwt: { authorization: `Bearer ${account.token}` },
      garbageKey: { "x-api-key": "aeo_live_notarealkeyatall000000000000000000" },
      garbageBearer: { authorization: "Bearer eyJhbGciOiJub25lIn0.e30." },
      basic: { authorization: "Basic dXNlcjpwYXNz" },
    };
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  it("finds the routes to fuzz", () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
  });

  it("never answers a 5xx, and always in the selected envelope", async () => {
    const failures: string[] = [];
    let sent = 0;
    // unknown paths too: they must be 401/404 in the envelope like everything else
    const targets: RouteInfo[] = [
      ...routes,
      { method: "GET", path: "/api/v1/:id" },
      { method: "PATCH", path: "/api/v1/scan/:id" },
      { method: "PUT", path: "/api/v1/sites" },
      { method: "GET", path: "/:id" },
    ];
    for (const route of targets) {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            param: strange,
            query,
            body,
            contentType: fc.constantFrom(...CONTENT_TYPES),
            form: fc.constantFrom(...FORM_HEADERS),
            auth: fc.constantFrom(...Object.keys(credentials)),
            requestId: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 120 })),
            prefer: fc.constantFrom(undefined, "respond-async", "wait=1", "respond-async, wait=0", "nonsense;;"),
          }),
          async (input) => {
            const headers: Record<string, string> = { ...credentials[input.auth] };
            if (input.form !== undefined) headers["x-response-form"] = input.form;
            if (input.contentType) headers["content-type"] = input.contentType;
            if (input.requestId !== undefined) headers["x-request-id"] = input.requestId.replace(/[^\x20-\x7e]/g, "");
            if (input.prefer) headers.prefer = input.prefer;
            const hasBody = route.method !== "GET" && route.method !== "HEAD";
            const url = `${base}${pathFor(route, input.param)}${input.query}`;
            sent += 1;
            const where0 = `${route.method} ${url.slice(0, 200)} [${input.auth}]`;
            const controller = new AbortController();
            // nothing may leave a caller waiting: no answer in 10 s is a failure too
            const timer = setTimeout(() => controller.abort(), 10_000);
            let response: Response;
            let text: string;
            try {
              response = await fetch(url, {
                method: route.method,
                headers,
                body: hasBody ? input.body : undefined,
                signal: controller.signal,
              });
              // an event stream (the MCP SSE transport) stays open by design: its opening is the answer
              if (response.ok && response.headers.get("content-type")?.startsWith("text/event-stream")) {
                controller.abort();
                return;
              }
              text = await response.text();
            } catch (error) {
              failures.push(`no answer in 10 s: ${where0}: ${String(error)}`);
              return;
            } finally {
              clearTimeout(timer);
            }
            const where = `${route.method} ${url.slice(0, 200)} [${input.auth}, form ${input.form}, ${input.contentType}] body ${input.body.slice(0, 120)}`;
            if (response.status >= 500) failures.push(`${response.status} ${where}: ${text.slice(0, 300)}`);
            // a HEAD answer has no body to hold an envelope
            if (route.method === "HEAD") return;
            // operations endpoints (/healthz, /metrics and the like) answer their own formats;
            // their errors and every API answer use the envelope
            const api = new URL(url).pathname.startsWith("/api/v1");
            if (!api && response.status < 400) return;
            let parsed: Envelope;
            try {
              parsed = JSON.parse(text) as Envelope;
            } catch {
              failures.push(`not JSON (${response.status}) ${where}: ${text.slice(0, 200)}`);
              return;
            }
            // the dashboard's session endpoints (/auth) answer in Form A whatever is asked
            const form =
              input.form !== undefined &&
              ["A", "B"].includes(input.form.trim().toUpperCase()) &&
              !new URL(url).pathname.startsWith("/auth")
                ? formOf(input.form)
                : "A";
            // the tool server speaks JSON-RPC 2.0: its refusals are JSON-RPC error objects
            if (new URL(url).pathname.startsWith("/mcp")) {
              const error = parsed.error as Envelope | undefined;
              const rpc =
                parsed.jsonrpc === "2.0" &&
                "id" in parsed &&
                typeof error?.code === "number" &&
                typeof error.message === "string";
              if (response.status >= 400 && !rpc)
                failures.push(`not JSON-RPC (${response.status}) ${where}: ${text.slice(0, 300)}`);
              return;
            }
            if (!inEnvelope(form, response.status, parsed)) {
              failures.push(`not Form ${form} (${response.status}) ${where}: ${text.slice(0, 300)}`);
            }
            if (api && response.status !== 503) {
              for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
                if (!response.headers.has(name)) failures.push(`no ${name} (${response.status}) ${where}`);
              }
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE, seed: 20261123 },
      );
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2_000);
    // a give-up bound, not a time limit: thousands of requests take minutes on a busy machine
  }, 900_000);

  const raw = (payload: string) => rawRequest(base, payload);

  it("answers headers over the limit with 431 in the envelope", async () => {
    const answer = await raw(`GET /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`);
    expect(statusOf(answer)).toBe(431);
    expect(bodyOf(answer)).toEqual({ ok: false, error: expect.objectContaining({ code: "headers_too_large" }) });
  });

  it.each([
    ["a broken request line", "NOT HTTP AT ALL\r\n\r\n"],
    ["a header without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"],
    ["a NUL in a header", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n"],
    [
      "a broken chunked body",
      "POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    ],
    [
      "conflicting lengths",
      "POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{}",
    ],
  ])("answers %s with 400 in the envelope", async (_name, payload) => {
    const answer = await raw(payload);
    expect(statusOf(answer)).toBe(400);
    expect(bodyOf(answer)).toEqual({ ok: false, error: expect.objectContaining({ code: "invalid_request" }) });
  });

  it("answers random printable header values without a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 200 }),
        fc.constantFrom(
          "x-api-key",
          "authorization",
          "x-response-form",
          "x-request-id",
          "content-type",
          "x-forwarded-for",
        ),
        async (headerValue, name) => {
          const answer = await raw(
            `POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${name}: ${headerValue}\r\nContent-Length: 2\r\n\r\n{}`,
          );
          const status = statusOf(answer);
          expect(status).toBeGreaterThanOrEqual(200);
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  }, 300_000);
});
