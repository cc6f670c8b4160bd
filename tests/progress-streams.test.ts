import { createAccount } from "./support/accounts";
import { type AccountsApi, body, MISSING_SCAN, startAccountsApi } from "./support/accounts-api";
import { openStream } from "./support/event-stream";
import { html, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD, SESSION_COOKIE } from "./support/sessions";
import { startStack } from "./support/stack";

/**
 * The progress streams (docs/api.md, Progress streams): GET /api/v1/scan/:id/events and
 * GET /api/v1/audits/:id/events as server-sent events, authenticated by a key, a session's JWT
 * or the dashboard's cookie; another user's scan is 404; events until the state is final;
 * reconnecting with Last-Event-ID; at most PROGRESS_STREAMS_PER_USER open; the gateway's
 * shutdown ends them.
 */

afterAll(() => stopContainers());

const PER_USER = 2;
const ENV = { SIGN_UP: "open", PROGRESS_STREAMS_PER_USER: String(PER_USER), PROGRESS_POLL_MS: "100" };

/** A signed-up user, as the dashboard's browser holds them: its cookie, and a JWT for the API. */
const signedUpOn = async (base: string) => {
  const browser = new Browser(base);
  expect((await browser.signUp(freshEmail(), PASSWORD)).status).toBe(201);
  const jwt = await browser.token();
  // what an EventSource on the dashboard's own page sends: the cookie, and no Origin on a same-origin GET
  const cookie = { cookie: `${SESSION_COOKIE}=${browser.cookie}`, "x-forwarded-for": browser.from };
  return { browser, jwt, cookie };
};

describe("progress streams, scans and audits under way (gateway alone: jobs stay queued)", () => {
  let ctx: AccountsApi;
  let base: string;
  const startScan = async (jwt: string) => {
    const response = await ctx.call("/api/v1/scan", {
      body: { url: ctx.site.url("/page"), mode: "quick" },
      headers: { authorization: `Bearer ${jwt}`, prefer: "respond-async" },
    });
    expect(response.status).toBe(202);
    return body(response).data.id as string;
  };

  beforeAll(async () => {
    ctx = await startAccountsApi(ENV);
    base = ctx.stack.gateway.url;
  }, 60_000);
  afterAll(() => ctx?.close());

  it("is refused without credentials, and with the cookie from another site's page, as JSON", async () => {
    const { jwt, cookie } = await signedUpOn(base);
    const id = await startScan(jwt);
    const none = await openStream(base, `/api/v1/scan/${id}/events`, {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      ok: false,
      error: { code: "unauthenticated", message: expect.any(String), hint: expect.any(String) },
    });
    const foreign = await openStream(base, `/api/v1/scan/${id}/events`, {
      ...cookie,
      origin: "https://elsewhere.example",
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    // the cookie opens only the streams: the rest of the API still wants a header
    const read = await ctx.call(`/api/v1/scan/${id}`, { headers: cookie });
    expect(read.status).toBe(401);
  });

  it("answers 404 for another user's scan and for a missing one, as it does for a GET", async () => {
    const owner = await signedUpOn(base);
    const other = await signedUpOn(base);
    const id = await startScan(owner.jwt);
    for (const path of [`/api/v1/scan/${id}/events`, `/api/v1/scan/${MISSING_SCAN}/events`]) {
      const refused = await openStream(base, path, other.cookie);
      expect([path, refused.status, refused.body.error.code]).toEqual([path, 404, "not_found"]);
    }
  });

  it("pushes the scan's state with the cookie, and again as it moves; a key's holder streams with the key", async () => {
    const { jwt, cookie } = await signedUpOn(base);
    const id = await startScan(jwt);
    const stream = await openStream(base, `/api/v1/scan/${id}/events`, cookie);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers.get("cache-control")).toBe("no-store");
    expect(await stream.next()).toEqual({
      event: "scan",
      id: "queued",
      data: expect.objectContaining({ id, status: "queued" }),
    });
    // the worker takes it (done here by hand: this stack has none)
    await ctx.stack.db.scan.update({ where: { id }, data: { status: "running", startedAt: new Date() } });
    expect(await stream.next()).toEqual({
      event: "scan",
      id: "running",
      data: expect.objectContaining({ id, status: "running" }),
    });
    stream.close();
    // a HEAD is answered with the stream's headers and ends at once
    const head = await fetch(`${base}/api/v1/scan/${id}/events`, { method: "HEAD", headers: cookie });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");

    const account = await createAccount(ctx.stack.db);
    const scanned = await ctx.scanWith({ "x-api-key": account.key, prefer: "respond-async" });
    const byKey = await openStream(base, `/api/v1/scan/${body(scanned).data.id}/events`, { "x-api-key": account.key });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get("x-ratelimit-limit")).toBe("10");
    expect((await byKey.next())?.data.status).toBe("queued");
    byKey.close();
  });

  it("a reconnect with Last-Event-ID is sent only what changed since", async () => {
    const { jwt, cookie } = await signedUpOn(base);
    const id = await startScan(jwt);
    const again = await openStream(base, `/api/v1/scan/${id}/events`, { ...cookie, "last-event-id": "queued" });
    expect(again.status).toBe(200);
    await ctx.stack.db.scan.update({ where: { id }, data: { status: "running", startedAt: new Date() } });
    // the first event is the change, not the state the client already had
    expect((await again.next())?.id).toBe("running");
    again.close();
  });

  it("holds at most PROGRESS_STREAMS_PER_USER streams open per user; one more is 429", async () => {
    const { jwt, cookie } = await signedUpOn(base);
    const id = await startScan(jwt);
    const open = [];
    for (let n = 0; n < PER_USER; n += 1) {
      const stream = await openStream(base, `/api/v1/scan/${id}/events`, cookie);
      expect(stream.status).toBe(200);
      expect((await stream.next())?.id).toBe("queued");
      open.push(stream);
    }
    const refused = await openStream(base, `/api/v1/scan/${id}/events`, cookie);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: "rate_limited",
      message: `This user already has ${PER_USER} progress streams open, the most at once`,
      hint: expect.stringContaining("Close a report page"),
    });
    // another user is not held back
    const other = await signedUpOn(base);
    const theirs = await openStream(base, `/api/v1/scan/${await startScan(other.jwt)}/events`, other.cookie);
    expect(theirs.status).toBe(200);
    theirs.close();
    for (const stream of open) stream.close();
  });

  it("follows an audit until it ends; its final id on a reconnect is 204", async () => {
    const { jwt, cookie } = await signedUpOn(base);
    const auth = { authorization: `Bearer ${jwt}` };
    const site = await ctx.call("/api/v1/sites", { body: { url: ctx.site.url("/page") }, headers: auth });
    expect(site.status).toBe(201);
    const started = await ctx.call(`/api/v1/sites/${body(site).data.id}/audits`, {
      body: { mode: "quick", max_pages: 2 },
      headers: auth,
    });
    expect(started.status).toBe(202);
    const auditId = body(started).data.id as string;
    const stream = await openStream(base, `/api/v1/audits/${auditId}/events`, cookie);
    expect(stream.status).toBe(200);
    const first = await stream.next();
    expect(first).toEqual({
      event: "audit",
      id: "discovering.0.0",
      data: expect.objectContaining({ id: auditId, status: "discovering", report: null }),
    });
    expect((await ctx.call(`/api/v1/audits/${auditId}`, { method: "DELETE", headers: auth })).status).toBe(200);
    const rest = await stream.rest();
    expect(rest.map((event) => event.data.status)).toEqual(["cancelled"]);
    const finalId = rest[0]?.id as string;
    const reconnect = await openStream(base, `/api/v1/audits/${auditId}/events`, {
      ...cookie,
      "last-event-id": finalId,
    });
    expect(reconnect.status).toBe(204);
  });
});

describe("progress streams of scans that finish (gateway and Chromium worker)", () => {
  it("sends each state until the finished scan, then ends; a reconnect after the end is 204", async () => {
    const site = await startFixtureServer({
      "/page": html("<!doctype html><html lang='en'><title>A page to scan</title><h1>A page</h1><p>Words.</p></html>"),
    });
    const database = await createTestDatabase();
    const stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { ...ENV, SCAN_TIMEOUT_MS: "5000" },
    });
    try {
      const base = stack.gateway.url;
      const { jwt, cookie } = await signedUpOn(base);
      const started = await fetch(`${base}/api/v1/scan`, {
        method: "POST",
        headers: { authorization: `Bearer ${jwt}`, prefer: "respond-async", "content-type": "application/json" },
        body: JSON.stringify({ url: site.url("/page"), mode: "quick" }),
      });
      expect(started.status).toBe(202);
      const id = ((await started.json()) as { data: { id: string } }).data.id;
      const events = await (await openStream(base, `/api/v1/scan/${id}/events`, cookie)).rest();
      const last = events.at(-1);
      expect(last?.id).toBe("completed");
      expect(last?.data).toEqual(
        expect.objectContaining({ id, status: "completed", grade: expect.any(String), checks: expect.any(Array) }),
      );
      // every state once, in order
      const order = ["queued", "running", "completed"];
      const ids = events.map((event) => event.id as string);
      expect(ids).toEqual(order.filter((status) => ids.includes(status)));

      const after = await openStream(base, `/api/v1/scan/${id}/events`, { ...cookie, "last-event-id": "completed" });
      expect(after.status).toBe(204);
      const behind = await openStream(base, `/api/v1/scan/${id}/events`, { ...cookie, "last-event-id": "running" });
      expect((await behind.rest()).map((event) => event.id)).toEqual(["completed"]);
    } finally {
      await stack.close();
      await site.close();
      await database.drop();
    }
  }, 60_000);

  it("the gateway's shutdown ends the open streams and does not wait on them", async () => {
    // a shutdown that waited for the stream would outlast the test's own time limit
    const ctx = await startAccountsApi({ ...ENV, SHUTDOWN_TIMEOUT_MS: "120000" });
    try {
      const { jwt, cookie } = await signedUpOn(ctx.stack.gateway.url);
      const scanned = await ctx.call("/api/v1/scan", {
        body: { url: ctx.site.url("/page"), mode: "quick" },
        headers: { authorization: `Bearer ${jwt}`, prefer: "respond-async" },
      });
      const stream = await openStream(ctx.stack.gateway.url, `/api/v1/scan/${body(scanned).data.id}/events`, cookie);
      expect((await stream.next())?.id).toBe("queued");
      const ended = stream.next();
      await ctx.stack.gateway.close();
      expect(await ended).toBeNull();
    } finally {
      await ctx.close().catch(() => undefined);
    }
  }, 60_000);
});
