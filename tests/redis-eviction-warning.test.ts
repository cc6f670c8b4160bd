import { Writable } from "node:stream";
import { warnIfRedisEvicts } from "@scan/platform";
import { Redis } from "ioredis";
import pino from "pino";
import { type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { startStack } from "./support/stack";

/**
 * A Redis that evicts keys when its memory fills loses queued scans and their locks without a
 * word: the services say so at start. Against a real redis-server of the test's own, whose
 * maxmemory-policy the test sets.
 */

const capture = () => {
  const lines: string[] = [];
  const log = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  return { log, lines };
};

const EVICTS = "Redis evicts keys when its memory fills";

describe("the eviction warning", () => {
  let redis: RedisServer;
  let client: Redis;
  let database: TestDatabase;

  beforeAll(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    database = await createTestDatabase();
  }, 300_000);

  afterAll(async () => {
    client?.disconnect();
    await redis?.kill();
    await database?.drop();
    await stopContainers();
  });

  it.each(["allkeys-lru", "volatile-ttl", "allkeys-random"])("warns for %s", async (policy) => {
    await client.config("SET", "maxmemory-policy", policy);
    const { log, lines } = capture();
    expect(await warnIfRedisEvicts(client, log)).toBe(policy);
    expect(lines.join("")).toContain(EVICTS);
  });

  it("says nothing for noeviction", async () => {
    await client.config("SET", "maxmemory-policy", "noeviction");
    const { log, lines } = capture();
    expect(await warnIfRedisEvicts(client, log)).toBe("noeviction");
    expect(lines.join("")).not.toContain(EVICTS);
  });

  it("is said by the worker when it starts", async () => {
    await client.config("SET", "maxmemory-policy", "allkeys-lru");
    const { log, lines } = capture();
    const stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, allowlist: [], log });
    try {
      const until = Date.now() + 5_000;
      while (!lines.join("").includes(EVICTS) && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
      expect(lines.join("")).toContain(EVICTS);
    } finally {
      await stack.close();
      await client.config("SET", "maxmemory-policy", "noeviction");
    }
  });
});
