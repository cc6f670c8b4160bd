import { Client } from "pg";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";
import { Browser, freshEmail, PASSWORD, SESSION_COOKIE } from "./support/sessions";
import type { ApiResponse } from "./support/stack";

/**
 * Many reads at once from one dashboard session and one API key (docs/operations.md, A busy
 * database): the gateway's Postgres connections are fewer than the requests, so most wait for
 * one; each still answers. A database whose connections all stay busy for longer than a
 * request may wait (DATABASE_POOL_WAIT_MS) answers 503 with Retry-After in the request's
 * envelope, never 500, and the request holding the connection still completes.
 */

afterAll(() => stopContainers());

/** A signed-up user's browser (its cookie), its session's JWT, an API key, a site and a scan of theirs. */
const signedUp = async (ctx: AccountsApi) => {
  const browser = new Browser(ctx.stack.gateway.url);
  expect((await browser.signUp(freshEmail(), PASSWORD)).status).toBe(201);
  const jwt = await browser.token();
  const created = await browser.send("/api/v1/keys", {
    body: { name: "ci" },
    headers: { authorization: `Bearer ${jwt}` },
  });
  expect(created.status).toBe(201);
  const key = body(created).data.key as string;
  const site = await ctx.call("/api/v1/sites", { headers: { "x-api-key": key }, body: { url: ctx.site.url("/") } });
  expect(site.status).toBe(201);
  const scan = await ctx.scanWith({ "x-api-key": key, prefer: "respond-async" });
  expect(scan.status).toBe(202);
  return { browser, jwt, key, siteId: body(site).data.id as string, scanId: body(scan).data.id as string };
};

describe("many reads at once", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startAccountsApi({
      SIGN_UP: "open",
      // far fewer connections than requests at once: most of these wait for one, for seconds
      DATABASE_POOL_SIZE: "2",
      // they wait their turn: long enough for a busy machine (the 503 when none frees in time is
      // the next describe's)
      DATABASE_POOL_WAIT_MS: "120000",
      RATE_LIMIT_SESSION_READS: "10000",
      RATE_LIMIT_FREE: "10000",
    });
  }, 60_000);
  afterAll(() => ctx?.close());

  it("from a session's JWT, its cookie and an API key, across the lists and records, all answer", async () => {
    const { browser, jwt, key, siteId, scanId } = await signedUp(ctx);
    const reads = [
      "/api/v1/scans",
      "/api/v1/sites",
      `/api/v1/sites/${siteId}`,
      `/api/v1/sites/${siteId}/history`,
      `/api/v1/sites/${siteId}/audits`,
      `/api/v1/sites/${siteId}/alerts`,
      `/api/v1/scan/${scanId}`,
      "/api/v1/keywords",
      "/api/v1/citations",
      "/api/v1/account",
    ];
    const byCookie = { cookie: `${SESSION_COOKIE}=${browser.cookie}`, origin: ctx.stack.gateway.url };
    const fired: Array<Promise<[string, ApiResponse]>> = [];
    const fire = (label: string, path: string, init: { method?: string; headers: Record<string, string> }) =>
      fired.push(ctx.call(path, { ...init, from: browser.from }).then((response) => [label, response]));
    for (let n = 0; n < 100; n += 1) {
      const path = reads[n % reads.length] as string;
      fire(`jwt ${path}`, path, { headers: { authorization: `Bearer ${jwt}` } });
      // the cookie alone opens the session's own view and the progress streams (a HEAD ends at once)
      if (n % 2 === 0) fire("cookie /auth/session", "/auth/session", { headers: byCookie });
      else fire("cookie HEAD events", `/api/v1/scan/${scanId}/events`, { method: "HEAD", headers: byCookie });
      fire(`key ${path}`, path, { headers: { "x-api-key": key } });
    }
    const answers = await Promise.all(fired);
    const failed = answers
      .filter(([, response]) => response.status !== 200)
      .map(([label, response]) => [label, response.status, body(response).error]);
    expect(failed).toEqual([]);
    expect(answers).toHaveLength(300);
  }, 300_000);
});

describe("a database with no connection free in time", () => {
  let ctx: AccountsApi;
  let admin: Client;

  beforeAll(async () => {
    // one connection, and a short wait for it: one held request makes every other one wait past it
    ctx = await startAccountsApi({ SIGN_UP: "open", DATABASE_POOL_SIZE: "1", DATABASE_POOL_WAIT_MS: "300" });
    admin = new Client({ connectionString: ctx.database.url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await ctx?.close();
  });

  /** Whether some query of the gateway waits for the scans table's lock. */
  const waitingOnLock = async () =>
    (
      await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      )
    ).rowCount !== 0;

  it("answers 503 with Retry-After in both forms, and the request that held it still answers", async () => {
    const { jwt, key } = await signedUp(ctx);
    // the key is read once, so it is known without the database from here on
    expect((await ctx.call("/api/v1/account", { headers: { "x-api-key": key } })).status).toBe(200);

    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE "scans" IN ACCESS EXCLUSIVE MODE`);
    // the gateway's only connection is taken by a list that waits for the lock
    const holding = ctx.call("/api/v1/scans", { headers: { "x-api-key": key } });
    while (!(await waitingOnLock())) await new Promise((resolve) => setImmediate(resolve));

    const [formA, formB, bySession] = await Promise.all([
      ctx.call("/api/v1/sites", { headers: { "x-api-key": key } }),
      ctx.call("/api/v1/keywords", { headers: { "x-api-key": key, "x-response-form": "B" } }),
      // a session's JWT is checked against its row: that query waits for the connection too
      ctx.call("/api/v1/sites", { headers: { authorization: `Bearer ${jwt}` } }),
    ]);
    for (const response of [formA, formB, bySession]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
    }
    const busy = /^The database is busy/;
    const hint = "Try again in a few seconds; sending fewer requests at once helps.";
    expect(body(formA)).toEqual({
      ok: false,
      error: { code: "service_unavailable", message: expect.stringMatching(busy), hint },
    });
    expect(body(bySession)).toEqual(body(formA));
    expect(body(formB)).toEqual({ error: expect.stringMatching(busy), code: "SERVICE_UNAVAILABLE" });

    await admin.query("COMMIT");
    const held = await holding;
    expect(held.status).toBe(200);
    expect(body(held).meta).toMatchObject({ total: 1 });
    // free again, the same reads answer
    expect((await ctx.call("/api/v1/sites", { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await ctx.call("/api/v1/sites", { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(200);
  }, 60_000);
});
