import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ScanResult, ScoreSummary } from "@scan/contract";
import { createKeyService, personalKeyOwner } from "@scan/gateway";
import { createAccount, type TestAccount, untilKeyDropped } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { type Carrier, eventStream, keyHeaders, rpc, sseClient, streamableClient } from "./support/mcp";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The MCP tool server (docs/spec/public-scanning-api.md §4.8, §5.2) with the real gateway and worker: the SDK's own client over
 * the Streamable HTTP and legacy SSE transports, and plain JSON-RPC POSTs to /mcp/sse; the three
 * key carriers, refusals, rate limits, bad arguments, unknown tools and methods.
 */

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Acme Widgets: hand-made widgets since 1990</title>
<meta name="description" content="Acme makes hand-made widgets in Leeds. Learn how our widgets are built and tested.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>Acme Widgets</h1>
<p>Acme makes hand-made widgets in Leeds. Every widget is tested before it ships.</p>
<h2>What is a widget?</h2><p>A widget is a small mechanical part that joins two panels.</p>
<h2>How long does shipping take?</h2><p>Shipping takes three to five working days within the UK.</p>
</article></main><footer><a href="/about">About us</a></footer></body></html>`;

const ANY_OBJECT = expect.any(Object);

afterAll(() => stopContainers());

describe("MCP tool server", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let pro: TestAccount;
  const opened: McpClient[] = [];

  const track = <T extends McpClient>(client: T): T => {
    opened.push(client);
    return client;
  };
  const scansStored = () => stack.db.scan.count();

  beforeAll(async () => {
    site = await startFixtureServer({
      "/": html(PAGE),
      "/about": html("<!doctype html><title>About Acme</title><h1>About</h1>"),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
      "/broken": (_req, res) => res.writeHead(500, { "content-type": "text/html" }).end("<h1>down</h1>"),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { RATE_LIMIT_FREE: "3", MCP_SSE_SESSIONS_PER_KEY: "2" },
    });
    base = stack.gateway.url;
    pro = await createAccount(stack.db, "pro");
  }, 300_000);

  // SSE sessions count against their key's cap until the server sees their stream close
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close().catch(() => undefined)));
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  describe("tools/list", () => {
    it("lists the tools with a description and JSON Schemas of their input and output", async () => {
      const client = track(await streamableClient(base, pro.key));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["aeo_scan", "aeo_score"]));
      const scan = tools.find((tool) => tool.name === "aeo_scan");
      expect(scan?.description).toMatch(/grade/);
      expect(scan?.inputSchema).toEqual({
        type: "object",
        properties: {
          url: { type: "string", description: expect.stringMatching(/URL/) },
          mode: { type: "string", enum: ["quick", "full"], description: expect.any(String) },
        },
        required: ["url"],
        additionalProperties: false,
      });
      expect(scan?.outputSchema).toMatchObject({
        type: "object",
        required: expect.arrayContaining(["grade", "scores"]),
      });
      const score = tools.find((tool) => tool.name === "aeo_score");
      expect(score?.inputSchema).toMatchObject({ type: "object", required: ["url"], additionalProperties: false });
    });

    it("answers a plain JSON-RPC POST to /mcp/sse directly, without a handshake (spec 4.8's example)", async () => {
      const response = await rpc(base, "tools/list", undefined, { headers: keyHeaders(pro.key, "x-api-key"), id: 7 });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect(response.body).toEqual({
        jsonrpc: "2.0",
        id: 7,
        result: {
          tools: expect.arrayContaining([expect.objectContaining({ name: "aeo_scan", inputSchema: ANY_OBJECT })]),
        },
      });
    });

    it("answers initialize with the server's name and its tools capability", async () => {
      const response = await rpc(
        base,
        "initialize",
        { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
        { headers: keyHeaders(pro.key, "bearer"), id: 1 },
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        result: { protocolVersion: "2025-06-18", serverInfo: { name: "aeo-scan" }, capabilities: { tools: {} } },
      });
    });
  });

  describe("the tools against a local page", () => {
    it("aeo_scan over Streamable HTTP: the scan result with grade as structured content, and a summary", async () => {
      const client = track(await streamableClient(base, pro.key, "bearer"));
      const result = await client.callTool({ name: "aeo_scan", arguments: { url: site.url("/"), mode: "quick" } });
      expect(result.isError).toBeFalsy();
      const scan = ScanResult.parse(result.structuredContent);
      expect(scan).toMatchObject({ url: site.url("/"), mode: "quick", status: "completed", partial: true });
      expect(scan.checks).toHaveLength(20);
      const content = result.content as Array<{ type: string; text: string }>;
      expect(content[0]?.type).toBe("text");
      expect(content[0]?.text).toContain(`grade ${scan.grade}, overall ${scan.scores.overall}/100`);
      expect(content[0]?.text).toContain(scan.id);
      // the same queue, workers and store as REST: the scan is the key holder's, readable by id
      const stored = await api(base, `/api/v1/scan/${scan.id}`, { headers: keyHeaders(pro.key, "x-api-key") });
      expect(stored.status).toBe(200);
      expect((stored.body as any).data).toMatchObject({ id: scan.id, status: "completed", grade: scan.grade });
    });

    it("aeo_scan runs a full scan when no mode is given", async () => {
      const account = await createAccount(stack.db, "pro");
      const client = track(await sseClient(base, account.key, "x-api-key"));
      const result = await client.callTool({ name: "aeo_scan", arguments: { url: site.url("/") } });
      const scan = ScanResult.parse(result.structuredContent);
      expect(scan.mode).toBe("full");
      expect(scan.checks).toHaveLength(57);
      expect(scan.checks.every((check) => check.evidence !== undefined)).toBe(true);
    });

    it("aeo_score over SSE with ?key=: three area scores, overall, grade and the worst three problems", async () => {
      const account = await createAccount(stack.db, "pro");
      const client = track(await sseClient(base, account.key, "query"));
      const result = await client.callTool({ name: "aeo_score", arguments: { url: site.url("/") } });
      expect(result.isError).toBeFalsy();
      const score = ScoreSummary.parse(result.structuredContent);
      expect(Object.keys(score.scores).sort()).toEqual(["aeo", "geo", "overall", "seo"]);
      expect(score.topProblems.length).toBeGreaterThan(0);
      expect(score.topProblems.length).toBeLessThanOrEqual(3);
      // worst first: the ranking is by severity
      const rank = { critical: 0, warning: 1, info: 2 } as const;
      const ranks = score.topProblems.map((problem) => rank[problem.severity]);
      expect([...ranks].sort()).toEqual(ranks);
      const stored = await stack.db.scan.findUniqueOrThrow({ where: { id: score.id } });
      expect(stored).toMatchObject({
        mode: "quick",
        userId: account.user.id,
        apiKeyId: account.keyId,
        grade: score.grade,
      });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(text).toContain(score.topProblems[0]?.title ?? "-");
      // each problem carries its evidence grade, in the data and in the words
      for (const problem of score.topProblems) {
        expect(problem.evidence?.grade).toEqual(expect.any(String));
        expect(text).toContain(
          problem.evidence?.grade === "convention"
            ? "convention only; not scored"
            : `evidence: ${problem.evidence?.grade.replace("_", "-")}`,
        );
      }
    });

    it("aeo_score through a plain JSON-RPC POST to /mcp/sse, answered in the HTTP response", async () => {
      const response = await rpc(
        base,
        "tools/call",
        { name: "aeo_score", arguments: { url: site.url("/") } },
        { headers: keyHeaders(pro.key, "bearer"), id: 42 },
      );
      expect(response.status).toBe(200);
      const body = response.body as any;
      expect(body.id).toBe(42);
      expect(ScoreSummary.parse(body.result.structuredContent).url).toBe(site.url("/"));
      expect(body.result.content[0].type).toBe("text");
    });

    it("reports a target that fails as a tool error the model can read, not a protocol error", async () => {
      const client = track(await streamableClient(base, pro.key));
      const result = await client.callTool({ name: "aeo_score", arguments: { url: site.url("/broken") } });
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/^upstream_failure: The scan of .* failed/);
    });
  });

  describe("keys", () => {
    it.each<Carrier>(["bearer", "x-api-key", "query"])(
      "are accepted in %s, over both SDK transports",
      async (carrier) => {
        const account = await createAccount(stack.db, "pro");
        for (const connect of [streamableClient, sseClient]) {
          const client = track(await connect(base, account.key, carrier));
          const { tools } = await client.listTools();
          expect(tools.length).toBeGreaterThanOrEqual(2);
          await client.close();
        }
        const direct = await rpc(base, "tools/list", undefined, {
          headers: keyHeaders(account.key, carrier),
          path: carrier === "query" ? `/mcp/sse?key=${account.key}` : "/mcp/sse",
        });
        expect(direct.status).toBe(200);
      },
    );

    it("missing: 401 with a JSON-RPC error on every route, and no tool runs", async () => {
      const before = await scansStored();
      const call = { name: "aeo_score", arguments: { url: site.url("/") } };
      for (const path of ["/mcp/sse", "/mcp"]) {
        const response = await api(base, path, {
          method: "POST",
          headers: { accept: "application/json, text/event-stream" },
          body: { jsonrpc: "2.0", id: 3, method: "tools/call", params: call },
        });
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(response.body).toEqual({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32000,
            message: "The tool server needs an API key",
            data: { status: 401, code: "unauthenticated", hint: expect.stringMatching(/\?key=/) },
          },
        });
      }
      const stream = await fetch(`${base}/mcp/sse`, { headers: { accept: "text/event-stream" } });
      expect(stream.status).toBe(401);
      expect((await stream.json()).error.data.code).toBe("unauthenticated");
      await expect(streamableClient(base, "")).rejects.toThrow();
      await expect(sseClient(base, "", "query")).rejects.toThrow();
      expect(await scansStored()).toBe(before);
    });

    it("invalid, mistyped or revoked: 401 naming the reason", async () => {
      const account = await createAccount(stack.db, "pro");
      const mistyped = `${account.key.slice(0, -1)}${account.key.endsWith("A") ? "B" : "A"}`;
      const refused = await rpc(base, "tools/list", undefined, { headers: keyHeaders(mistyped, "x-api-key") });
      expect(refused.status).toBe(401);
      expect((refused.body as any).error.message).toMatch(/checksum/);
      await createKeyService({ db: stack.db, maxKeysPerUser: 10 }).revoke(
        await personalKeyOwner(stack.db, account.user),
        account.keyId,
      );
      const revoked = await rpc(base, "tools/list", undefined, { path: `/mcp/sse?key=${account.key}` });
      expect(revoked.status).toBe(401);
      expect((revoked.body as any).error.message).toMatch(/revoked/);
    });

    it("a revoked key ends its open SSE session at its next message", async () => {
      const account = await createAccount(stack.db, "pro");
      const client = track(await sseClient(base, account.key, "query"));
      await client.listTools();
      await createKeyService({ db: stack.db, maxKeysPerUser: 10 }).revoke(
        await personalKeyOwner(stack.db, account.user),
        account.keyId,
      );
      // a revocation made outside the gateway reaches its key cache through Postgres NOTIFY
      await untilKeyDropped(stack.gateway, account.key);
      await expect(client.listTools()).rejects.toThrow(/401/);
    });
  });

  describe("legacy SSE sessions", () => {
    it("announce the endpoint to POST to and answer on the stream; another key cannot use the session", async () => {
      const account = await createAccount(stack.db, "pro");
      const response = await fetch(`${base}/mcp/sse?key=${account.key}`, { headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const stream = eventStream(response);
      try {
        const endpoint = await stream.next();
        expect(endpoint.event).toBe("endpoint");
        expect(endpoint.data).toMatch(/^\/mcp\/sse\?sessionId=[0-9a-f-]{36}$/);
        // the key stays with the session: a message needs none of its own, and is answered on the stream
        const accepted = await api(base, endpoint.data, {
          method: "POST",
          body: { jsonrpc: "2.0", id: 11, method: "tools/list" },
        });
        expect(accepted.status).toBe(202);
        const answer = await stream.next();
        expect(answer.event).toBe("message");
        expect(JSON.parse(answer.data)).toMatchObject({ jsonrpc: "2.0", id: 11, result: { tools: expect.any(Array) } });
        const other = await createAccount(stack.db, "pro");
        const refused = await api(base, endpoint.data, {
          method: "POST",
          headers: keyHeaders(other.key, "x-api-key"),
          body: { jsonrpc: "2.0", id: 12, method: "tools/list" },
        });
        expect(refused.status).toBe(403);
        expect((refused.body as any).error).toMatchObject({ code: -32000, data: { code: "forbidden" } });
      } finally {
        await stream.close();
      }
    });

    it("an unknown session is 404 with a JSON-RPC error", async () => {
      const response = await api(base, "/mcp/sse?sessionId=5b0c8f0e-0000-4000-8000-000000000000", {
        method: "POST",
        headers: keyHeaders(pro.key, "bearer"),
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" } });
    });

    it("a key holds a bounded number of open sessions (MCP_SSE_SESSIONS_PER_KEY)", async () => {
      const account = await createAccount(stack.db, "pro");
      track(await sseClient(base, account.key));
      track(await sseClient(base, account.key));
      const third = await fetch(`${base}/mcp/sse?key=${account.key}`, { headers: { accept: "text/event-stream" } });
      expect(third.status).toBe(403);
      expect((await third.json()).error.data.code).toBe("forbidden");
    });
  });

  describe("errors", () => {
    it("bad arguments are JSON-RPC -32602 naming the field, over the SDK client and a plain POST", async () => {
      const client = track(await streamableClient(base, pro.key));
      const refusal = client.callTool({ name: "aeo_scan", arguments: { url: site.url("/"), mode: "slow" } });
      await expect(refusal).rejects.toBeInstanceOf(McpError);
      await expect(refusal).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/mode/) });

      const cases: Array<[unknown, RegExp]> = [
        [{}, /^Invalid arguments for aeo_scan: url: is required$/],
        [{ url: 42 }, /url: must be a string/],
        [{ url: site.url("/"), depth: 3 }, /Unrecognized key: "depth"/],
        [{ url: "ftp://example.com/" }, /url: .*scheme ftp/],
        [{ url: "http://10.0.0.1/" }, /url is not scannable/],
      ];
      const before = await scansStored();
      for (const [args, message] of cases) {
        const response = await rpc(
          base,
          "tools/call",
          { name: "aeo_scan", arguments: args },
          {
            headers: keyHeaders(pro.key, "bearer"),
            id: 9,
          },
        );
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32602, message } });
      }
      expect(await scansStored()).toBe(before);
    });

    it("an unknown tool is -32602 and an unknown method -32601", async () => {
      const tool = await rpc(
        base,
        "tools/call",
        { name: "aeo_nope", arguments: {} },
        { headers: keyHeaders(pro.key, "bearer") },
      );
      expect((tool.body as any).error).toMatchObject({ code: -32602, message: "Unknown tool: aeo_nope" });
      const method = await rpc(base, "resources/list", {}, { headers: keyHeaders(pro.key, "bearer") });
      expect((method.body as any).error).toMatchObject({ code: -32601 });
      const client = track(await sseClient(base, (await createAccount(stack.db, "pro")).key));
      await expect(client.callTool({ name: "aeo_nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it("a body that is not JSON is a parse error (-32700), another content type -32600 (400); GET /mcp is 405", async () => {
      const garbled = await api(base, "/mcp/sse", {
        method: "POST",
        headers: { ...keyHeaders(pro.key, "bearer"), "content-type": "application/json" },
        rawBody: "{not json",
      });
      expect(garbled.status).toBe(400);
      expect(garbled.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } });
      const form = await api(base, "/mcp/sse", {
        method: "POST",
        headers: { ...keyHeaders(pro.key, "bearer"), "content-type": "application/x-www-form-urlencoded" },
        rawBody: "jsonrpc=2.0&method=tools/list",
      });
      expect(form.status).toBe(400);
      expect((form.body as any).error).toMatchObject({
        code: -32600,
        message: "Content-Type must be application/json, not application/x-www-form-urlencoded",
      });
      const get = await api(base, "/mcp", { headers: keyHeaders(pro.key, "bearer") });
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
    });
  });

  describe("rate limits", () => {
    it("count each tools/call against the key, whatever its outcome; the handshake and tools/list are free", async () => {
      const free = await createAccount(stack.db, "free");
      const headers = keyHeaders(free.key, "x-api-key");
      const listed = await rpc(base, "tools/list", undefined, { headers });
      expect(listed.headers.get("x-ratelimit-limit")).toBe("3");
      expect(listed.headers.get("x-ratelimit-remaining")).toBe("3");
      const client = track(await streamableClient(base, free.key, "x-api-key"));
      await client.listTools();
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const call = await rpc(base, "tools/call", { name: "aeo_score", arguments: {} }, { headers, id: 5 });
        expect((call.body as any).error.code).toBe(-32602);
        remaining.push(call.headers.get("x-ratelimit-remaining") ?? "");
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const refused = await rpc(base, "tools/call", { name: "aeo_score", arguments: {} }, { headers, id: 6 });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({
        jsonrpc: "2.0",
        id: 6,
        error: { code: -32000, data: { status: 429, code: "rate_limited", retryAfter: expect.any(Number) } },
      });
      await expect(client.callTool({ name: "aeo_score", arguments: { url: site.url("/") } })).rejects.toThrow(/429/);
      // listing stays possible
      expect((await rpc(base, "tools/list", undefined, { headers })).status).toBe(200);
    });
  });
});

describe("MCP tool server at shutdown", () => {
  it("ends idle SSE sessions when the gateway closes, instead of waiting out the shutdown deadline", async () => {
    const database = await createTestDatabase();
    const stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      // the longest deadline there is: a close that waited it out would outlive the test itself
      env: { SHUTDOWN_TIMEOUT_MS: "120000" },
    });
    try {
      const account = await createAccount(stack.db, "pro");
      const response = await fetch(`${stack.gateway.url}/mcp/sse?key=${account.key}`, {
        headers: { accept: "text/event-stream" },
      });
      const stream = eventStream(response);
      expect((await stream.next()).event).toBe("endpoint");
      await stack.gateway.close();
      await expect(stream.next()).rejects.toThrow(/ended/);
    } finally {
      await stack.worker?.close(1_000);
      await stack.db.$disconnect();
      await database.drop();
    }
  }, 300_000);
});
