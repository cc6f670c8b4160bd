import { createHash } from "node:crypto";
import { createKeyService, personalKeyOwner } from "@scan/gateway";
import { createAccount } from "./support/accounts";
import {
  type AccountsApi,
  body,
  type CallInit,
  expectRateHeaders,
  freshAddress,
  MISSING_SCAN,
  startAccountsApi,
} from "./support/accounts-api";
import { stopContainers } from "./support/services";
import type { ApiResponse } from "./support/stack";

/**
 * Who reads a scan (docs/api.md, "Reading an anonymous scan"): a key holder reads the scans of
 * its user; an anonymous scan is read only with the access link its POST answered, never by a key
 * that lacks it; the link's reads are counted per address apart from the anonymous scans. And a
 * key's rate limit follows its form (docs/spec/public-scanning-api.md §8: Pro 1,000 an hour in
 * Form A, 500 in Form B).
 */

const READS = 4;

afterAll(() => stopContainers());

describe("reading scans by their access links", () => {
  let ctx: AccountsApi;
  const call = (path: string, init?: CallInit) => ctx.call(path, init);

  beforeAll(async () => {
    ctx = await startAccountsApi({ RATE_LIMIT_ANONYMOUS_READS: String(READS) });
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  /** An anonymous scan from a fresh address: its id and the Location it was answered with. */
  const anonymousScan = async (from = freshAddress()) => {
    const made = await ctx.scanWith({}, from);
    expect(made.status).toBe(202);
    return { id: body(made).data.id as string, location: made.headers.get("location") as string };
  };

  const expectNotFound = (a: ApiResponse) => {
    expect(a.status).toBe(404);
    expect(body(a)).toEqual({
      ok: false,
      error: { code: "not_found", message: expect.stringMatching(/^No scan with id /), hint: expect.any(String) },
    });
  };

  it("answers an anonymous POST with a link that carries an unguessable token; only its hash is stored", async () => {
    const { id, location } = await anonymousScan();
    const match = location.match(/^\/api\/v1\/scan\/([0-9a-f-]{36})\?access=([A-Za-z0-9_-]{43})$/);
    expect(match?.[1]).toBe(id);
    const token = match?.[2] as string;
    const row = await ctx.stack.db.scan.findUniqueOrThrow({ where: { id } });
    expect(row.userId).toBeNull();
    expect(row.accessTokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    // two scans, two tokens
    const other = await anonymousScan();
    expect(other.location.split("access=")[1]).not.toBe(token);
  });

  it("lets whoever holds the link read the scan, without a key, in both forms", async () => {
    const { id, location } = await anonymousScan();
    const a = await call(location);
    expect(a.status).toBe(200);
    expect(body(a)).toEqual(
      expect.objectContaining({ ok: true, data: expect.objectContaining({ id, status: "queued" }) }),
    );
    const b = await call(location, { headers: { "x-response-form": "B" } });
    expect(b.status).toBe(200);
    expect(body(b)).toEqual({ success: true, data: expect.objectContaining({ id, status: "queued" }) });
    // a key holder given the link reads it too: the link is the capability
    const { key } = await createAccount(ctx.stack.db);
    expect((await call(location, { headers: { "x-api-key": key } })).status).toBe(200);
  });

  it("never lets a key without the link read an anonymous scan: 404, as if it were missing", async () => {
    const { id } = await anonymousScan();
    const { key } = await createAccount(ctx.stack.db);
    const theirs = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": key } });
    const missing = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key } });
    expectNotFound(theirs);
    expect(body(theirs).error.message.replace(id, "ID")).toBe(body(missing).error.message.replace(MISSING_SCAN, "ID"));
    const b = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": key, "x-response-form": "B" } });
    expect(b.status).toBe(404);
    expect(body(b)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
  });

  it("refuses a wrong token with 404, and a token-less anonymous read with 401 naming the link", async () => {
    const { id, location } = await anonymousScan();
    const other = await anonymousScan();
    // another scan's token, a made-up one, and this scan's token on another scan
    expectNotFound(await call(`/api/v1/scan/${id}?access=${other.location.split("access=")[1]}`));
    expectNotFound(await call(`/api/v1/scan/${id}?access=${"A".repeat(43)}`));
    expectNotFound(await call(`/api/v1/scan/${other.id}?${location.split("?")[1]}`));
    expectNotFound(await call(`/api/v1/scan/${MISSING_SCAN}?${location.split("?")[1]}`));

    const a = await call(`/api/v1/scan/${id}`);
    expect(a.status).toBe(401);
    expect(body(a).error).toEqual({
      code: "unauthenticated",
      message: "This endpoint needs an API key",
      hint: expect.stringMatching(/whole link in the Location header/),
    });
    const b = await call(`/api/v1/scan/${id}`, { headers: { "x-response-form": "B" } });
    expect(b.status).toBe(401);
    expect(body(b)).toEqual({ error: expect.any(String), code: "INVALID_API_KEY" });
  });

  it("refuses a malformed token with 400 naming the parameter", async () => {
    const { id } = await anonymousScan();
    for (const bad of ["short", "%00", `${"A".repeat(43)}!`]) {
      const response = await call(`/api/v1/scan/${id}?access=${bad}`);
      expect(response.status).toBe(400);
      expect(body(response).error).toEqual(
        expect.objectContaining({ code: "invalid_request", message: expect.stringMatching(/access/) }),
      );
    }
  });

  it("gives a key holder's scan a plain Location, and no token opens another user's scan", async () => {
    const owner = await createAccount(ctx.stack.db);
    const made = await ctx.scanWith({ "x-api-key": owner.key });
    const id = body(made).data.id;
    expect(made.headers.get("location")).toBe(`/api/v1/scan/${id}`);
    expect((await ctx.stack.db.scan.findUniqueOrThrow({ where: { id } })).accessTokenHash).toBeNull();
    const { location } = await anonymousScan();
    const token = location.split("access=")[1];
    expectNotFound(await call(`/api/v1/scan/${id}?access=${token}`));
    const stranger = await createAccount(ctx.stack.db);
    expectNotFound(await call(`/api/v1/scan/${id}?access=${token}`, { headers: { "x-api-key": stranger.key } }));
    expect((await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": owner.key } })).status).toBe(200);
  });

  it("counts link reads per address in their own window, so polling does not spend the scans", async () => {
    const from = freshAddress();
    const { location } = await anonymousScan(from);
    const reads: ApiResponse[] = [];
    for (let i = 0; i < READS; i++) reads.push(await call(location, { from }));
    expect(reads.map((r) => r.status)).toEqual(Array(READS).fill(200));
    expect(reads.map((r) => expectRateHeaders(r, READS))).toEqual([3, 2, 1, 0]);
    const refused = await call(location, { from });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    // the address's scans: one spent by the POST, the reads spent none of them
    const next = await ctx.scanWith({}, from);
    expect(next.status).toBe(202);
    expect(expectRateHeaders(next, 10)).toBe(8);
    // a token-less read is an ordinary anonymous request: counted with the scans
    const tokenless = await call(location.split("?")[0] as string, { from });
    expect(tokenless.status).toBe(401);
    expect(expectRateHeaders(tokenless, 10)).toBe(7);
  });
});

describe("a key's rate limit follows its form", () => {
  let ctx: AccountsApi;
  const call = (path: string, init?: CallInit) => ctx.call(path, init);

  beforeAll(async () => {
    ctx = await startAccountsApi();
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const keyWithForm = async (plan: "pro" | "starter", form: "A" | "B" | null) => {
    const { user } = await createAccount(ctx.stack.db, plan);
    const created = await createKeyService({ db: ctx.stack.db, maxKeysPerUser: 10 }).create(
      await personalKeyOwner(ctx.stack.db, user),
      {
        default_form: form,
      },
    );
    return created.key;
  };

  it("holds a Pro key of Form B to 500 an hour and a Pro key of Form A to 1,000, whatever a request asks", async () => {
    const formB = await keyWithForm("pro", "B");
    const formA = await keyWithForm("pro", "A");
    const noForm = await keyWithForm("pro", null);
    const readWith = (key: string, headers: Record<string, string> = {}) =>
      call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key, ...headers } });

    const b = await readWith(formB);
    expect(b.status).toBe(404);
    expect(body(b)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
    expect(expectRateHeaders(b, 500)).toBe(499);
    // asking for Form A on a request does not move the key to Form A's column, nor back
    expect(expectRateHeaders(await readWith(formB, { "x-response-form": "A" }), 500)).toBe(498);
    expect(expectRateHeaders(await readWith(formA), 1_000)).toBe(999);
    expect(expectRateHeaders(await readWith(formA, { "x-response-form": "B" }), 1_000)).toBe(998);
    // a key with no form of its own answers in the service's form (A here), and counts in its column
    expect(expectRateHeaders(await readWith(noForm), 1_000)).toBe(999);
    // headers outside /api/v1 and on the tool server show the same column
    expect((await ctx.call("/healthz", { headers: { "x-api-key": formB } })).headers.get("x-ratelimit-limit")).toBe(
      "500",
    );
  });

  it("leaves the plans whose two columns agree alone", async () => {
    const starterB = await keyWithForm("starter", "B");
    const response = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": starterB } });
    expect(expectRateHeaders(response, 100)).toBe(99);
  });

  it("counts a Form B Pro key's tool calls in the same column", async () => {
    const formB = await keyWithForm("pro", "B");
    const response = await call("/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { "x-api-key": formB, accept: "application/json, text/event-stream" },
    });
    expect(response.headers.get("x-ratelimit-limit")).toBe("500");
  });
});

describe("a service whose form is B", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startAccountsApi({ RESPONSE_FORM: "B" });
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("counts Pro keys without a form of their own, and Pro users, in Form B's column", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const keyed = await ctx.call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
    expect(body(keyed)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
    expect(expectRateHeaders(keyed, 500)).toBe(499);
    const keys = await ctx.call("/api/v1/keys", { headers: { authorization: `Bearer ${account.token}` } });
    expect(keys.status).toBe(200);
    expect(expectRateHeaders(keys, 500)).toBe(499);
  });
});
