import { randomUUID } from "node:crypto";
import { createDb } from "@scan/db";
import { createLogger } from "@scan/platform";
import { PlanPriorityWeights, SCAN_JOB, SCAN_QUEUE, scanJob } from "@scan/queue";
import { createReaper } from "@scan/worker";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { createAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl, uniquePrefix } from "./support/services";

/**
 * The reaper against real Postgres and Redis: a scan whose job the queue lost is queued again
 * from its row, as the gateway would have queued it; a scan that cannot run, or was queued
 * again too often, is failed with the reason; a scan whose job is alive is left alone.
 */

const log = createLogger({ service: "test", level: "silent" });
const weights = PlanPriorityWeights.parse(undefined);

describe("reaper", () => {
  let database: TestDatabase;
  let db: ReturnType<typeof createDb>;
  let connection: Redis;
  let queue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    connection = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    queue = new Queue(SCAN_QUEUE, { connection, prefix: uniquePrefix() });
  }, 300_000);

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await db?.$disconnect();
    await database?.drop();
    await stopContainers();
  });

  beforeEach(async () => {
    await queue.obliterate({ force: true });
    await db.scan.deleteMany();
  });

  const reaper = (overrides: Partial<Parameters<typeof createReaper>[0]> = {}) =>
    createReaper({
      db,
      queue,
      redis: connection,
      orphanAfterMs: 1_000,
      runningAfterMs: 60_000,
      weights,
      log,
      ...overrides,
    });

  const ago = (ms: number) => new Date(Date.now() - ms);

  const scanRow = (data: Partial<Parameters<typeof db.scan.create>[0]["data"]> = {}) =>
    db.scan.create({
      data: {
        id: randomUUID(),
        url: "https://example.com/",
        mode: "quick",
        status: "queued",
        requestId: "req-1",
        createdAt: ago(30_000),
        updatedAt: ago(30_000),
        ...data,
      },
    });

  it("queues a lost scan again from its row: same id, payload and attempts, the gateway's priority", async () => {
    const { user } = await createAccount(db, "free");
    // two of the owner's scans wait ahead of it, with their jobs alive, so its priority is 1 + 2 × 8
    for (const age of [50_000, 40_000]) {
      const ahead = await scanRow({ userId: user.id, createdAt: ago(age), updatedAt: ago(age) });
      const waiting = scanJob(ahead, 1);
      await queue.add(waiting.name, waiting.data, waiting.opts);
    }
    const lost = await scanRow({ userId: user.id, mode: "full", keepSnapshot: true, url: "https://example.com/a" });

    expect(await reaper().sweep()).toEqual({ requeued: 1, failed: 0 });
    const job = await queue.getJob(lost.id);
    const expected = scanJob(lost, 1 + 2 * weights.free);
    expect(job?.name).toBe(SCAN_JOB.name);
    expect(job?.data).toEqual({
      scanId: lost.id,
      url: "https://example.com/a",
      mode: "full",
      requestId: "req-1",
      keepSnapshot: true,
    });
    expect(job?.id).toBe(lost.id);
    expect(job?.opts).toEqual(expect.objectContaining({ ...expected.opts, priority: 17 }));
    expect(await job?.getState()).toBe("prioritized");
    const row = await db.scan.findUniqueOrThrow({ where: { id: lost.id } });
    expect(row).toEqual(expect.objectContaining({ status: "queued", requeues: 1, startedAt: null }));
    // the row changed: the next sweep leaves it alone, and its job is alive anyway
    expect(await reaper().sweep()).toEqual({ requeued: 0, failed: 0 });
  });

  it("leaves a scan whose job is waiting, however old its row", async () => {
    const row = await scanRow({ updatedAt: ago(3_600_000) });
    const job = scanJob(row, 1);
    await queue.add(job.name, job.data, job.opts);
    expect(await reaper().sweep()).toEqual({ requeued: 0, failed: 0 });
    expect((await db.scan.findUniqueOrThrow({ where: { id: row.id } })).requeues).toBe(0);
  });

  it("gives a running scan's live worker time to store it before queueing it again", async () => {
    const running = await scanRow({ status: "running", startedAt: ago(5_000), updatedAt: ago(5_000) });
    expect(await reaper({ runningAfterMs: 30_000 }).sweep()).toEqual({ requeued: 0, failed: 0 });
    expect(await reaper({ runningAfterMs: 4_000 }).sweep()).toEqual({ requeued: 1, failed: 0 });
    expect(await db.scan.findUniqueOrThrow({ where: { id: running.id } })).toEqual(
      expect.objectContaining({ status: "queued", requeues: 1 }),
    );
  });

  it("replaces a dead job (failed while Postgres was away) with a fresh one", async () => {
    const row = await scanRow({ status: "running", updatedAt: ago(5_000) });
    const job = scanJob(row, 1);
    const added = await queue.add(job.name, job.data, { ...job.opts, attempts: 1 });
    // a job that failed without its row being told, as a worker does when the database stays away
    const blocking = connection.duplicate();
    const worker = new Worker(
      SCAN_QUEUE,
      async () => {
        throw new Error("database unreachable");
      },
      { connection: blocking, prefix: queue.opts.prefix },
    );
    try {
      const until = Date.now() + 10_000;
      while ((await added.getState()) !== "failed" && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.close();
      blocking.disconnect();
    }
    expect(await queue.getJobState(row.id)).toBe("failed");
    expect(await reaper().sweep()).toEqual({ requeued: 1, failed: 0 });
    expect(await queue.getJobState(row.id)).toBe("prioritized");
    expect((await queue.getJob(row.id))?.attemptsMade).toBe(0);
  });

  it("fails a scan whose job stalled out (it stopped its workers), rather than run it again", async () => {
    const row = await scanRow({ status: "running", updatedAt: ago(5_000) });
    const job = scanJob(row, 1);
    await queue.add(job.name, job.data, job.opts);
    const prefix = queue.opts.prefix;
    // a worker that takes the job and dies with it: its lock expires, nobody renews it
    const dyingConnection = connection.duplicate();
    const dying = new Worker(SCAN_QUEUE, () => new Promise<never>(() => undefined), {
      connection: dyingConnection,
      prefix,
      lockDuration: 1_000,
      skipStalledCheck: true,
    });
    const until = Date.now() + 10_000;
    while ((await queue.getJobState(row.id)) !== "active" && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    await dying.close(true);
    dyingConnection.disconnect();
    // a live worker's stalled check finds it; with no stall allowed, it fails the job
    const liveConnection = connection.duplicate();
    const live = new Worker(SCAN_QUEUE, async () => ({}), {
      connection: liveConnection,
      prefix,
      stalledInterval: 300,
      maxStalledCount: 0,
    });
    try {
      while ((await queue.getJobState(row.id)) !== "failed" && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await live.close();
      liveConnection.disconnect();
    }
    expect((await queue.getJob(row.id))?.failedReason).toMatch(/stalled/);
    expect(await reaper().sweep()).toEqual({ requeued: 0, failed: 1 });
    expect(await db.scan.findUniqueOrThrow({ where: { id: row.id } })).toEqual(
      expect.objectContaining({ status: "failed", errorMessage: expect.stringMatching(/stopped the workers/) }),
    );
  });

  it(`fails a scan that was queued again ${SCAN_JOB.maxRequeues} times already, saying why`, async () => {
    const row = await scanRow({ requeues: SCAN_JOB.maxRequeues });
    expect(await reaper().sweep()).toEqual({ requeued: 0, failed: 1 });
    expect(await db.scan.findUniqueOrThrow({ where: { id: row.id } })).toEqual(
      expect.objectContaining({
        status: "failed",
        errorCode: "internal_error",
        errorMessage: expect.stringMatching(/lost its place in the queue 4 times/),
      }),
    );
    expect(await queue.getJob(row.id)).toBeUndefined();
  });

  it("queues a lost scan once when several workers sweep at the same time", async () => {
    const rows = await Promise.all(Array.from({ length: 20 }, () => scanRow()));
    const results = await Promise.all([reaper().sweep(), reaper().sweep(), reaper().sweep()]);
    expect(results.reduce((sum, result) => sum + result.requeued, 0)).toBe(20);
    const stored = await db.scan.findMany({ where: { id: { in: rows.map((row) => row.id) } } });
    expect(stored.map((row) => row.requeues)).toEqual(rows.map(() => 1));
    expect(await queue.getJobCountByTypes("prioritized")).toBe(20);
  });

  it("works through a backlog longer than one sweep's page", async () => {
    await db.scan.createMany({
      data: Array.from({ length: 450 }, (_, i) => ({
        id: randomUUID(),
        url: `https://example.com/${i}`,
        mode: "quick" as const,
        status: "queued" as const,
        createdAt: ago(30_000),
        updatedAt: ago(30_000 - i),
      })),
    });
    expect(await reaper().sweep()).toEqual({ requeued: 450, failed: 0 });
    expect(await queue.getJobCountByTypes("prioritized")).toBe(450);
  });
});
