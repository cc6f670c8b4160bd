import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { createAccount } from "./support/accounts";
import { body } from "./support/accounts-api";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, invitationToken, PASSWORD } from "./support/sessions";
import { api, type Stack, startStack } from "./support/stack";

/**
 * GET /api/v1/operations from real data: the real worker's queue and connection, a scan it
 * completed and one it failed, and finished scans in the scans table; GET /api/v1/account's
 * quota and rate-limit window for a key and for a session.
 */

afterAll(() => stopContainers());

/** A loopback port nothing listens on: a scan of it fails. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** percentile_cont: linear interpolation between the two nearest ranks. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (rank - low);
};

describe("operations and account", () => {
  let database: TestDatabase;
  let site: FixtureServer;
  let stack: Stack;
  let base: string;
  let dead: number;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": html(
        '<!doctype html><html lang="en"><head><title>Operations page</title></head><body><h1>Hi</h1></body></html>',
      ),
    });
    dead = await closedPort();
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, `127.0.0.1:${dead}`],
      env: { SIGN_UP: "open", ADMIN_TOKEN: "an-admin-token-0123456789", SCAN_QUOTA_STARTER: "50", SCAN_PORTS: "*" },
    });
    base = stack.gateway.url;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  it("shows the queue, the worker, the last hour and the latest failures", async () => {
    const operator = new Browser(base);
    const email = freshEmail("operator");
    expect((await operator.signUp(email, PASSWORD, await invitationToken(stack.db, email, "operator"))).status).toBe(
      201,
    );
    const { key } = await createAccount(stack.db, "pro");
    const done = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": key },
      body: { url: site.url("/page"), mode: "quick" },
    });
    expect(done.status).toBe(200);
    const failed = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": key },
      body: { url: `http://127.0.0.1:${dead}/gone`, mode: "quick" },
    });
    expect(failed.status).toBe(502);

    // finished scans recorded earlier this hour, and one from before it
    const durations = [120, 480, 950, 2_000, 3_300, 7_000];
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await stack.db.scan.createMany({
      data: [
        ...durations.map((durationMs, i) => ({
          id: randomUUID(),
          url: `https://shop.example.com/${i}`,
          mode: "quick" as const,
          status: "completed" as const,
          durationMs,
          completedAt: minutesAgo(10 + i),
        })),
        {
          id: randomUUID(),
          url: "https://old.example.com/",
          mode: "full" as const,
          status: "completed" as const,
          durationMs: 99_999,
          completedAt: minutesAgo(90),
        },
      ],
    });

    const response = await api(base, "/api/v1/operations", {
      headers: { authorization: `Bearer ${await operator.token()}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const view = body(response).data;
    expect(view.queue).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      prioritized: 0,
      failed: expect.any(Number),
      completed: expect.any(Number),
    });
    expect(view.queue.completed + view.queue.failed).toBeGreaterThanOrEqual(2);
    const worker = view.workers.find((w: { name: string }) => w.name === `${hostname()}:${process.pid}`);
    expect(worker).toBeDefined();
    expect(Math.abs(Date.parse(worker.lastSeen) - Date.now())).toBeLessThan(30_000);

    const real = await stack.db.scan.findMany({
      where: { status: { in: ["completed", "failed"] }, url: { startsWith: "http://127.0.0.1" } },
    });
    expect(real.map((scan) => scan.status).sort()).toEqual(["completed", "failed"]);
    const completed = [
      ...durations,
      ...real.filter((s) => s.status === "completed").map((s) => s.durationMs as number),
    ];
    expect(view.lastHour.done).toBe(completed.length);
    expect(view.lastHour.failed).toBe(1);
    expect(view.lastHour.perMinute).toHaveLength(60);
    expect(view.lastHour.perMinute.reduce((sum: number, m: { done: number }) => sum + m.done, 0)).toBe(
      completed.length,
    );
    const last = view.lastHour.perMinute[59];
    expect(Date.now() - Date.parse(last.at)).toBeLessThan(60_000);
    expect(last.done + last.failed).toBeGreaterThanOrEqual(2);
    expect(view.lastHour.p50Ms).toBe(Math.round(percentile(completed, 0.5)));
    expect(view.lastHour.p95Ms).toBe(Math.round(percentile(completed, 0.95)));

    const failure = real.find((scan) => scan.status === "failed");
    expect(view.failures[0]).toEqual({
      id: failure?.id,
      url: `http://127.0.0.1:${dead}/gone`,
      mode: "quick",
      error: failure?.errorMessage,
      code: failure?.errorCode,
      finishedAt: failure?.completedAt?.toISOString(),
    });
    expect(view.failures[0].error.length).toBeGreaterThan(0);
    expect(view.queueDashboard).toBe("/admin/queues");
  }, 300_000);

  it("answers the caller's plan, rate-limit window and monthly quota, by key and by session", async () => {
    const account = await createAccount(stack.db, "starter");
    await api(base, "/api/v1/scan", {
      headers: { "x-api-key": account.key, prefer: "respond-async" },
      body: { url: site.url("/page"), mode: "quick" },
    });
    const byKey = await api(base, "/api/v1/account", { headers: { "x-api-key": account.key } });
    expect(byKey.status).toBe(200);
    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 1, 1);
    next.setUTCHours(0, 0, 0, 0);
    expect(body(byKey).data).toEqual({
      plan: "starter",
      rateLimit: {
        limit: 100,
        remaining: Number(byKey.headers.get("x-ratelimit-remaining")),
        reset: Number(byKey.headers.get("x-ratelimit-reset")),
      },
      sessionReads: null,
      quota: { used: 1, limit: 50, resetsAt: next.toISOString() },
    });
    expect(body(byKey).data.rateLimit.remaining).toBe(98);
    const formB = await api(base, "/api/v1/account", { headers: { "x-api-key": account.key, "x-response-form": "B" } });
    expect(body(formB)).toEqual({ success: true, data: expect.objectContaining({ plan: "starter" }) });

    const user = new Browser(base);
    expect((await user.signUp(freshEmail(), PASSWORD)).status).toBe(201);
    const bySession = await api(base, "/api/v1/account", {
      headers: { authorization: `Bearer ${await user.token()}` },
    });
    // the plan's window it shows is untouched by a session's reads, and this read spent none of the session's own
    expect(body(bySession).data).toEqual({
      plan: "free",
      rateLimit: { limit: 10, remaining: 10, reset: expect.any(Number) },
      sessionReads: { limit: 3_600, remaining: 3_600, reset: expect.any(Number) },
      quota: { used: 0, limit: 100, resetsAt: next.toISOString() },
    });
  }, 300_000);
});
