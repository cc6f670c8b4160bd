import { createDb } from "@scan/db";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * Redis goes away between a scan's row being stored and its job being queued (a throwaway
 * redis-server, killed while the requests wait on their user's quota lock, which the test holds).
 * A synchronous scan and a batch are answered 202 with their scans' ids, not 503; their rows
 * stay queued, not failed; once Redis is back the worker's sweep queues them from their rows
 * and they complete.
 */

type Json = Record<string, any>;

const PAGE = `<!doctype html><html lang="en"><head><title>A page queued late</title></head>
<body><main><h1>Queued late</h1><p>${"Words of content. ".repeat(40)}</p></main></body></html>`;

describe("a stored scan whose job the queue could not take", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;
  let direct: ReturnType<typeof createDb>;
  let account: TestAccount;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    });
    database = await createTestDatabase();
    redis = await startRedisServer();
    direct = createDb(database.url);
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      allowlist: [site.hostPort],
      // the synchronous scan waits its budget for the sweep, which cannot queue it while Redis is away
      env: { SCAN_WAIT_MS: "5000", REAPER_INTERVAL_MS: "500", ORPHAN_AFTER_MS: "1000", ADMISSION_CONTROL: "off" },
    });
    // a plan with a monthly quota: its scans are stored under the user's quota lock
    account = await createAccount(stack.db, "free");
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.kill();
    await direct?.$disconnect();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  /** Holds the quota lock of the user's workspace until released: the scans wait on it, after their rate limit and before their insert. */
  const holdQuotaLock = async (userId: string) => {
    const { id: workspaceId } = await direct.workspace.findUniqueOrThrow({ where: { personalUserId: userId } });
    let release = () => {};
    const released = new Promise<void>((done) => {
      release = done;
    });
    let held = () => {};
    const acquired = new Promise<void>((done) => {
      held = done;
    });
    const transaction = direct.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`scan-quota:${workspaceId}`}, 0))`;
        held();
        await released;
      },
      { timeout: 30_000 },
    );
    await acquired;
    return { release, transaction };
  };

  const waitingOnLock = async (count: number) => {
    const [row] = await direct.$queryRaw<Array<{ waiting: bigint }>>`
      SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
    return Number(row?.waiting ?? 0) >= count;
  };

  it("answers 202 with the ids, keeps the rows queued, and runs them once the queue is back", async () => {
    const lock = await holdQuotaLock(account.user.id);
    const single = api(stack.gateway.url, "/api/v1/scan", {
      body: { url: site.url("/page?single"), mode: "quick" },
      headers: { "x-api-key": account.key },
    });
    const batch = api(stack.gateway.url, "/api/v1/scans/batch", {
      body: { urls: [site.url("/page?b1"), site.url("/page?b2")], mode: "quick" },
      headers: { "x-api-key": account.key },
    });
    await eventually(() => waitingOnLock(2), 10_000, "both requests to wait on the quota lock");
    await redis.kill();
    lock.release();
    await lock.transaction;

    const [one, many] = (await Promise.all([single, batch])) as [ApiResponse, ApiResponse];
    expect(one.status).toBe(202);
    const id = (one.body as Json).data.id as string;
    expect(one.headers.get("location")).toBe(`/api/v1/scan/${id}`);
    expect(many.status).toBe(202);
    const ids = [id, ...((many.body as Json).data.scans as Json[]).map((scan) => scan.id as string)];
    expect(ids).toHaveLength(3);
    // stored and left for the sweep, not failed
    const rows = await direct.scan.findMany({ where: { id: { in: ids } }, select: { status: true } });
    expect(rows).toEqual(ids.map(() => ({ status: "queued" })));

    await redis.start();
    await eventually(
      async () => (await direct.scan.count({ where: { id: { in: ids }, status: "completed" } })) === 3,
      60_000,
      "the three scans to complete",
    );
    const done = await direct.scan.findMany({ where: { id: { in: ids } }, select: { requeues: true } });
    expect(done).toEqual(ids.map(() => ({ requeues: 1 })));
  }, 120_000);
});
