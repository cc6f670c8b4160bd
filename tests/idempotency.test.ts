import { createHash } from "node:crypto";
import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { bodyOf, rawRequest, statusOf } from "./support/raw-http";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, type Stack, startStack } from "./support/stack";

/**
 * Idempotency-Key on the POSTs that create something: a retry with the same key and request
 * within the keys' lifetime is the first answer again, without the work and without counting;
 * concurrent retries do the work once; another request with the key is 422; a malformed key
 * is 400; a retry while the first is running is 409; a 5xx is not kept; keys expire.
 */

jest.setTimeout(300_000);

afterAll(() => stopContainers());

const remaining = (response: ApiResponse) => Number(response.headers.get("x-ratelimit-remaining"));
const PRO_LIMIT = 1_000;

describe("Idempotency-Key", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startAccountsApi();
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const scansOf = (account: TestAccount) => ctx.stack.db.scan.count({ where: { userId: account.user.id } });
  /** The caller's counter, read without spending (outside /api/v1). */
  const counter = async (account: TestAccount) =>
    remaining(await ctx.call("/healthz", { headers: { "x-api-key": account.key } }));
  const scanBody = () => ({ url: ctx.site.url("/page"), mode: "quick" });
  const scan = (account: TestAccount, key: string, headers: Record<string, string> = {}, from?: string) =>
    ctx.call("/api/v1/scan", {
      body: scanBody(),
      headers: { "x-api-key": account.key, "idempotency-key": key, prefer: "respond-async", ...headers },
      ...(from ? { from } : {}),
    });

  it("answers sequential retries the first answer again: one scan, counted once", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const first = await scan(account, "retry-1");
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(remaining(first)).toBe(PRO_LIMIT - 1);
    for (const key of ["retry-1", '"retry-1"']) {
      // the draft's quoted form and the bare one are the same key; another form asked for changes nothing
      const retry = await scan(account, key, { "x-response-form": "B" });
      expect(retry.status).toBe(202);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get("location")).toBe(first.headers.get("location"));
      expect(retry.headers.get("preference-applied")).toBe("respond-async");
      expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
      // its own request id, and nothing spent
      expect(retry.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
      expect(remaining(retry)).toBe(PRO_LIMIT - 1);
    }
    expect(await scansOf(account)).toBe(1);
    expect(await counter(account)).toBe(PRO_LIMIT - 1);
    // without the key, the same body is a new scan
    expect((await ctx.scanWith({ "x-api-key": account.key, prefer: "respond-async" })).status).toBe(202);
    expect(await scansOf(account)).toBe(2);
  });

  it("does the work once for 50 concurrent retries, and counts it once", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const answers = await Promise.all(Array.from({ length: 50 }, () => scan(account, "storm")));
    const firsts = answers.filter((a) => a.status === 202 && a.headers.get("idempotent-replayed") === null);
    const replays = answers.filter((a) => a.headers.get("idempotent-replayed") === "true");
    const busy = answers.filter((a) => a.status === 409);
    expect(firsts).toHaveLength(1);
    expect(replays.length + busy.length).toBe(49);
    const id = body(firsts[0] as ApiResponse).data.id;
    for (const replay of replays) expect(body(replay).data.id).toBe(id);
    for (const refusal of busy) {
      expect(refusal.headers.get("retry-after")).toBe("1");
      expect(body(refusal).error.code).toBe("idempotency_key_in_use");
    }
    expect(await scansOf(account)).toBe(1);
    expect(await counter(account)).toBe(PRO_LIMIT - 1);
    // and once it is done, a retry is its answer
    const later = await scan(account, "storm");
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    expect(body(later).data.id).toBe(id);
  });

  it("does a batch once for 50 concurrent retries: its scans stored once, its URLs counted once", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const urls = [ctx.site.url("/page"), ctx.site.url("/page?b"), ctx.site.url("/page?c")];
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.call("/api/v1/scans/batch", {
          body: { urls, mode: "quick" },
          headers: { "x-api-key": account.key, "idempotency-key": "batch-storm" },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 202 && a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(answers.every((a) => a.status === 202 || a.status === 409)).toBe(true);
    expect(await scansOf(account)).toBe(3);
    // three URLs, three requests of the limit, however often the batch was sent
    expect(await counter(account)).toBe(PRO_LIMIT - 3);
  });

  it("refuses the key with another body or on another endpoint: 422 in the request's form, counted", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const headers = { "x-api-key": account.key, "idempotency-key": "one-request" };
    const created = await ctx.call("/api/v1/sites", { headers, body: { url: "https://first.example", name: "First" } });
    expect(created.status).toBe(201);
    // the same body in another key order and spacing is the same request
    const same = await ctx.call("/api/v1/sites", {
      headers,
      rawBody: '{ "name": "First",   "url": "https://first.example" }',
    });
    expect(same.status).toBe(201);
    expect(same.headers.get("idempotent-replayed")).toBe("true");
    const before = await counter(account);
    const otherBody = await ctx.call("/api/v1/sites", { headers, body: { url: "https://second.example" } });
    expect(otherBody.status).toBe(422);
    expect(body(otherBody)).toEqual({
      ok: false,
      error: {
        code: "idempotency_key_reused",
        message: "This Idempotency-Key was first sent with another body to POST /api/v1/sites",
        hint: expect.stringContaining("new key"),
      },
    });
    const otherPath = await ctx.call("/api/v1/scans/batch", {
      headers: { ...headers, "x-response-form": "B" },
      body: { urls: [ctx.site.url("/page")] },
    });
    expect(otherPath.status).toBe(422);
    expect(body(otherPath)).toEqual({
      error: "This Idempotency-Key was first sent to POST /api/v1/sites, not POST /api/v1/scans/batch",
      code: "IDEMPOTENCY_KEY_REUSED",
    });
    expect(await counter(account)).toBe(before - 2);
    expect(await ctx.stack.db.site.count({ where: { userId: account.user.id } })).toBe(1);
    expect(await scansOf(account)).toBe(0);
  });

  it("refuses a malformed key with 400 before anything is done", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const cases: Array<[string, RegExp]> = [
      ["", /Idempotency-Key is empty/],
      ['""', /Idempotency-Key is empty/],
      ["k".repeat(256), /256 characters long, more than 255/],
      ['"unterminated', /not a well-formed quoted string/],
      ['"a"b"', /not a well-formed quoted string/],
      ["clé", /printable ASCII/],
    ];
    for (const [key, message] of cases) {
      const response = await ctx.call("/api/v1/scan", {
        body: scanBody(),
        headers: { "x-api-key": account.key, "idempotency-key": key, prefer: "respond-async" },
      });
      expect([key, response.status]).toEqual([key, 400]);
      expect(body(response).error).toEqual({
        code: "invalid_request",
        message: expect.stringMatching(message),
        hint: expect.any(String),
      });
    }
    // sent twice: as two lines, or joined into one by a client or proxy
    const payload = JSON.stringify(scanBody());
    const twice = await rawRequest(
      ctx.stack.gateway.url,
      `POST /api/v1/scan HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\nContent-Type: application/json\r\nX-API-Key: ${account.key}\r\nIdempotency-Key: a\r\nIdempotency-Key: b\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    );
    expect(statusOf(twice)).toBe(400);
    expect((bodyOf(twice) as any).error.message).toBe("Idempotency-Key is sent more than once");
    const joined = await scan(account, "a, b");
    expect(joined.status).toBe(400);
    expect(body(joined).error.message).toMatch(/holds a comma/);
    // a comma is fine in a quoted key
    expect((await scan(account, '"a, b"')).status).toBe(202);
    expect(await scansOf(account)).toBe(1);
    // 255 characters is a key
    expect((await scan(account, "k".repeat(255))).status).toBe(202);
  });

  it("keeps no answer to input the route refuses, and keeps the refusals of its work", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const headers = { "x-api-key": account.key, "idempotency-key": "fix-my-body", prefer: "respond-async" };
    // a body the schema refuses: nothing started, nothing kept; the corrected body goes through
    const invalid = await ctx.call("/api/v1/scan", { headers, body: { url: 5 } });
    expect(invalid.status).toBe(400);
    const corrected = await ctx.call("/api/v1/scan", { headers, body: scanBody() });
    expect(corrected.status).toBe(202);
    expect(corrected.headers.get("idempotent-replayed")).toBeNull();
    // a private target refused by the scan's own work: kept and answered again
    const privateTarget = { url: "http://10.0.0.1/", mode: "quick" };
    const refusedHeaders = { ...headers, "idempotency-key": "private-target" };
    const refused = await ctx.call("/api/v1/scan", { headers: refusedHeaders, body: privateTarget });
    expect(refused.status).toBe(400);
    const again = await ctx.call("/api/v1/scan", { headers: refusedHeaders, body: privateTarget });
    expect(again.status).toBe(400);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(refused.body);
  });

  it("keeps each caller's keys apart: another API key or address with the same key is another request", async () => {
    const one = await createAccount(ctx.stack.db, "pro");
    const two = await createAccount(ctx.stack.db, "pro");
    expect((await scan(one, "shared")).headers.get("idempotent-replayed")).toBeNull();
    expect((await scan(two, "shared")).headers.get("idempotent-replayed")).toBeNull();
    expect(await scansOf(one)).toBe(1);
    expect(await scansOf(two)).toBe(1);
    const anonymous = (from: string) =>
      ctx.call("/api/v1/scan", {
        body: scanBody(),
        headers: { "idempotency-key": "anon", prefer: "respond-async" },
        from,
      });
    const a = await anonymous("203.0.113.10");
    const b = await anonymous("203.0.113.99");
    const aAgain = await anonymous("203.0.113.10");
    expect(body(a).data.id).not.toBe(body(b).data.id);
    expect(body(aAgain).data.id).toBe(body(a).data.id);
    expect(aAgain.headers.get("idempotent-replayed")).toBe("true");
    // the anonymous retry was not counted against the address either
    expect(remaining(aAgain)).toBe(remaining(a));
  });

  it("replays what was created: a site's 201, one citation track, an API key's secret once created", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const key = { "x-api-key": account.key };
    const site = { url: "https://replayed.example" };
    const first = await ctx.call("/api/v1/sites", { headers: { ...key, "idempotency-key": "site" }, body: site });
    const retry = await ctx.call("/api/v1/sites", { headers: { ...key, "idempotency-key": "site" }, body: site });
    // a plain repeat would be 200 (the site exists); the retry is the first answer
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body).toEqual(first.body);
    const siteId = body(first).data.id;

    const track = { site_id: siteId, platform: "gemini", query_text: "replayed", cited: false };
    for (let i = 0; i < 3; i++) {
      const answer = await ctx.call("/api/v1/citations", {
        headers: { ...key, "idempotency-key": "track" },
        body: track,
      });
      expect(answer.status).toBe(201);
    }
    expect(await ctx.stack.db.citationTrack.count({ where: { userId: account.user.id } })).toBe(1);

    const keyword = { site_id: siteId, keyword: "replayed", position: 3, volume: 10, difficulty: 5 };
    const recorded = await ctx.call("/api/v1/keywords", {
      headers: { ...key, "idempotency-key": "kw" },
      body: keyword,
    });
    const recordedAgain = await ctx.call("/api/v1/keywords", {
      headers: { ...key, "idempotency-key": "kw" },
      body: keyword,
    });
    expect([recorded.status, recordedAgain.status]).toEqual([201, 201]);

    const jwt = { authorization: `Bearer ${account.token}`, "idempotency-key": "new-key-0f3a" };
    const made = await ctx.call("/api/v1/keys", { headers: jwt, body: { name: "ci" } });
    expect(made.status).toBe(201);
    const remade = await ctx.call("/api/v1/keys", { headers: jwt, body: { name: "ci" } });
    expect(remade.status).toBe(201);
    expect(remade.headers.get("idempotent-replayed")).toBe("true");
    expect(remade.headers.get("cache-control")).toBe("no-store");
    expect(body(remade).data.key).toBe(body(made).data.key);
    expect(await ctx.stack.db.apiKey.count({ where: { userId: account.user.id, revokedAt: null } })).toBe(2);
    // what is stored holds neither the Idempotency-Key nor the new key's secret in the clear
    const rows = await ctx.stack.db.idempotencyKey.findMany({ where: { scope: `user:${account.user.id}` } });
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]) + Buffer.from(rows[0]?.responseBody ?? []).toString("latin1");
    expect(stored).not.toContain("new-key-0f3a");
    expect(stored).not.toContain(body(made).data.key);
  });

  it("expires a key after its lifetime: a retry then is a new request, and expired keys are swept", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const first = await scan(account, "short-lived");
    const row = await ctx.stack.db.idempotencyKey.findFirstOrThrow({ where: { scope: `key:${account.keyId}` } });
    // kept 24 hours by default
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(86_400_000);
    await ctx.stack.db.idempotencyKey.update({
      where: { scope_keyHash: { scope: row.scope, keyHash: row.keyHash } },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const after = await scan(account, "short-lived");
    expect(after.status).toBe(202);
    expect(after.headers.get("idempotent-replayed")).toBeNull();
    expect(body(after).data.id).not.toBe(body(first).data.id);
    expect(await scansOf(account)).toBe(2);
    // the key now names the new request
    expect(body(await scan(account, "short-lived")).data.id).toBe(body(after).data.id);

    // a gateway sweeps expired keys when it starts (and every ten minutes)
    const other = await createAccount(ctx.stack.db, "pro");
    await scan(other, "to-sweep");
    await ctx.stack.db.idempotencyKey.updateMany({
      where: { scope: `key:${other.keyId}` },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const second = await startStack({
      databaseUrl: ctx.database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
    });
    try {
      const swept = async () =>
        (await ctx.stack.db.idempotencyKey.count({ where: { scope: `key:${other.keyId}` } })) === 0;
      for (let i = 0; i < 500 && !(await swept()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await swept()).toBe(true);
      // the unexpired ones stay
      expect(await ctx.stack.db.idempotencyKey.count({ where: { scope: `key:${account.keyId}` } })).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe("Idempotency-Key while the first request runs, and on a server error", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    site = await startFixtureServer({
      // a page that takes 3 s: its scan outlasts the first request's wait
      "/slow": (req, res) => {
        setTimeout(() => html("<!doctype html><title>Slow</title><h1>Slow</h1>")(req, res), 3_000);
      },
      "/broken": html("<!doctype html><title>Down</title>", 503),
    });
    database = await createTestDatabase();
    // a worker for the scans; a request waits for its scan up to 2.5 s
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SCAN_WAIT_MS: "2500", ADMISSION_CONTROL: "off" },
    });
    account = await createAccount(stack.db, "pro");
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  const post = (path: string, payload: unknown, headers: Record<string, string>, signal?: AbortSignal) =>
    fetch(`${stack.gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": account.key, ...headers },
      body: JSON.stringify(payload),
      signal,
    });

  it("answers 409 to a retry while the first runs, uncounted, and the first answer once it is done, even to a client that left", async () => {
    const payload = { url: site.url("/slow"), mode: "quick" };
    const gone = new AbortController();
    const first = post("/api/v1/scan", payload, { "idempotency-key": "slow" }, gone.signal).catch(() => null);
    // the first has claimed the key once its scan row exists
    for (let i = 0; i < 200 && (await stack.db.scan.count({ where: { userId: account.user.id } })) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const busy = await post("/api/v1/scan", payload, { "idempotency-key": "slow", "x-response-form": "B" });
    expect(busy.status).toBe(409);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(await busy.json()).toEqual({
      error: expect.stringContaining("still being answered"),
      code: "IDEMPOTENCY_KEY_IN_USE",
    });
    expect(Number(busy.headers.get("x-ratelimit-remaining"))).toBe(PRO_LIMIT - 1);
    // the client times out and leaves while the scan runs; the gateway still answers (202) and keeps it
    gone.abort();
    await first;
    let replay: Response | null = null;
    for (let i = 0; i < 100; i++) {
      replay = await post("/api/v1/scan", payload, { "idempotency-key": "slow" });
      if (replay.status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(replay?.status).toBe(202);
    expect(replay?.headers.get("idempotent-replayed")).toBe("true");
    expect(await stack.db.scan.count({ where: { userId: account.user.id } })).toBe(1);
    // the scan itself runs on and completes; the key still answers what the first request was answered
    for (let i = 0; i < 300; i++) {
      const scan = await stack.db.scan.findFirst({ where: { userId: account.user.id } });
      if (scan?.status === "completed" || scan?.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const later = await post("/api/v1/scan", payload, { "idempotency-key": "slow" });
    expect([later.status, later.headers.get("idempotent-replayed")]).toEqual([202, "true"]);
  });

  it("answers the scan a key stored when its gateway died before answering: no second scan, counted once", async () => {
    const payload = { url: site.url("/slow"), mode: "quick" };
    const first = await post("/api/v1/scan", payload, { "idempotency-key": "died", prefer: "respond-async" });
    expect(first.status).toBe(202);
    const { id } = (await first.json()).data;
    const scans = await stack.db.scan.count({ where: { userId: account.user.id } });
    // the key as a gateway that died after storing the scan leaves it: claimed, bound to the scan,
    // never answered, its claim no longer renewed
    const keyHash = createHash("sha256").update("died").digest("hex");
    const changed = await stack.db.$executeRaw`
      UPDATE idempotency_keys
      SET state = 'in_progress', status_code = NULL, response_headers = NULL, response_body = NULL,
          locked_until = now() - interval '1 second'
      WHERE scope = ${`key:${account.keyId}`} AND key_hash = ${keyHash} AND resource IS NOT NULL`;
    expect(changed).toBe(1);
    // the retry waits for that scan as the first request would have, and is told its id
    const retry = await post("/api/v1/scan", payload, { "idempotency-key": "died" });
    expect([200, 202]).toContain(retry.status);
    expect((await retry.json()).data.id).toBe(id);
    expect(await stack.db.scan.count({ where: { userId: account.user.id } })).toBe(scans);
    // its answer is kept: the next retry replays it
    const replay = await post("/api/v1/scan", payload, { "idempotency-key": "died" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await replay.json()).data.id).toBe(id);
  });

  it("answers a retry after a 502 with the same failed scan: the key made it, and makes no second one", async () => {
    const payload = { url: site.url("/broken"), mode: "quick" };
    const before = await stack.db.scan.count({ where: { userId: account.user.id } });
    const first = await post("/api/v1/scan", payload, { "idempotency-key": "broken" });
    expect(first.status).toBe(502);
    const failed = await stack.db.scan.findFirstOrThrow({
      where: { userId: account.user.id },
      orderBy: { createdAt: "desc" },
    });
    expect((await first.json()).error.hint).toContain(failed.id);
    const retry = await post("/api/v1/scan", payload, { "idempotency-key": "broken" });
    expect(retry.status).toBe(502);
    expect((await retry.json()).error.hint).toContain(failed.id);
    expect(await stack.db.scan.count({ where: { userId: account.user.id } })).toBe(before + 1);
    // a new key is a new scan
    expect((await post("/api/v1/scan", payload, { "idempotency-key": "broken-again" })).status).toBe(502);
    expect(await stack.db.scan.count({ where: { userId: account.user.id } })).toBe(before + 2);
    // a 5xx is not kept as an answer: the key stays bound to its scan, and each retry reads it again
    const broken = await stack.db.idempotencyKey.findUniqueOrThrow({
      where: {
        scope_keyHash: { scope: `key:${account.keyId}`, keyHash: createHash("sha256").update("broken").digest("hex") },
      },
    });
    expect([broken.state, broken.statusCode, broken.resource === null]).toEqual(["in_progress", null, false]);
  });
});
