import { randomUUID } from "node:crypto";
import type { Plan } from "@scan/contract";
import { createLogger } from "@scan/platform";
import { createRetention, startRetention } from "@scan/worker";
import { Redis } from "ioredis";
import { Client } from "pg";
import { createAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl, uniquePrefix } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Retention (docs/operations.md, "Retention"): a completed scan's full check list is dropped
 * once its owner's plan's retention has passed, in small batches that skip rows being written;
 * the row keeps its scores, grade and issue counts, and the API says the list was pruned.
 */

const log = createLogger({ service: "test", level: "silent" });
const DAY = 86_400_000;
const DAYS = { anonymous: 7, free: 30, starter: 90, pro: 365, agency: 730 };
const NOW = new Date("2026-11-24T12:00:00Z");
const CHECKS = [
  {
    id: "title",
    category: "seo",
    status: "pass",
    score: 5,
    maxScore: 5,
    severity: "critical",
    title: "Title",
    description: "The page has a title.",
    fix: null,
  },
];

afterAll(() => stopContainers());

describe("retention of check lists", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  /** A completed scan of `ageDays` before NOW, of a user of `plan` (or anonymous). */
  const scanOf = async (owner: { userId: string } | null, ageDays: number, extra: Record<string, unknown> = {}) => {
    const completedAt = new Date(NOW.getTime() - ageDays * DAY);
    const row = await stack.db.scan.create({
      data: {
        id: randomUUID(),
        url: "https://example.com/",
        mode: "full",
        status: "completed",
        seo: 80,
        aeo: 70,
        geo: 60,
        overall: 72,
        grade: "C",
        issuesCritical: 1,
        issuesWarning: 2,
        issuesInfo: 3,
        checks: CHECKS,
        createdAt: new Date(completedAt.getTime() - 20_000),
        completedAt,
        userId: owner?.userId ?? null,
        ...extra,
      },
    });
    return row.id;
  };

  const userOf = async (plan: Plan) => ({ userId: (await createAccount(stack.db, plan)).user.id });

  it("drops each plan's check lists past its retention, and keeps every score and count", async () => {
    const expected = new Map<string, boolean>();
    for (const plan of ["free", "starter", "pro", "agency"] as const) {
      const owner = await userOf(plan);
      expected.set(await scanOf(owner, DAYS[plan] + 1), true);
      expected.set(await scanOf(owner, DAYS[plan] - 1), false);
    }
    expected.set(await scanOf(null, DAYS.anonymous + 1), true);
    expected.set(await scanOf(null, DAYS.anonymous - 1), false);
    // not finished, or failed without checks: nothing to drop
    expected.set(await scanOf(null, 900, { status: "running", completedAt: null }), false);
    expected.set(await scanOf(null, 900, { status: "failed", checks: undefined }), false);

    const result = await createRetention({
      db: stack.db,
      days: DAYS,
      batchSize: 2,
      maxPerSweep: 1_000,
      pauseMs: 0,
      log,
    }).sweep(NOW);
    expect(result).toEqual({ pruned: 5, batches: 3 });
    for (const [id, pruned] of expected) {
      const row = await stack.db.scan.findUniqueOrThrow({ where: { id } });
      expect([id, row.checksPrunedAt?.toISOString() ?? null]).toEqual([id, pruned ? NOW.toISOString() : null]);
      if (pruned) expect(row.checks).toBeNull();
      if (!pruned && row.status === "completed") expect(row.checks).toEqual(CHECKS);
      expect(row).toMatchObject({ seo: 80, aeo: 70, geo: 60, overall: 72, grade: "C", issuesCritical: 1 });
    }
    // a second sweep finds nothing left
    expect(
      await createRetention({ db: stack.db, days: DAYS, batchSize: 2, maxPerSweep: 1_000, pauseMs: 0, log }).sweep(NOW),
    ).toEqual({ pruned: 0, batches: 1 });
  });

  it("works off a backlog oldest first, at most maxPerSweep a sweep", async () => {
    const owner = await userOf("free");
    const ids = [];
    for (const age of [400, 300, 200, 100]) ids.push(await scanOf(owner, age));
    const retention = createRetention({ db: stack.db, days: DAYS, batchSize: 10, maxPerSweep: 2, pauseMs: 0, log });
    expect((await retention.sweep(NOW)).pruned).toBe(2);
    const pruned = await stack.db.scan.findMany({ where: { id: { in: ids }, checksPrunedAt: { not: null } } });
    expect(pruned.map((row) => row.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect((await retention.sweep(NOW)).pruned).toBe(2);
  });

  it("skips a row another transaction holds, rather than wait for it", async () => {
    const owner = await userOf("free");
    const held = await scanOf(owner, 100);
    const free = await scanOf(owner, 100);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT id FROM scans WHERE id = $1 FOR UPDATE", [held]);
      const started = Date.now();
      const result = await createRetention({
        db: stack.db,
        days: DAYS,
        batchSize: 50,
        maxPerSweep: 50,
        pauseMs: 0,
        log,
      }).sweep(NOW);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result.pruned).toBeGreaterThanOrEqual(1);
      expect((await stack.db.scan.findUniqueOrThrow({ where: { id: free } })).checks).toBeNull();
      expect((await stack.db.scan.findUniqueOrThrow({ where: { id: held } })).checks).not.toBeNull();
    } finally {
      await client.query("ROLLBACK");
      await client.end();
    }
  });

  it("answers a pruned scan with its scores, no checks, and when they were dropped", async () => {
    const account = await createAccount(stack.db, "free");
    const id = await scanOf({ userId: account.user.id }, 1, { checksPrunedAt: NOW, checks: undefined });
    const a = await api(stack.gateway.url, `/api/v1/scan/${id}`, { headers: { "x-api-key": account.key } });
    expect(a.status).toBe(200);
    expect((a.body as { data: unknown }).data).toMatchObject({
      id,
      status: "completed",
      scores: { seo: 80, aeo: 70, geo: 60, overall: 72 },
      grade: "C",
      issues: { critical: 1, warning: 2, info: 3 },
      checks: null,
      checks_pruned_at: NOW.toISOString(),
    });
  });

  it("sweeps on one worker at a time, on its interval, and stops cleanly", async () => {
    const owner = await userOf("free");
    const id = await scanOf(owner, 1_000);
    const redis = new Redis(await testRedisUrl());
    const lockKey = `${uniquePrefix()}:retention`;
    const deps = { db: stack.db, days: DAYS, batchSize: 100, maxPerSweep: 1_000, pauseMs: 0, log, redis, lockKey };
    const stops = [startRetention(deps, 200), startRetention(deps, 200)];
    try {
      for (let i = 0; i < 100 && (await stack.db.scan.findUniqueOrThrow({ where: { id } })).checks !== null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await stack.db.scan.findUniqueOrThrow({ where: { id } })).checks).toBeNull();
      // the lock is one key with the interval as its lifetime
      expect(Number(await redis.pttl(lockKey))).toBeLessThanOrEqual(200);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      await redis.quit();
    }
  });
});
