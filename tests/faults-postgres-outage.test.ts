import { Writable } from "node:stream";
import pino from "pino";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, type Relay, startRelay } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Postgres goes away (every connection cut, new ones refused, through a relay in front of the
 * real server) with scans accepted, queued and running. A worker that cannot read or store a
 * scan waits for the database and carries on when it is back: every accepted scan completes,
 * none is failed, and none needed the reaper (requeues stays 0).
 */

type Envelope = { data?: any };

const PAGE = `<!doctype html><html lang="en"><head><title>A page worth keeping</title></head>
<body><main><h1>Kept</h1><p>${"Words of content. ".repeat(50)}</p></main></body></html>`;

describe("Postgres outages lose no accepted scan", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let relay: Relay;
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": (_req, res) =>
        setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(PAGE), 1_500).unref(),
    });
    database = await createTestDatabase();
    const direct = new URL(database.url);
    relay = await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const relayed = new URL(database.url);
    relayed.port = String(relay.port);
    const log = pino(
      { level: "info" },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    stack = await startStack({
      databaseUrl: relayed.toString(),
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      log,
      env: { SCAN_TIMEOUT_MS: "10000", RATE_LIMIT_ANONYMOUS: "100000", ADMISSION_CONTROL: "off" },
    });
  }, 300_000);

  afterAll(async () => {
    await relay?.restore().catch(() => undefined);
    await stack?.close();
    await relay?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const submit = async (count: number, mode: "quick" | "full", tag: string): Promise<string[]> => {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        api(stack.gateway.url, "/api/v1/scan", {
          body: { url: site.url(`/page?${tag}=${i}`), mode },
          headers: { prefer: "respond-async" },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(202);
    return answers.map((answer) => (answer.body as Envelope).data.id as string);
  };

  const outage = async (ms: number) => {
    await relay.cut();
    await new Promise((done) => setTimeout(done, ms));
    await relay.restore();
  };

  const allCompleted = async (ids: string[], withinMs: number) => {
    await eventually(
      async () => (await stack.db.scan.count({ where: { id: { in: ids }, status: "completed" } })) === ids.length,
      withinMs,
      `${ids.length} scans to complete`,
    );
    const rows = await stack.db.scan.findMany({ where: { id: { in: ids } }, select: { status: true, requeues: true } });
    expect(rows).toEqual(ids.map(() => ({ status: "completed", requeues: 0 })));
  };

  it("10 s away with one scan running and five queued: all six complete", async () => {
    const ids = await submit(6, "quick", "ten");
    await eventually(
      async () => (await stack.db.scan.count({ where: { id: { in: ids }, status: "running" } })) === 1,
      30_000,
      "a scan to be running",
    );
    lines.length = 0;
    await outage(10_000);
    // waits that give up only long after an idle machine is done (about 15 s): a loaded one is slower
    await allCompleted(ids, 120_000);
    // the worker waited for the database rather than failing the scan
    expect(lines.some((line) => line.includes("database unreachable: waiting for it"))).toBe(true);
  }, 200_000);

  it("60 s away with five full scans just accepted: all five complete", async () => {
    const ids = await submit(5, "full", "sixty");
    lines.length = 0;
    await outage(60_000);
    await allCompleted(ids, 120_000);
    expect(lines.some((line) => line.includes("database unreachable: waiting for it"))).toBe(true);
  }, 240_000);
});
