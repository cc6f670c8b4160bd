import { Agent, request } from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { createAccount } from "./support/accounts";
import { formOf, inEnvelope } from "./support/envelopes";
import { bodyOf, headerOf, rawRequest, statusOf } from "./support/raw-http";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * Ten thousand generated requests across every route of the API and the tool server, against
 * a real gateway: paths with broken percent-encoding, methods from GET to CONNECT and tokens
 * Node's parser refuses, Content-Encodings that do not decode, odd Content-Types. Whatever
 * arrives, the answer is a 4xx or better, in the request's envelope (JSON-RPC on the tool
 * server), with the X-RateLimit-* headers wherever the request reached the application.
 *
 * The seed is printed; FUZZ_SEED=<seed> replays a run, FUZZ_RUNS=<n> changes its size.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** requests in flight at once, over keep-alive connections */
const PARALLEL = 24;

type Json = Record<string, unknown>;
type Spec = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  form: string | undefined;
};

const BROKEN = ["%", "%ZZ", "%E0%A4%A", "%C0%AE", "%ff", "%2", "%%41", "a%", "%u0041", "%D8%00", "%ED%A0%80"];
const SEGMENTS = [
  ...BROKEN,
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "..%2F..",
  "%2e%2e",
  "",
  "a".repeat(300),
  "%F0%9F%98%80",
  "__proto__",
];
const METHODS = [
  "GET",
  "HEAD",
  "POST",
  "DELETE",
  "PUT",
  "PATCH",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "SEARCH",
  "MKCOL",
  "PURGE",
  "LOCK",
  "QUERY",
  // tokens Node's parser does not know: refused before the application, with 400
  "FOO",
  "BREW",
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/json; charset=utf-7",
  "application/json; charset=nope",
  "application/merge-patch+json",
  "APPLICATION/JSON",
  "application/json;;;",
  "text/plain",
  "text/html; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "*/*",
  "json",
  "",
];
const ENCODINGS = [
  "gzip",
  "deflate",
  "br",
  "identity",
  "GZIP",
  "x-gzip",
  "compress",
  "zstd",
  "gzip, br",
  "chunked",
  "",
  "gzip\u00e9",
];
const FORMS = [undefined, "A", "B", "b", " a ", "C", ""];

const JSON_BODIES = [
  "{}",
  "[]",
  '{"url":"https://example.com/","mode":"quick"}',
  '{"url":"http://127.0.0.1:6379/"}',
  '{"urls":["https://example.com/"]}',
  '{"name":""}',
  '{"name":"k"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '{"id":1,"method":"tools/list"}',
  '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":{},"method":"x"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"aeo_score","arguments":{"url":5}}}',
  '{"jsonrpc":"2.0","id":4,"method":"nope"}',
  '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"bad":true}]',
  '{"citations":[{"brandName":1}]}',
  '{"site_id":"00000000-0000-0000-0000-000000000000","keyword":"x"}',
  '{"__proto__":{"polluted":true}}',
  "{not json",
  '"text"',
  "null",
  "1".repeat(300),
];

const bodyBytes = fc.oneof(
  fc.constantFrom(...JSON_BODIES).map((text) => Buffer.from(text)),
  fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(JSON.stringify(value) ?? "null")),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

type Encoded = { encoding: string | undefined; bytes: Buffer };

/** a body and the Content-Encoding it is sent with: honest, lying, truncated or unknown */
const encodedBody = fc.oneof(
  bodyBytes.map((bytes): Encoded => ({ encoding: undefined, bytes })),
  fc
    .tuple(bodyBytes, fc.constantFrom("gzip", "deflate", "br"))
    .map(([bytes, encoding]): Encoded => ({ encoding, bytes: compress(encoding, bytes) })),
  fc
    .tuple(bodyBytes, fc.constantFrom("gzip", "deflate", "br"), fc.integer({ min: 1, max: 20 }))
    .map(([bytes, encoding, cut]): Encoded => {
      const packed = compress(encoding, bytes);
      return { encoding, bytes: packed.subarray(0, Math.max(1, packed.length - cut)) };
    }),
  fc.tuple(bodyBytes, fc.constantFrom(...ENCODINGS)).map(([bytes, encoding]): Encoded => ({ encoding, bytes })),
  fc.constant<Encoded>({ encoding: "gzip", bytes: Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff]) }),
);

const compress = (encoding: string, bytes: Buffer): Buffer =>
  encoding === "gzip" ? gzipSync(bytes) : encoding === "deflate" ? deflateSync(bytes) : brotliCompressSync(bytes);

const isEventStream = (type: string | undefined) => type?.startsWith("text/event-stream") ?? false;

describe("fuzz: ten thousand generated requests to every route", () => {
  let database: TestDatabase;
  let stack: Stack;
  let host: string;
  let port: number;
  let routes: RouteInfo[];
  let credentials: Record<string, Record<string, string>>;
  const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: {
        RATE_LIMIT_ANONYMOUS: "100000000",
        RATE_LIMIT_AGENCY: "100000000",
        SCAN_WAIT_MS: "1",
        MAX_KEYS_PER_USER: "1000",
      },
    });
    const url = new URL(stack.gateway.url);
    host = url.hostname;
    port = Number(url.port);
    routes = gatewayRoutes(stack.gateway.server);
    const account = await createAccount(stack.db, "agency");
    credentials = {
      none: {},
      key: { "x-api-key": account.key },
      bearerKey: { authorization: `Bearer ${account.key}` },
      jwt: { authorization: `Bearer ${account.token}` },
      garbageKey: { "x-api-key": "aeo_live_notarealkeyatall000000000000000000" },
      basic: { authorization: "Basic dXNlcjpwYXNz" },
    };
    // eslint-disable-next-line no-console
    console.log(`fuzz-requests: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
  }, 300_000);

  afterAll(async () => {
    agent.destroy();
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  const specs = (): Spec[] => {
    const targets = [
      ...routes,
      { method: "GET", path: "/api/v1/:id/:id" },
      { method: "GET", path: "/mcp/:id" },
      { method: "GET", path: "/:id" },
    ];
    const arbitrary = fc.record({
      route: fc.constantFrom(...targets),
      method: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
      ),
      segment: fc.oneof(fc.constantFrom(...SEGMENTS), fc.uuid()),
      suffix: fc.oneof(
        { weight: 4, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: fc.constantFrom(...BROKEN).map((s) => `/${s}`) },
        { weight: 1, arbitrary: fc.constantFrom("?q=%ZZ", "?page=%", "?key=%E0%A4%A", "?limit=1e1", "?sessionId=x") },
      ),
      contentType: fc.constantFrom(...CONTENT_TYPES, undefined),
      encoded: encodedBody,
      form: fc.constantFrom(...FORMS),
      auth: fc.constantFrom(...Object.keys(credentials)),
    });
    return fc.sample(arbitrary, { seed: SEED, numRuns: RUNS }).map((input): Spec => {
      const method = input.method ?? input.route.method;
      const headers: Record<string, string> = { ...credentials[input.auth] };
      if (input.form !== undefined) headers["x-response-form"] = input.form;
      if (input.contentType !== undefined) headers["content-type"] = input.contentType;
      const sendsBody = method !== "GET" && method !== "HEAD";
      if (sendsBody && input.encoded.encoding !== undefined) headers["content-encoding"] = input.encoded.encoding;
      return {
        method,
        path: `${input.route.path.replace(/:[A-Za-z_]+/g, input.segment)}${input.suffix}`,
        headers,
        body: sendsBody ? input.encoded.bytes : null,
        form: input.form,
      };
    });
  };

  type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

  const send = (spec: Spec): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host,
          port,
          agent,
          method: spec.method,
          path: spec.path,
          headers: { ...spec.headers, ...(spec.body ? { "content-length": String(spec.body.length) } : {}) },
          timeout: 10_000,
        },
        (res) => {
          const headers = res.headers;
          // the MCP SSE transport's stream stays open by design: its opening is the answer
          if (res.statusCode === 200 && isEventStream(headers["content-type"])) {
            req.destroy();
            resolve({ status: 200, headers, text: "" });
            return;
          }
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("no answer in 10 s")));
      req.on("error", reject);
      req.end(spec.body ?? undefined);
    });

  const judge = (spec: Spec, answer: Answer): string | null => {
    const where = `${spec.method} ${spec.path.slice(0, 120)} ${JSON.stringify(spec.headers).slice(0, 200)}`;
    if (answer.status >= 500) return `${answer.status} ${where}: ${answer.text.slice(0, 300)}`;
    if (answer.status < 100) return `no status: ${where}`;
    if (spec.method === "HEAD" || answer.status === 204 || answer.status === 202) return null;
    const pathname = spec.path.split("?")[0] ?? "";
    const refusedByParser = answer.headers["x-ratelimit-limit"] === undefined && answer.headers.connection === "close";
    if (!refusedByParser && answer.headers["x-ratelimit-limit"] === undefined) {
      return `no X-RateLimit-Limit (${answer.status}) ${where}`;
    }
    if (answer.status < 400 && !pathname.startsWith("/api/v1")) return null;
    let body: Json;
    try {
      body = JSON.parse(answer.text) as Json;
    } catch {
      return `not JSON (${answer.status}) ${where}: ${answer.text.slice(0, 200)}`;
    }
    // the tool server's own routes (as express matches them: any case, a trailing slash) speak JSON-RPC 2.0
    const routed = pathname.toLowerCase().replace(/\/+$/, "");
    if ((routed === "/mcp" || routed === "/mcp/sse") && !refusedByParser) {
      const error = body.error as Json | undefined;
      const rpc =
        body.jsonrpc === "2.0" && "id" in body && typeof error?.code === "number" && typeof error.message === "string";
      if (answer.status >= 400 && !rpc) return `not JSON-RPC (${answer.status}) ${where}: ${answer.text.slice(0, 300)}`;
      if (rpc && error?.code === -32700 && answer.status === 400) {
        // a parse error only for bodies that are not JSON at all
        const bytes = spec.body?.toString("utf8") ?? "";
        const encoded = spec.headers["content-encoding"];
        // a body in another charset than UTF-8 may not be JSON once decoded as that charset
        const charset = /charset=([^;]+)/i
          .exec(spec.headers["content-type"] ?? "")?.[1]
          ?.trim()
          .toLowerCase();
        if (!encoded && (charset === undefined || charset === "utf-8")) {
          try {
            JSON.parse(bytes);
            return `-32700 for valid JSON ${where}: ${bytes.slice(0, 100)}`;
          } catch {
            return null;
          }
        }
      }
      return null;
    }
    // a request the parser refused carries no header it could read: the default form; the
    // dashboard's session endpoints answer in Form A whatever is asked
    const sessionPath = routed === "/auth" || routed.startsWith("/auth/");
    const form = refusedByParser || sessionPath ? "A" : formOf(spec.form);
    if (!inEnvelope(form, answer.status, body))
      return `not Form ${form} (${answer.status}) ${where}: ${answer.text.slice(0, 300)}`;
    return null;
  };

  it("answers every one with a 4xx or better, in its envelope", async () => {
    const all = specs();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < all.length) {
          const spec = all[next] as Spec;
          next += 1;
          try {
            const answer = await send(spec);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            const failure = judge(spec, answer);
            if (failure) failures.push(failure);
          } catch (error) {
            failures.push(`${String(error)}: ${spec.method} ${spec.path.slice(0, 120)}`);
          }
        }
      }),
    );
    // eslint-disable-next-line no-console
    console.log(
      `fuzz-requests: ${all.length} requests in ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures.slice(0, 15)).toEqual([]);
    expect(all.length).toBeGreaterThanOrEqual(Math.min(RUNS, 10_000));
    // the broken inputs really were met: 400s, 404s, 405s and 415s among the answers
    for (const status of [400, 404, 405, 415]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    // ten thousand requests: about a minute on an idle machine, over five on a loaded one
  }, 900_000);

  const raw = (payload: string) => rawRequest(stack.gateway.url, payload);

  it.each([
    ["A", undefined],
    ["B", "B"],
  ])("answers CONNECT with 405 and Allow, in Form %s", async (form, header) => {
    const answer = await raw(
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${header ? `X-Response-Form: ${header}\r\n` : ""}\r\n`,
    );
    expect(statusOf(answer)).toBe(405);
    expect(headerOf(answer, "allow")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    expect(bodyOf(answer)).toEqual(
      form === "A"
        ? { ok: false, error: expect.objectContaining({ code: "method_not_allowed" }) }
        : { error: expect.stringMatching(/CONNECT/), code: "METHOD_NOT_ALLOWED" },
    );
  });

  it.each([
    ["GET /api/v1/scan/%ZZ", "GET", "/api/v1/scan/%ZZ", "key"],
    ["DELETE /api/v1/keys/%ZZ", "DELETE", "/api/v1/keys/%ZZ", "jwt"],
    ["a lone %", "GET", "/api/v1/scan/%", "key"],
    ["a cut UTF-8 sequence", "GET", "/api/v1/scan/%E0%A4%A", "key"],
    ["an overlong UTF-8 sequence", "GET", "/healthz/%C0%AE", "none"],
  ])("answers %s with 400 naming the percent-encoding", async (_name, method, path, auth) => {
    const answer = await send({ method, path, headers: { ...credentials[auth] }, body: null, form: undefined });
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.text) as { error: Json };
    expect(body.error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/percent-encoding/) });
    expect(answer.headers["x-ratelimit-limit"]).toBeDefined();
  });

  it.each([
    [
      "gzip that does not decode",
      "gzip",
      Buffer.from("not gzip at all"),
      400,
      /does not decode as Content-Encoding gzip/,
    ],
    ["a cut deflate stream", "deflate", deflateSync(Buffer.from('{"url":"x"}')).subarray(0, 5), 400, /does not decode/],
    ["an unknown encoding", "compress", Buffer.from("{}"), 415, /is not one this server decodes/],
  ])("answers a body with %s on the API and the tool server", async (_name, encoding, bytes, status, message) => {
    const headers = { ...credentials.key, "content-type": "application/json", "content-encoding": encoding };
    const rest = await send({ method: "POST", path: "/api/v1/sites", headers, body: bytes, form: undefined });
    expect(rest.status).toBe(status);
    expect((JSON.parse(rest.text) as { error: Json }).error.message).toMatch(message);
    const mcp = await send({ method: "POST", path: "/mcp", headers, body: bytes, form: undefined });
    expect(mcp.status).toBe(status);
    expect(JSON.parse(mcp.text)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: expect.objectContaining({ code: -32600, message: expect.stringMatching(message) }),
    });
  });

  it("answers a URL over MAX_URL_BYTES with 414", async () => {
    const answer = await send({
      method: "GET",
      path: `/api/v1/sites?q=${"a".repeat(9_000)}`,
      headers: { ...credentials.key, "x-response-form": "B" },
      body: null,
      form: "B",
    });
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.text)).toEqual({ error: expect.any(String), code: "URI_TOO_LONG" });
  });

  it.each([
    ['{"id":1,"method":"tools/list"}', -32600, 1, /jsonrpc must be "2.0"/],
    ['{"jsonrpc":"2.0","id":1}', -32600, 1, /needs a method/],
    ["[]", -32600, null, /at least one message/],
    ['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}', -32602, 2, /params/],
    ['{"jsonrpc":"2.0","id":3,"method":"no/such/method"}', -32601, 3, /./],
    ["{not json", -32700, null, /Parse error/],
  ])("codes the tool server's error for %s as JSON-RPC 2.0 says", async (text, code, id, message) => {
    const answer = await send({
      method: "POST",
      path: "/mcp",
      headers: {
        ...credentials.key,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: Buffer.from(text),
      form: undefined,
    });
    const body = JSON.parse(answer.text) as Json;
    expect(body).toMatchObject({ jsonrpc: "2.0", id, error: { code, message: expect.stringMatching(message) } });
  });
});
