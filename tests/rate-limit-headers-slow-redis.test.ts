import { createAccount } from "./support/accounts";
import { type RedisServer, startRedisServer } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * Every answer carries X-RateLimit-* even when the counters cannot be read: with the gateway's
 * Redis paused (SIGSTOP: its connections stay open and nothing answers, as a Redis on a starved
 * machine), probes, the API reference, unknown paths, wrong methods and the session endpoints
 * still answer at once with the headers, showing the caller's last known window, or the
 * configured limit with nothing promised when none is known.
 */

const rateHeaders = (response: Response) => ({
  limit: response.headers.get("x-ratelimit-limit"),
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: response.headers.get("x-ratelimit-reset"),
});

describe("rate-limit headers while Redis does not answer", () => {
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    redis = await startRedisServer();
    stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, allowlist: [], worker: false });
  }, 300_000);

  afterAll(async () => {
    redis?.resume();
    await stack?.close();
    await redis?.kill();
    await database?.drop();
    await stopContainers();
  });

  it("shows the last known window of a key, and the configured limit with Remaining 0 for an unknown caller", async () => {
    const { key } = await createAccount(stack.db, "starter");
    const withKey = { "x-api-key": key };
    // two counted requests, then a probe that reads the window without spending
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${stack.gateway.url}/api/v1/account`, { headers: withKey })).status).toBe(200);
    }
    const before = await fetch(`${stack.gateway.url}/healthz`, { headers: withKey });
    expect(rateHeaders(before)).toEqual({ limit: "100", remaining: "98", reset: expect.stringMatching(/^\d+$/) });

    redis.pause();
    try {
      const during = await fetch(`${stack.gateway.url}/healthz`, { headers: withKey });
      expect(during.status).toBe(200);
      expect(rateHeaders(during)).toEqual(rateHeaders(before));

      const answers = await Promise.all(
        [
          ["GET", "/openapi.json"],
          ["GET", "/no-such-page"],
          ["DELETE", "/openapi.json"],
          ["GET", "/auth/session"],
          ["GET", "/readyz"],
        ].map(async ([method, path]) => ({ path, response: await fetch(`${stack.gateway.url}${path}`, { method }) })),
      );
      for (const { path, response } of answers) {
        expect({ path, status: response.status }).not.toEqual({ path, status: 500 });
        const shown = rateHeaders(response);
        // an anonymous caller this process has not read yet: the configured limit, nothing promised
        expect({ path, limit: shown.limit, remaining: shown.remaining }).toEqual({ path, limit: "10", remaining: "0" });
        const answeredAt = Date.parse(response.headers.get("date") ?? "") / 1000;
        expect(Number(shown.reset)).toBeGreaterThanOrEqual(Math.floor(answeredAt));
      }
    } finally {
      redis.resume();
    }

    // the counters answer again: the live window
    const after = await fetch(`${stack.gateway.url}/openapi.json`);
    expect(rateHeaders(after)).toEqual({ limit: "10", remaining: "10", reset: expect.stringMatching(/^\d+$/) });
  });
});
