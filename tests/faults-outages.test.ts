import { createAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import {
  eventually,
  type RedisServer,
  type Relay,
  startRedisServer,
  startRelay,
  startWorkerProcess,
} from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The service under outages: a worker killed mid-scan, Postgres away for 10 s, Redis restarted
 * (losing every queued job). The gateway answers 503 with Retry-After while a dependency is
 * away, recovers without a restart, and every accepted scan runs to its end: the row is the
 * truth, and a scan whose job was lost is queued again from it.
 */

type Envelope = { data?: any; error?: { code: string; message: string }; code?: string };

const PAGE = `<!doctype html><html lang="en"><head><title>A page that is worth the wait</title></head>
<body><main><h1>Worth it</h1><p>${"Words of content. ".repeat(50)}</p></main></body></html>`;

describe("outages", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  /** resolves the next time the slow page is requested: a worker is then mid-scan */
  let slowRequested: () => Promise<void>;
  let onSlow: () => void = () => undefined;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": html(PAGE),
      "/slow": (_req, res) => {
        onSlow();
        setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(PAGE), 1_500);
      },
    });
    slowRequested = () =>
      new Promise<void>((done) => {
        onSlow = () => {
          onSlow = () => undefined;
          done();
        };
      });
    database = await createTestDatabase();
  }, 300_000);

  afterAll(async () => {
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const env = (extra: Record<string, string> = {}) => ({
    SCAN_TIMEOUT_MS: "5000",
    SCAN_WAIT_MS: "20000",
    RATE_LIMIT_ANONYMOUS: "100000",
    REAPER_INTERVAL_MS: "500",
    ORPHAN_AFTER_MS: "2000",
    ...extra,
  });

  it("picks up a scan again when its worker is killed mid-scan; the client gets a result or a clean 202", async () => {
    const redisUrl = await testRedisUrl();
    const stack = await startStack({
      databaseUrl: database.url,
      redisUrl,
      allowlist: [site.hostPort],
      worker: false,
      env: env(),
    });
    const workerEnv = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: stack.prefix,
      SCAN_ALLOWLIST: site.hostPort,
      LOG_LEVEL: "info",
      ...env(),
    };
    let first: Awaited<ReturnType<typeof startWorkerProcess>> | null = null;
    let second: Awaited<ReturnType<typeof startWorkerProcess>> | null = null;
    try {
      first = await startWorkerProcess(workerEnv);
      const { key } = await createAccount(stack.db, "agency");
      const midScan = slowRequested();
      const response = api(stack.gateway.url, "/api/v1/scan", {
        body: { url: site.url("/slow"), mode: "full" },
        headers: { "x-api-key": key },
      });
      await midScan;
      first.process.kill("SIGKILL");
      const killedAt = Date.now();
      second = await startWorkerProcess(workerEnv);
      const answered = await response;
      expect([200, 202]).toContain(answered.status);
      const id = (answered.body as Envelope).data.id as string;
      // the lock (10 s) expires and the next stalled check (every 5 s) hands it to the second
      // worker: back in the queue within 15 s of the kill, done within its time-out (5 s) after
      await eventually(
        async () => {
          const stored = await api(stack.gateway.url, `/api/v1/scan/${id}`, { headers: { "x-api-key": key } });
          return (stored.body as Envelope).data?.status === "completed";
        },
        // about 20 s on an idle machine; a loaded one is given more
        120_000,
        "the killed worker's scan to complete on the other worker",
      );
      process.stdout.write(`killed worker: its scan completed ${Date.now() - killedAt} ms after the kill\n`);
      const row = await stack.db.scan.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe("completed");
      expect(row.checks).not.toBeNull();
    } finally {
      first?.process.kill("SIGKILL");
      await second?.stop();
      await stack.close();
    }
  }, 180_000);

  describe("Postgres away for 10 s", () => {
    let relay: Relay;
    let stack: Stack;
    let key: string;

    beforeAll(async () => {
      const direct = new URL(database.url);
      relay = await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
      const relayed = new URL(database.url);
      relayed.port = String(relay.port);
      stack = await startStack({
        databaseUrl: relayed.toString(),
        redisUrl: await testRedisUrl(),
        allowlist: [site.hostPort],
        env: env(),
      });
      key = (await createAccount(stack.db, "agency")).key;
    }, 300_000);

    afterAll(async () => {
      await relay?.restore().catch(() => undefined);
      await stack?.close();
      await relay?.close();
    });

    it("answers 503 with Retry-After while it is away, and recovers by itself", async () => {
      const before = await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } });
      expect(before.status).toBe(200);

      // a scan in flight when the database goes
      const midScan = slowRequested();
      const inFlight = api(stack.gateway.url, "/api/v1/scan", {
        body: { url: site.url("/slow"), mode: "quick" },
        headers: { "x-api-key": key },
      });
      await midScan;
      await relay.cut();
      const outageEnds = Date.now() + 10_000;

      for (const [path, init] of [
        ["/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } }],
        ["/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" }, headers: { "x-api-key": key } }],
        [`/api/v1/scan/${(before.body as Envelope).data.id}`, { headers: { "x-api-key": key } }],
      ] as const) {
        const a = await api(stack.gateway.url, path, init);
        expect([path, a.status]).toEqual([path, 503]);
        expect((a.body as Envelope).error?.code).toBe("service_unavailable");
        expect(a.headers.get("retry-after")).toBe("5");
        const b = await api(stack.gateway.url, path, {
          ...init,
          headers: { ...("headers" in init ? init.headers : {}), "x-response-form": "B" },
        });
        expect(b.status).toBe(503);
        expect(b.body).toEqual({ error: expect.any(String), code: "SERVICE_UNAVAILABLE" });
      }
      const caught = await inFlight;
      expect([200, 202, 502, 503]).toContain(caught.status);

      await new Promise((done) => setTimeout(done, Math.max(0, outageEnds - Date.now())));
      await relay.restore();
      await eventually(
        async () =>
          (await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } })).status ===
          200,
        20_000,
        "scans to succeed again",
      );
      // nothing is left queued or running for ever: finished, or failed by the scan or the reaper
      await eventually(
        async () => (await stack.db.scan.count({ where: { status: { in: ["queued", "running"] } } })) === 0,
        30_000,
        "every scan to be settled",
      );
    }, 300_000);
  });

  describe("Redis restarted", () => {
    let redis: RedisServer;
    let stack: Stack;

    beforeAll(async () => {
      redis = await startRedisServer();
      stack = await startStack({
        databaseUrl: database.url,
        redisUrl: redis.url,
        allowlist: [site.hostPort],
        env: env(),
      });
    }, 300_000);

    afterAll(async () => {
      await stack?.close();
      await redis?.kill();
    });

    it("answers 503 while Redis is down, recovers when it is back, and runs the scans it lost again", async () => {
      const ok = await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } });
      expect(ok.status).toBe(200);

      // one scan keeps the worker busy, a second waits in the queue: Redis loses it when it restarts
      const midScan = slowRequested();
      const busy = api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/slow"), mode: "quick" } });
      await midScan;
      const waitingScan = api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "full" } });
      await eventually(
        async () => (await stack.db.scan.count({ where: { mode: "full", status: "queued" } })) === 1,
        30_000,
        "the second scan to be queued",
      );
      await redis.kill();

      const down = await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } });
      expect(down.status).toBe(503);
      expect((down.body as Envelope).error?.code).toBe("service_unavailable");
      expect(down.headers.get("retry-after")).toBe("5");
      // the counter cannot be read: the configured limit, nothing promised, look again in 5 s
      expect(down.headers.get("x-ratelimit-limit")).toBe(env().RATE_LIMIT_ANONYMOUS);
      expect(down.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(down.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(
        Math.floor(Date.parse(down.headers.get("date") ?? "") / 1000),
      );

      await redis.start();
      await eventually(
        async () =>
          (await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } })).status ===
          200,
        30_000,
        "scans to succeed again after Redis returned",
      );
      await Promise.allSettled([busy, waitingScan]);
      await eventually(
        async () => (await stack.db.scan.count({ where: { status: { in: ["queued", "running"] } } })) === 0,
        30_000,
        "the lost scan to be queued again and run",
      );
      const lost = await stack.db.scan.findFirstOrThrow({ where: { mode: "full", url: site.url("/page") } });
      expect(lost).toEqual(expect.objectContaining({ status: "completed", requeues: 1 }));
    }, 300_000);
  });
});
