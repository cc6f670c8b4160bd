import type { IncomingMessage, ServerResponse } from "node:http";
import { AuditAlertView } from "@scan/contract";
import { createAccount, type TestAccount } from "./support/accounts";
import { comparedPage as page } from "./support/audit-site";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { expectInvalid, expectNotFound, expectPage } from "./support/lists";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * GET /api/v1/sites/:id/alerts: the regression alerts the worker stored for a site, newest
 * first, paged with ETag and Link, in both envelopes, each with its reasons and how its
 * delivery went (delivered, or failed with its attempts and error), never the alert URL's
 * path or query nor the signing secret; another user's site is 404.
 *
 * The regressions are real: the site's /b answers 404; an audit that excludes /b never sees
 * the broken link to it, the next audit without the exclusion does, so `broken-internal-links`
 * passed before and fails now.
 */

const WEBHOOK_SECRET = "whsec_sitealerts_0123456789abcdef012345";
const HOOK_TOKEN = "hooktoken-0123456789";

type Json = Record<string, any>;

describe("a site's regression alerts", () => {
  let site: FixtureServer;
  let receiver: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const send = (status: number, body: string) =>
        res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
      if (path === "/") return send(200, page("The home page of the watched site", ["/a", "/b"]));
      if (path === "/a") return send(200, page("The first inner page of the watched site", ["/"]));
      if (path === "/b") return send(404, "<title>gone</title>");
      return res.writeHead(404).end();
    });
    receiver = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on("end", () => res.writeHead(req.url?.startsWith("/down") ? 500 : 204).end());
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, receiver.hostPort],
      // one attempt: a receiver answering 500 makes a failed delivery at once
      env: { WEBHOOK_SECRET, WEBHOOK_ATTEMPTS: "1", RATE_LIMIT_AGENCY: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await receiver?.close();
    await database?.drop();
    await stopContainers();
  });

  const call = (account: TestAccount, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    api(stack.gateway.url, path, { ...init, headers: { "x-api-key": account.key, ...init.headers } });

  /** A site of the account's, scheduled with an alert URL; its id. */
  const watchedSite = async (account: TestAccount, alertPath: string): Promise<string> => {
    const created = await call(account, "/api/v1/sites", { body: { url: site.url("/") } });
    const siteId = (created.body as Json).data.id as string;
    const schedule = await call(account, `/api/v1/sites/${siteId}/schedule`, {
      body: { frequency: "weekly", mode: "quick", alert_url: receiver.url(alertPath), alert_drop: 5 },
    });
    expect(schedule.status).toBe(201);
    return siteId;
  };

  /** Audits the site (quick) and waits for it to complete; its id. */
  const audit = async (account: TestAccount, siteId: string, exclude: string[]): Promise<string> => {
    const started = await call(account, `/api/v1/sites/${siteId}/audits`, { body: { mode: "quick", exclude } });
    expect(started.status).toBe(202);
    const id = (started.body as Json).data.id as string;
    await eventually(
      async () => (await stack.db.audit.findUniqueOrThrow({ where: { id } })).status === "completed",
      60_000,
      "the audit to complete",
    );
    return id;
  };

  const settled = (auditId: string) =>
    eventually(
      async () => (await stack.db.auditAlert.findFirst({ where: { auditId } }))?.state !== "pending",
      30_000,
      "the alert's delivery to settle",
    );

  const alertsOf = (response: ApiResponse) => (response.body as Json).data as Json[];

  it("lists delivered and failed alerts newest first, paged, in both forms; another user's site is 404", async () => {
    const owner = await createAccount(stack.db, "agency");
    const other = await createAccount(stack.db, "agency");
    const siteId = await watchedSite(owner, `/alerts?token=${HOOK_TOKEN}`);

    const nothingYet = await call(owner, `/api/v1/sites/${siteId}/alerts`);
    expect(expectPage(nothingYet, { page: 1, limit: 20, total: 0, hasMore: false })).toEqual([]);

    const clean = await audit(owner, siteId, ["/b"]);
    const broken = await audit(owner, siteId, []);
    await settled(broken);
    const cleanAgain = await audit(owner, siteId, ["/b"]);
    const brokenAgain = await audit(owner, siteId, []);
    await settled(brokenAgain);
    // getting better is not a regression
    expect(await stack.db.auditAlert.findFirst({ where: { auditId: cleanAgain } })).toBeNull();

    const first = await call(owner, `/api/v1/sites/${siteId}/alerts`);
    const alerts = expectPage(first, { page: 1, limit: 20, total: 2, hasMore: false });
    // newest first
    expect(alerts.map((alert) => [alert.audit_id, alert.previous_audit_id])).toEqual([
      [brokenAgain, cleanAgain],
      [broken, clean],
    ]);
    for (const alert of alerts) {
      expect(AuditAlertView.strict().parse(alert)).toEqual(alert);
      expect(alert).toMatchObject({
        site_id: siteId,
        mode: "quick",
        delivery: { state: "delivered", attempts: 1, last_error: null, origin: receiver.origin },
      });
      expect(alert.delivery.delivered_at).toEqual(expect.any(String));
      expect(alert.reasons).toContainEqual({
        kind: "check_failing",
        scope: "site",
        check: "broken-internal-links",
        title: expect.any(String),
        pages: expect.arrayContaining([site.url("/b"), site.url("/")]),
      });
      const stored = await stack.db.auditAlert.findUniqueOrThrow({ where: { id: alert.id } });
      expect(alert.created_at).toBe(stored.createdAt.toISOString());
      expect(alert.scores).toEqual((stored.body as Json).scores);
      expect(alert.grade).toEqual((stored.body as Json).grade);
    }
    // neither the alert URL's path and query (a token) nor the signing secret is ever shown
    const raw = JSON.stringify(first.body);
    expect(raw).not.toContain(HOOK_TOKEN);
    expect(raw).not.toContain("/alerts");
    expect(raw).not.toContain(WEBHOOK_SECRET);

    // Form B, paged one at a time, with Link and ETag as the other lists
    const pageOne = await call(owner, `/api/v1/sites/${siteId}/alerts?limit=1`, {
      headers: { "x-response-form": "B" },
    });
    expect(expectPage(pageOne, { page: 1, limit: 1, total: 2, hasMore: true }, "B").map((a) => a.audit_id)).toEqual([
      brokenAgain,
    ]);
    expect(pageOne.headers.get("link")).toContain(`/api/v1/sites/${siteId}/alerts?limit=1&page=2>; rel="next"`);
    const pageTwo = await call(owner, `/api/v1/sites/${siteId}/alerts?limit=1&page=2`, {
      headers: { "x-response-form": "B" },
    });
    expect(expectPage(pageTwo, { page: 2, limit: 1, total: 2, hasMore: false }, "B").map((a) => a.audit_id)).toEqual([
      broken,
    ]);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"/);
    const unchanged = await call(owner, `/api/v1/sites/${siteId}/alerts`, { headers: { "if-none-match": etag } });
    expect(unchanged.status).toBe(304);

    // another user: the same site of theirs, an alert URL that answers 500, one attempt
    const theirSite = await watchedSite(other, "/down");
    await audit(other, theirSite, ["/b"]);
    const failing = await audit(other, theirSite, []);
    await settled(failing);
    const theirs = alertsOf(await call(other, `/api/v1/sites/${theirSite}/alerts`));
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({
      audit_id: failing,
      delivery: { state: "failed", attempts: 1, last_error: "HTTP 500", delivered_at: null, origin: receiver.origin },
    });
    // a new alert on their site changes nothing on the owner's: the owner's ETag still holds
    expect((await call(owner, `/api/v1/sites/${siteId}/alerts`, { headers: { "if-none-match": etag } })).status).toBe(
      304,
    );

    // each user's site is the other's 404, in both forms, as a missing one
    expectNotFound(await call(other, `/api/v1/sites/${siteId}/alerts`), /No site with id/);
    expectNotFound(
      await call(owner, `/api/v1/sites/${theirSite}/alerts`, { headers: { "x-response-form": "B" } }),
      /No site with id/,
      "B",
    );
    expectInvalid(await call(owner, `/api/v1/sites/${siteId}/alerts?limit=0`), /limit/);
    expectInvalid(
      await call(owner, `/api/v1/sites/${siteId}/alerts?since=yesterday`, { headers: { "x-response-form": "B" } }),
      /since/,
      "B",
    );
    expectInvalid(await call(owner, "/api/v1/sites/not-a-uuid/alerts"), /id/);
    expect((await api(stack.gateway.url, `/api/v1/sites/${siteId}/alerts`)).status).toBe(401);
  }, 180_000);
});
