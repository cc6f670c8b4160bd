import { createDb } from "@scan/db";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, type Relay, startRelay } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * Postgres goes away for 40 s (through a relay in front of the test's own database, never the
 * shared server) under synchronous `POST /api/v1/scan`s whose rows are stored: with an
 * Idempotency-Key, without one, anonymous. Every caller learns its scan's id (202 with
 * `Location`) although the database is away when its wait ends; a retry with the key while
 * it is away is told to try again and stores nothing; once it is back the key answers the same
 * scan, every scan completes, and each counts once against the quota.
 */

type Json = Record<string, any>;

const PAGE = `<!doctype html><html lang="en"><head><title>A page worth waiting for</title></head>
<body><main><h1>Waited for</h1><p>${"Words of content. ".repeat(50)}</p></main></body></html>`;

const OUTAGE_MS = 40_000;

describe("a synchronous scan whose row is stored learns its id through a Postgres outage", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let relay: Relay;
  let stack: Stack;
  let direct: ReturnType<typeof createDb>;
  let account: TestAccount;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": (_req, res) =>
        setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(PAGE), 3_000).unref(),
    });
    database = await createTestDatabase();
    const url = new URL(database.url);
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    const relayed = new URL(database.url);
    relayed.port = String(relay.port);
    // the test reads the database past the relay: it sees what was stored while the services cannot
    direct = createDb(database.url);
    stack = await startStack({
      databaseUrl: relayed.toString(),
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: {
        // the callers' waits end while the database is away
        SCAN_WAIT_MS: "15000",
        SCAN_TIMEOUT_MS: "10000",
        RATE_LIMIT_ANONYMOUS: "100000",
        RATE_LIMIT_PRO: "100000",
        ADMISSION_CONTROL: "off",
      },
    });
    account = await createAccount(direct, "pro");
  }, 60_000);

  afterAll(async () => {
    await relay?.restore().catch(() => undefined);
    await stack?.close();
    await relay?.close();
    await direct?.$disconnect();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const scan = (tag: string, headers: Record<string, string>) =>
    api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url(`/page?${tag}`), mode: "quick" }, headers });

  const idOf = (answer: ApiResponse): string => (answer.body as Json).data.id as string;

  it("answers every caller 202 with its scan's id, and its key the same scan after; one scan each, counted once", async () => {
    const keyed = { "x-api-key": account.key, "idempotency-key": "outage-k1" };
    const callers = [
      scan("keyed", keyed),
      scan("unkeyed", { "x-api-key": account.key }),
      scan("anonymous", {}),
      // a second key, on a key-holder's Form B answer
      scan("keyed-b", { "x-api-key": account.key, "idempotency-key": "outage-k2", "x-response-form": "B" }),
    ];
    // every row is stored before the database goes
    await eventually(async () => (await direct.scan.count()) === 4, 20_000, "four scan rows");
    await relay.cut();
    const outageEnds = Date.now() + OUTAGE_MS;

    const answers = await Promise.all(callers);
    // every caller got its answer while the database was still away
    expect(Date.now()).toBeLessThan(outageEnds);
    const rows = await direct.scan.findMany({ select: { id: true, url: true, userId: true } });
    for (const [i, answer] of answers.entries()) {
      expect([i, answer.status]).toEqual([i, 202]);
      const id = idOf(answer);
      expect(rows.map((row) => row.id)).toContain(id);
      expect(answer.headers.get("location")).toMatch(new RegExp(`^/api/v1/scan/${id}`));
    }
    const [first, , anonymous, second] = answers as [ApiResponse, ApiResponse, ApiResponse, ApiResponse];
    expect((first.body as Json).data).toEqual(
      expect.objectContaining({ id: idOf(first), url: site.url("/page?keyed"), mode: "quick", status: "queued" }),
    );
    // the anonymous maker's link carries its access token
    expect(anonymous.headers.get("location")).toMatch(/\?access=/);

    // a retry while the database is away: told to try again, nothing stored
    const meanwhile = await scan("keyed", keyed);
    expect(meanwhile.status).toBe(503);
    expect((meanwhile.body as Json).error.code).toBe("service_unavailable");

    await new Promise((done) => setTimeout(done, Math.max(0, outageEnds - Date.now())));
    await relay.restore();

    // the keys answer the same scans once the database is back, and never make a second one
    await eventually(
      async () => {
        const retry = await scan("keyed", keyed);
        return retry.status !== 503 && retry.status !== 409 && idOf(retry) === idOf(first);
      },
      30_000,
      "the first key to answer its scan",
    );
    const again = await scan("keyed-b", { "x-api-key": account.key, "idempotency-key": "outage-k2" });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(idOf(again)).toBe((second.body as Json).data.id);

    // every accepted scan completes, and none was made twice
    await eventually(
      async () => (await direct.scan.count({ where: { status: "completed" } })) === 4,
      90_000,
      "the four scans to complete",
    );
    expect(await direct.scan.count()).toBe(4);
    // counted once each against the quota: three of the key holder's, whatever the retries
    const me = await api(stack.gateway.url, "/api/v1/account", { headers: { "x-api-key": account.key } });
    expect((me.body as Json).data.quota.used).toBe(3);
    // and read through the link the anonymous maker was given
    const read = await api(stack.gateway.url, anonymous.headers.get("location") ?? "", {});
    expect([read.status, (read.body as Json).data.status]).toEqual([200, "completed"]);
  }, 180_000);
});
