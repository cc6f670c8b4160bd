import { createAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Redis restarts with 20 scans in flight, down 8 s, back empty (no persistence: the worst a
 * managed Redis can do in a failover). The rows in Postgres are the truth: every scan the queue
 * lost is queued again from its row and completes, with the worker's default sweep settings;
 * callers who were waiting on a scan get its result within their budget.
 */

type Envelope = { data?: any; error?: { code: string; message: string } };

const PAGE = `<!doctype html><html lang="en"><head><title>A page that takes a moment</title></head>
<body><main><h1>A moment</h1><p>${"Words of content. ".repeat(50)}</p></main></body></html>`;

const SCAN_WAIT_MS = 34_000;

describe("Redis restarted empty with 20 scans in flight", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;

  beforeAll(async () => {
    // each page takes 1.5 s: two at a time, 20 scans would keep the worker busy for 15 s
    site = await startFixtureServer({
      "/page": (_req, res) =>
        setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(PAGE), 1_500).unref(),
    });
    database = await createTestDatabase();
    redis = await startRedisServer();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      allowlist: [site.hostPort],
      // the sweep's defaults (REAPER_INTERVAL_MS, ORPHAN_AFTER_MS) are what is under test
      env: {
        WORKER_CONCURRENCY: "2",
        SCAN_TIMEOUT_MS: "10000",
        SCAN_WAIT_MS: String(SCAN_WAIT_MS),
        RATE_LIMIT_ANONYMOUS: "100000",
        ADMISSION_CONTROL: "off",
      },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.kill();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  it("runs every lost scan again from its row: 20 of 20 complete", async () => {
    const agency = await createAccount(stack.db, "agency");
    const free = await createAccount(stack.db, "free");
    // 14 scans answered at once (free, anonymous), 6 callers waiting for theirs (agency)
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        api(stack.gateway.url, "/api/v1/scan", {
          body: { url: site.url(`/page?n=${i}`), mode: "quick" },
          headers: { prefer: "respond-async", ...(i % 2 === 0 ? { "x-api-key": free.key } : {}) },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(202);
    const waiting = Array.from({ length: 6 }, async (_, i) => {
      const sent = performance.now();
      const answer = await api(stack.gateway.url, "/api/v1/scan", {
        body: { url: site.url(`/page?w=${i}`), mode: "quick" },
        headers: { "x-api-key": agency.key },
      });
      return { ...answer, waitedMs: performance.now() - sent };
    });
    await eventually(async () => (await stack.db.scan.count()) === 20, 30_000, "20 scans in flight");
    const before = await stack.db.scan.groupBy({ by: ["status"], _count: true });

    await redis.kill();
    await new Promise((done) => setTimeout(done, 8_000));
    await redis.start();
    const backAt = Date.now();

    await eventually(
      async () => (await stack.db.scan.count({ where: { status: "completed" } })) === 20,
      // about 20 s on an idle machine; a loaded one is given more
      150_000,
      "all 20 scans to complete",
    );
    const recoveredMs = Date.now() - backAt;
    const rows = await stack.db.scan.findMany({ select: { status: true, requeues: true, checks: true } });
    expect(rows).toHaveLength(20);
    for (const row of rows) {
      expect(row.status).toBe("completed");
      expect(row.checks).not.toBeNull();
      // queued again at most once: no two sweeps queued the same scan
      expect(row.requeues).toBeLessThanOrEqual(1);
    }
    // the scans still queued when Redis went were lost with it, and run again from their rows
    const queuedBefore = before.find((group) => group.status === "queued")?._count ?? 0;
    expect(queuedBefore).toBeGreaterThanOrEqual(10);
    // (the count is read just before the kill: in between, each of the worker's 2 slots may take
    // one more job, which then runs on without Redis and completes without being queued again)
    expect(rows.filter((row) => row.requeues === 1).length).toBeGreaterThanOrEqual(queuedBefore - 2);
    // the callers who waited were kept waiting for the scan queued again, and got its result;
    // on a machine too loaded to finish within SCAN_WAIT_MS, the 202 that ends a full wait
    // (never an earlier one: the restart must not cut a wait short), and the row completed above
    for (const answer of await Promise.all(waiting)) {
      if (answer.status === 202) {
        expect(answer.waitedMs).toBeGreaterThanOrEqual(SCAN_WAIT_MS - 100);
        continue;
      }
      expect(answer.status).toBe(200);
      expect((answer.body as Envelope).data.status).toBe("completed");
    }
    process.stdout.write(
      `Redis restart: ${JSON.stringify(before)} in flight; all 20 completed ${recoveredMs} ms after Redis was back\n`,
    );
  }, 240_000);
});
