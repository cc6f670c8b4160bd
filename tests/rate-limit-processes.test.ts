import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { createDb } from "@scan/db";
import { createAccount, TEST_JWT_SECRET, type TestAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl, uniquePrefix } from "./support/services";
import { type ApiResponse, api } from "./support/stack";

/**
 * The rate limits hold across gateway processes: two real gateways (separate Node processes,
 * each with its own Redis connections), one Redis, concurrent requests spread over both.
 */

type Gateway = { url: string; process: ChildProcess; output: () => string };

const ROOT = resolve(__dirname, "..");

const startGatewayProcess = (env: Record<string, string>): Promise<Gateway> =>
  new Promise((done, fail) => {
    const child = spawn(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "services/gateway/src/main.ts")], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => fail(new Error(`gateway did not start:\n${output}`)), 45_000);
    const onLine = (chunk: Buffer) => {
      output += chunk.toString();
      // complete lines only: a chunk can end mid-line
      for (const line of output.split("\n").slice(0, -1)) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { url?: string };
        if (entry.url) {
          clearTimeout(timer);
          done({ url: entry.url, process: child, output: () => output });
          return;
        }
      }
    };
    child.stdout.on("data", onLine);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`gateway exited with ${code}:\n${output}`));
    });
  });

const stopGatewayProcess = (gateway: Gateway): Promise<void> =>
  new Promise((done) => {
    if (gateway.process.exitCode !== null) return done();
    gateway.process.once("exit", () => done());
    gateway.process.kill("SIGTERM");
  });

const statusCounts = (responses: ApiResponse[]) =>
  responses.reduce<Record<number, number>>((counts, r) => {
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    return counts;
  }, {});

describe("rate limits across gateway processes", () => {
  let database: TestDatabase;
  let gateways: Gateway[] = [];
  let db: ReturnType<typeof createDb>;
  let account: TestAccount;
  let ownScan: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { poolSize: 2 });
    const prefix = uniquePrefix();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: await testRedisUrl(),
      QUEUE_PREFIX: prefix,
      // one counter namespace for both processes, and for no one else
      RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
      RATE_LIMIT_ANONYMOUS: "10",
      RATE_LIMIT_STARTER: "12",
      JWT_SECRET: TEST_JWT_SECRET,
      SCAN_WAIT_MS: "1",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
    account = await createAccount(db, "starter");
    ownScan = (await db.scan.create({ data: { url: "https://example.com/", mode: "quick", userId: account.user.id } }))
      .id;
  }, 300_000);

  afterAll(async () => {
    await Promise.all(gateways.map(stopGatewayProcess));
    await db?.$disconnect();
    await database?.drop();
    await stopContainers();
  });

  it("runs two separate gateway processes", () => {
    expect(gateways).toHaveLength(2);
    expect(gateways[0]?.process.pid).not.toBe(gateways[1]?.process.pid);
    expect(gateways[0]?.url).not.toBe(gateways[1]?.url);
  });

  it("with 10 left on a key, 50 concurrent requests over both processes give exactly 10 successes and 40 429s", async () => {
    const headers = { "x-api-key": account.key };
    const [first, second] = gateways as [Gateway, Gateway];
    // spend 2 of the 12, one on each process
    expect((await api(first.url, `/api/v1/scan/${ownScan}`, { headers })).headers.get("x-ratelimit-remaining")).toBe(
      "11",
    );
    expect((await api(second.url, `/api/v1/scan/${ownScan}`, { headers })).headers.get("x-ratelimit-remaining")).toBe(
      "10",
    );

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api((i % 2 === 0 ? first : second).url, `/api/v1/scan/${ownScan}`, { headers }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 200: 10, 429: 40 });
    // every success saw a different count: no two requests read the same counter value
    const remaining = responses
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const refused of responses.filter((r) => r.status === 429)) {
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("x-ratelimit-limit")).toBe("12");
    }
  });

  it("50 concurrent anonymous requests from one address over both processes: exactly 10 are let through", async () => {
    const [first, second] = gateways as [Gateway, Gateway];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api((i % 2 === 0 ? first : second).url, "/api/v1/scan", {
          body: {},
          headers: { "x-response-form": i % 4 < 2 ? "A" : "B" },
        }),
      ),
    );
    // the 10 let through are refused for their empty body; the rest never got that far
    expect(statusCounts(responses)).toEqual({ 400: 10, 429: 40 });
    const codes = new Set(responses.filter((r) => r.status === 429).map((r) => JSON.stringify(r.body)));
    expect([...codes].some((c) => c.includes('"RATE_LIMITED"'))).toBe(true);
    expect([...codes].some((c) => c.includes('"rate_limited"'))).toBe(true);
  });
});
