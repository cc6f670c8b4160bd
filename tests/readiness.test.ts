import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { Redis } from "ioredis";
import { eventually, sampleValue, scrape } from "./support/prometheus";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * /readyz follows Redis: a throwaway redis-server of this test's own (never the shared one)
 * is stopped and started again under a running gateway and worker.
 */

// Redis is stopped and started; reconnects take up to two seconds
jest.setTimeout(300_000);

const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
};

const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** A redis-server on this port, without persistence, for this test alone. */
const startRedis = async (port: number): Promise<ChildProcess> => {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  let missing: Error | null = null;
  child.once("error", (error) => {
    missing = new Error(
      `cannot run redis-server (${error.message}): install it (Debian: apt-get install redis-server)`,
    );
  });
  await eventually(
    async () => {
      if (missing) throw missing;
      return answers(port);
    },
    { timeoutMs: 10_000, what: `redis-server on port ${port}` },
  );
  return child;
};

const stopRedis = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
};

/** Clients connected to this Redis, not counting the one asking. */
const connectedClients = async (port: number): Promise<number> => {
  const client = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const list = String(await client.client("LIST"));
    return list.split("\n").filter((line) => line.trim() !== "").length - 1;
  } catch {
    return 0;
  } finally {
    client.disconnect();
  }
};

const readyz = async (base: string): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${base}/readyz`);
  return { status: response.status, body: await response.json() };
};

describe("readiness follows Redis", () => {
  let database: TestDatabase;
  let redis: ChildProcess;
  let port: number;
  let stack: Stack;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: `redis://127.0.0.1:${port}`,
      allowlist: [],
      // short, so a dead Redis shows at once; long enough for a live Postgres on a busy machine
      env: { READY_TIMEOUT_MS: "1000" },
    });
  });

  afterAll(async () => {
    if (redis.exitCode !== null || redis.signalCode !== null) redis = await startRedis(port);
    await stack?.close();
    await stopRedis(redis);
    await database?.drop();
    await stopContainers();
  }, 300_000);

  it("is ready, goes unready within the timeout when Redis stops, and is ready again when it returns", async () => {
    const gateway = stack.gateway.url;
    const worker = stack.workerOps!.url;
    await eventually(async () => (await readyz(gateway)).status === 200, { what: "gateway ready" });
    await eventually(async () => (await readyz(worker)).status === 200, { what: "worker ready" });
    const clients = await connectedClients(port);

    await stopRedis(redis);
    // the probe that names Redis, and only Redis (on a busy machine one probe of a live
    // Postgres can miss its short timeout too: that probe is not the answer asked for)
    const gatewayDown = await eventually(
      async () => {
        const state = await readyz(gateway);
        return state.status === 503 && state.body.checks.postgres?.ok === true ? state : undefined;
      },
      { what: "gateway unready because of Redis alone" },
    );
    expect(gatewayDown.body.ok).toBe(false);
    expect(gatewayDown.body.checks.redis).toMatchObject({ ok: false });
    expect(gatewayDown.body.checks.postgres).toMatchObject({ ok: true });
    const workerDown = await eventually(
      async () => {
        const state = await readyz(worker);
        return state.status === 503 && state.body.checks.browser?.ok === true ? state : undefined;
      },
      { what: "worker unready because of Redis alone" },
    );
    expect(workerDown.body.checks.redis).toMatchObject({ ok: false });
    expect(workerDown.body.checks.browser).toMatchObject({ ok: true });
    // and the metrics the alerts read say the same
    const gatewayMetrics = await scrape(gateway);
    expect(sampleValue(gatewayMetrics, "dependency_up", { dependency: "redis" })).toBe(0);
    expect(sampleValue(gatewayMetrics, "dependency_up", { dependency: "postgres" })).toBe(1);
    expect(sampleValue(gatewayMetrics, "scan_queue_up", { queue: "scans" })).toBe(0);
    const workerMetrics = await scrape(worker);
    expect(sampleValue(workerMetrics, "dependency_up", { dependency: "redis" })).toBe(0);
    expect(sampleValue(workerMetrics, "dependency_up", { dependency: "browser" })).toBe(1);
    // bounded: a dead dependency never makes the probe itself hang; it answers 503
    expect((await readyz(gateway)).status).toBe(503);
    expect((await readyz(worker)).status).toBe(503);
    // alive all along
    expect((await fetch(`${gateway}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker}/healthz`)).status).toBe(200);

    redis = await startRedis(port);
    await eventually(async () => (await readyz(gateway)).status === 200, { what: "gateway ready again" });
    await eventually(async () => (await readyz(worker)).status === 200, { what: "worker ready again" });
    expect(sampleValue(await scrape(gateway), "dependency_up", { dependency: "redis" })).toBe(1);
    expect(sampleValue(await scrape(worker), "dependency_up", { dependency: "redis" })).toBe(1);
    // every queue client has reconnected, not only the ones /readyz asks (closing a client that
    // is between reconnect attempts leaves it retrying)
    await eventually(async () => (await connectedClients(port)) >= clients, { what: "all clients back" });
  });
});

describe("readiness follows Postgres", () => {
  let stack: Stack;
  let redisPort: number;
  let redis: ChildProcess;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    // nothing listens on this port: every connection to Postgres is refused
    const closed = await freePort();
    stack = await startStack({
      databaseUrl: `postgresql://postgres@127.0.0.1:${closed}/unreachable`,
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      allowlist: [],
      worker: false,
      // the key cache's change feed would hold a connection to Postgres
      env: { READY_TIMEOUT_MS: "300", KEY_CACHE_TTL_MS: "0" },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await stopRedis(redis);
  }, 300_000);

  it("is unready with Postgres unreachable, and says so in dependency_up", async () => {
    const state = await readyz(stack.gateway.url);
    expect(state.status).toBe(503);
    expect(state.body.checks.postgres).toMatchObject({ ok: false });
    const metrics = await scrape(stack.gateway.url);
    expect(sampleValue(metrics, "dependency_up", { dependency: "postgres" })).toBe(0);
    expect(sampleValue(metrics, "dependency_up", { dependency: "redis" })).toBe(1);
  });
});
