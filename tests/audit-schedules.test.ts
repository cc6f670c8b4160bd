import { AUDIT_JOBS, auditSchedulerId, SCAN_QUEUE } from "@scan/queue";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { eventually, type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A site's audit schedule: a row and the BullMQ job scheduler made from it. It fires (its due
 * job, promoted, starts an audit that completes), keeps to the plan's cap, and survives a
 * restart of every service with Redis restarted empty: the worker makes the scheduler again
 * from the row.
 */

type Json = Record<string, any>;

const PAGE = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title>
<meta name="description" content="A page of the scheduled site, audited every day."></head>
<body><main><h1>${title}</h1><p>Plain words on a page that an audit reads.</p><a href="/second">Second</a></main></body></html>`;

describe("audit schedules", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;
  let connection: Redis;
  let queue: Queue;

  const env = {
    RATE_LIMIT_FREE: "100000",
    AUDIT_SCHEDULES_FREE: "1",
    REAPER_INTERVAL_MS: "300",
    ORPHAN_AFTER_MS: "2000",
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      "/": html(PAGE("The scheduled site's home page")),
      "/second": html(PAGE("The scheduled site's second page")),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    redis = await startRedisServer();
    stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, allowlist: [site.hostPort], env });
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(SCAN_QUEUE, { connection, prefix: stack.prefix });
  }, 300_000);

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await stack?.close();
    await redis?.kill();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const call = async (path: string, key: string, init: { method?: string; body?: unknown; form?: "B" } = {}) => {
    const answer = await api(stack.gateway.url, path, {
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      headers: { "x-api-key": key, ...(init.form ? { "x-response-form": init.form } : {}) },
    });
    return { ...answer, body: answer.body as Json };
  };

  it("fires, keeps to the plan's cap, and survives a restart of every service", async () => {
    const { key } = await createAccount(stack.db, "free");
    const siteId = (await call("/api/v1/sites", key, { body: { url: site.url("/") } })).body.data.id as string;
    const otherSite = (await call("/api/v1/sites", key, { body: { url: "https://other.example/" } })).body.data
      .id as string;

    const created = await call(`/api/v1/sites/${siteId}/schedule`, key, {
      body: { frequency: "daily", mode: "quick" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ site_id: siteId, frequency: "daily", mode: "quick", max_pages: 50 });
    expect(created.body.data.pattern).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
    const next = Date.parse(created.body.data.next_run_at);
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    // the free plan schedules one site
    const capped = await call(`/api/v1/sites/${otherSite}/schedule`, key, { body: { frequency: "weekly" }, form: "B" });
    expect(capped).toMatchObject({ status: 403, body: { code: "PLAN_LIMIT" } });
    const invalid = await call(`/api/v1/sites/${siteId}/schedule`, key, { body: { frequency: "hourly" } });
    expect(invalid.status).toBe(400);
    // replacing it keeps one schedule and one scheduler
    const weekly = await call(`/api/v1/sites/${siteId}/schedule`, key, {
      body: { frequency: "weekly", mode: "full" },
    });
    expect(weekly.status).toBe(200);
    expect(weekly.body.data.pattern).toMatch(/^\d{1,2} \d{1,2} \* \* [0-6]$/);
    expect(await queue.getJobSchedulersCount()).toBe(1);

    // the schedule comes due: its waiting job is promoted, and the audit it starts runs to its end
    const due = (await queue.getDelayed()).find((job) => job.name === AUDIT_JOBS.scheduled);
    expect(due).toBeDefined();
    await due?.promote();
    await eventually(
      async () => (await stack.db.audit.findFirst({ where: { siteId, status: "completed" } })) !== null,
      60_000,
      "the scheduled audit to complete",
    );
    const audit = await stack.db.audit.findFirstOrThrow({ where: { siteId } });
    const [size] = await stack.db.$queryRaw<Array<{ row: number; checks: number; facts: number }>>`
      SELECT avg(pg_column_size(p.*))::int AS row, avg(pg_column_size(p."checks"))::int AS checks,
        avg(pg_column_size(p."facts"))::int AS facts FROM "audit_pages" p WHERE p."status" = 'scanned'`;
    process.stdout.write(`full audit page bytes: ${JSON.stringify(size)}\n`);
    expect(audit).toMatchObject({ mode: "full", status: "completed", discovered: 2 });
    // a full audit's site scores become the site's latest scores
    const shown = (await call("/api/v1/sites", key)).body.data.find((entry: Json) => entry.id === siteId);
    expect(shown).toMatchObject({
      latest_scores: { seo: audit.seo, aeo: audit.aeo, geo: audit.geo },
      latest_scores_scan: { id: null, mode: "full", partial: false },
      latest_scores_audit: { id: audit.id, completed_at: audit.completedAt?.toISOString() },
    });
    const read = await call(`/api/v1/sites/${siteId}/schedule`, key);
    expect(read.body.data).toMatchObject({ last_audit_id: audit.id, frequency: "weekly" });

    // every service restarts, and Redis comes back empty: the scheduler is made again from the row
    await stack.close();
    await redis.kill();
    await redis.start();
    expect(await queue.getJobScheduler(auditSchedulerId(siteId))).toBeUndefined();
    stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, allowlist: [site.hostPort], env });
    queue = new Queue(SCAN_QUEUE, { connection, prefix: stack.prefix });
    // the new stack has a prefix of its own: the old queue's schedule is in Postgres only
    await eventually(
      async () => (await queue.getJobScheduler(auditSchedulerId(siteId))) !== undefined,
      15_000,
      "the scheduler to be made again",
    );
    const after = await call(`/api/v1/sites/${siteId}/schedule`, key);
    expect(Date.parse(after.body.data.next_run_at)).toBeGreaterThan(Date.now());

    const removed = await call(`/api/v1/sites/${siteId}/schedule`, key, { method: "DELETE" });
    expect(removed).toMatchObject({ status: 200, body: { data: { site_id: siteId, next_run_at: null } } });
    expect(await queue.getJobScheduler(auditSchedulerId(siteId))).toBeUndefined();
    const gone = await call(`/api/v1/sites/${siteId}/schedule`, key, { form: "B" });
    expect(gone).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
  }, 180_000);
});
