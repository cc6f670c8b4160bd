import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Redis restarts empty while callbacks and a regression alert wait for their next attempt (a
 * callback after its first attempt, another after its second of three, so its next is its
 * last; an alert due and not yet queued). Their rows are the truth: each is queued again at
 * the attempt it had reached and delivered exactly once; a callback delivered before the
 * restart is never sent again; a delivery that made its last attempt says `failed` in the API.
 */

type Json = Record<string, any>;
type Received = { id: string; attempt: number; path: string; answered: number };

const WEBHOOK_SECRET = "whsec_faults_deliveries_0123456789abcdef";
const BACKOFF_MS = 3_000;

const PAGE = `<!doctype html><html lang="en"><head><title>A page with a callback</title></head>
<body><main><h1>Called back</h1><p>${"Words of content. ".repeat(40)}</p></main></body></html>`;

describe("Redis restarted empty with deliveries waiting to retry", () => {
  let site: FixtureServer;
  let receiver: FixtureServer;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;
  let account: TestAccount;
  /** every POST the receiver got, in order */
  const received: Received[] = [];
  /** until healed, /flaky answers 500; /ok always 204, /down always 500 */
  let healed = false;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    });
    receiver = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://x").pathname;
        const answered = path === "/ok" || (path === "/flaky" && healed) ? 204 : 500;
        received.push({
          id: String(req.headers["x-webhook-id"]),
          attempt: Number(req.headers["x-webhook-attempt"]),
          path,
          answered,
        });
        res.writeHead(answered).end();
      });
    });
    database = await createTestDatabase();
    redis = await startRedisServer();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      allowlist: [site.hostPort, receiver.hostPort],
      env: {
        WEBHOOK_SECRET,
        WEBHOOK_ATTEMPTS: "3",
        WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
        WEBHOOK_TIMEOUT_MS: "2000",
        REAPER_INTERVAL_MS: "500",
        ORPHAN_AFTER_MS: "1000",
        RATE_LIMIT_AGENCY: "100000",
        ADMISSION_CONTROL: "off",
      },
    });
    account = await createAccount(stack.db, "agency");
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.kill();
    await site?.close();
    await receiver?.close();
    await database?.drop();
    await stopContainers();
  });

  /** A scan with its callback on the receiver's path; its id. */
  const scanCalledBackAt = async (path: string, tag: string): Promise<string> => {
    const answer = await api(stack.gateway.url, "/api/v1/scan", {
      body: { url: site.url(`/page?${tag}`), mode: "quick", callback_url: receiver.url(path) },
      headers: { "x-api-key": account.key, prefer: "respond-async" },
    });
    expect(answer.status).toBe(202);
    return (answer.body as Json).data.id as string;
  };

  const attemptsOf = (scanId: string) => stack.db.webhookDelivery.count({ where: { scanId } });
  const postsTo = (id: string) => received.filter((post) => post.id === id);

  let siteId: string | null = null;
  /** The account's site the alerts are of. */
  const watchedSite = async (): Promise<string> => {
    if (siteId) return siteId;
    const created = await api(stack.gateway.url, "/api/v1/sites", {
      body: { url: site.url("/") },
      headers: { "x-api-key": account.key },
    });
    expect([200, 201]).toContain(created.status);
    siteId = (created.body as Json).data.id as string;
    return siteId;
  };

  /** The delivery state of an alert as GET /api/v1/sites/:id/alerts lists it. */
  const listedAlertState = async (alertId: string): Promise<string | undefined> => {
    const listed = await api(stack.gateway.url, `/api/v1/sites/${await watchedSite()}/alerts`, {
      headers: { "x-api-key": account.key },
    });
    expect(listed.status).toBe(200);
    return ((listed.body as Json).data as Json[]).find((item) => item.id === alertId)?.delivery.state;
  };

  /** A regression alert of the account's site as an audit's report stores it, due at once; its id. */
  const storedAlert = async (): Promise<string> => {
    const id = randomUUID();
    const auditId = randomUUID();
    const previousAuditId = randomUUID();
    const siteId = await watchedSite();
    const scores = { seo: 90, aeo: 80, geo: 70, overall: 80, total: 80 };
    await stack.db.auditAlert.create({
      data: {
        id,
        auditId,
        previousAuditId,
        siteId,
        userId: account.user.id,
        url: receiver.url("/flaky"),
        body: {
          event: "site.regressed",
          alert_id: id,
          site_id: siteId,
          site_url: site.url("/"),
          audit_id: auditId,
          previous_audit_id: previousAuditId,
          mode: "quick",
          scores: { before: scores, after: { ...scores, overall: 60, total: 60 } },
          grade: { before: "B", after: "D" },
          reasons: [{ kind: "score_drop", points: 20, before: 80, after: 60 }],
          detected_at: new Date().toISOString(),
        },
      },
    });
    return id;
  };

  it("delivers every waiting callback and alert exactly once, at the attempt it had reached", async () => {
    // delivered before the restart: never sent again
    const done = await scanCalledBackAt("/ok", "done");
    await eventually(
      async () => (await stack.db.scan.findUniqueOrThrow({ where: { id: done } })).callbackState === "delivered",
      20_000,
      "the first callback to be delivered",
    );
    // two attempts made, the third (its last) waiting 2 × backoff
    const second = await scanCalledBackAt("/flaky", "second");
    await eventually(async () => (await attemptsOf(second)) === 2, 30_000, "the second attempt of a callback");
    // one attempt made, the second waiting one backoff
    const first = await scanCalledBackAt("/flaky", "first");
    await eventually(async () => (await attemptsOf(first)) === 1, 20_000, "the first attempt of a callback");
    const alert = await storedAlert();
    // both callbacks wait in the queue for their next attempt
    expect(await attemptsOf(second)).toBe(2);

    await redis.kill();
    await redis.start();
    healed = true;

    await eventually(
      async () =>
        (await stack.db.scan.count({ where: { id: { in: [first, second] }, callbackState: "delivered" } })) === 2 &&
        (await stack.db.auditAlert.findUniqueOrThrow({ where: { id: alert } })).state === "delivered",
      60_000,
      "both callbacks and the alert to be delivered",
    );
    // a few more sweeps: nothing is sent again
    const sweepsLater = Date.now() + 3_000;
    await eventually(async () => Date.now() > sweepsLater, 5_000, "three more seconds of sweeps");

    // each delivered once, at the attempt it had reached; the one delivered before, never again
    expect(postsTo(second).map(({ attempt, answered }) => [attempt, answered])).toEqual([
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    expect(postsTo(first).map(({ attempt, answered }) => [attempt, answered])).toEqual([
      [1, 500],
      [2, 204],
    ]);
    expect(postsTo(done).map(({ attempt, answered }) => [attempt, answered])).toEqual([[1, 204]]);
    expect(postsTo(alert).filter(({ answered }) => answered === 204)).toHaveLength(1);
    const alertRow = await stack.db.auditAlert.findUniqueOrThrow({ where: { id: alert } });
    expect(alertRow).toEqual(expect.objectContaining({ state: "delivered", attempts: postsTo(alert).length }));
    expect(await listedAlertState(alert)).toBe("delivered");

    // the API says so too
    for (const id of [first, second, done]) {
      const read = await api(stack.gateway.url, `/api/v1/scan/${id}`, { headers: { "x-api-key": account.key } });
      expect((read.body as Json).data.callback.state).toBe("delivered");
    }
  }, 120_000);

  it("makes the last attempt of a delivery the queue lost once, then says failed", async () => {
    healed = false;
    const dead = await scanCalledBackAt("/down", "dead");
    await eventually(async () => (await attemptsOf(dead)) === 2, 30_000, "two attempts of a callback");
    await redis.kill();
    await redis.start();
    await eventually(
      async () => (await stack.db.scan.findUniqueOrThrow({ where: { id: dead } })).callbackState === "failed",
      60_000,
      "the dead callback to be failed",
    );
    // the third attempt, its last, was made once, from its row
    expect(postsTo(dead).map(({ attempt }) => attempt)).toEqual([1, 2, 3]);
    const read = await api(stack.gateway.url, `/api/v1/scan/${dead}`, { headers: { "x-api-key": account.key } });
    const callback = (read.body as Json).data.callback;
    expect(callback.state).toBe("failed");
    expect(callback.attempts).toHaveLength(3);
  }, 120_000);

  it("says failed of a callback and an alert that made their last attempt but lost saying so", async () => {
    // as a worker leaves them when the database goes away between the last attempt and its verdict
    const scan = await scanCalledBackAt("/ok", "verdict-lost");
    await eventually(
      async () => (await stack.db.scan.findUniqueOrThrow({ where: { id: scan } })).callbackState === "delivered",
      20_000,
      "the callback to be delivered",
    );
    const madeAt = new Date(Date.now() - 60_000);
    await stack.db.webhookDelivery.deleteMany({ where: { scanId: scan } });
    await stack.db.webhookDelivery.createMany({
      data: [1, 2, 3].map((attempt) => ({
        scanId: scan,
        attempt,
        ok: false,
        statusCode: 500,
        error: "HTTP 500",
        durationMs: 5,
        createdAt: madeAt,
      })),
    });
    await stack.db.scan.update({ where: { id: scan }, data: { callbackState: "pending" } });
    const alert = await storedAlert();
    await stack.db.auditAlert.update({ where: { id: alert }, data: { attempts: 3, lastError: "HTTP 500" } });
    const postsBefore = received.length;

    await eventually(
      async () =>
        (await stack.db.scan.findUniqueOrThrow({ where: { id: scan } })).callbackState === "failed" &&
        (await stack.db.auditAlert.findUniqueOrThrow({ where: { id: alert } })).state === "failed",
      30_000,
      "both to be failed",
    );
    // no fourth attempt
    expect(received.length).toBe(postsBefore);
    const read = await api(stack.gateway.url, `/api/v1/scan/${scan}`, { headers: { "x-api-key": account.key } });
    expect((read.body as Json).data.callback.state).toBe("failed");
    expect(await listedAlertState(alert)).toBe("failed");
  }, 60_000);
});
