import { SCAN_QUEUE } from "@scan/queue";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Bulk and queue policy: POST /api/v1/scans/batch, GET /api/v1/scans, the order in which
 * callers' scans are taken (plan priorities), and admission control for callers who wait.
 */

type Envelope = { ok?: boolean; success?: boolean; data?: any; meta?: any; error?: any; code?: string };
const body = (response: { body: unknown }) => response.body as Envelope;

const PAGE = `<!doctype html><html lang="en"><head><title>A page for bulk scanning tests</title></head>
<body><main><h1>Bulk</h1><p>${"Words of content. ".repeat(40)}</p></main></body></html>`;

describe("bulk scans and queue policy", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let redisUrl: string;

  beforeAll(async () => {
    site = await startFixtureServer(
      {
        "/slow": (_req, res) => {
          setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(PAGE), 1_000);
        },
      },
      html(PAGE),
    );
    database = await createTestDatabase();
    redisUrl = await testRedisUrl();
  }, 300_000);

  afterAll(async () => {
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  describe("without a worker (scans stay queued)", () => {
    let stack: Stack;
    let agency: TestAccount;
    let starter: TestAccount;
    let free: TestAccount;
    let queue: Queue;
    let connection: Redis;

    beforeAll(async () => {
      stack = await startStack({
        databaseUrl: database.url,
        redisUrl,
        allowlist: [site.hostPort],
        worker: false,
        env: { RATE_LIMIT_STARTER: "12", SCAN_QUOTA_FREE: "4", SCAN_WAIT_MS: "1" },
      });
      agency = await createAccount(stack.db, "agency");
      starter = await createAccount(stack.db, "starter");
      free = await createAccount(stack.db, "free");
      connection = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
      queue = new Queue(SCAN_QUEUE, { connection, prefix: stack.prefix });
    }, 300_000);

    afterAll(async () => {
      await queue?.close();
      connection?.disconnect();
      await stack?.close();
    });

    const batch = (key: string | null, payload: unknown, form: "A" | "B" = "A") =>
      api(stack.gateway.url, "/api/v1/scans/batch", {
        body: payload,
        headers: { ...(key ? { "x-api-key": key } : {}), "x-response-form": form },
      });

    it("queues a batch at once and answers 202 with every scan's id and where to poll it", async () => {
      const urls = [site.url("/a"), site.url("/b"), site.url("/c")];
      const response = await batch(agency.key, { urls, mode: "quick" });
      expect(response.status).toBe(202);
      const { scans } = body(response).data;
      expect(scans.map((scan: { url: string }) => scan.url)).toEqual(urls);
      for (const scan of scans) {
        expect(scan).toEqual({
          id: expect.any(String),
          url: expect.any(String),
          mode: "quick",
          status: "queued",
          location: `/api/v1/scan/${scan.id}`,
        });
        const stored = await api(stack.gateway.url, scan.location, { headers: { "x-api-key": agency.key } });
        expect(body(stored).data.status).toBe("queued");
      }
      const b = await batch(agency.key, { urls: [site.url("/d")] }, "B");
      expect(b.status).toBe(202);
      expect(body(b)).toEqual({ success: true, data: { scans: [expect.objectContaining({ mode: "full" })] } });
    });

    it("needs an API key", async () => {
      const response = await batch(null, { urls: [site.url("/a")] });
      expect(response.status).toBe(401);
      expect(body(await batch(null, { urls: [site.url("/a")] }, "B")).code).toBe("INVALID_API_KEY");
    });

    it.each([
      ["no URLs", { urls: [] }, /at least one/],
      ["101 URLs", { urls: Array.from({ length: 101 }, (_, i) => `https://example.com/${i}`) }, /at most 100/],
      ["a URL that is not a string", { urls: ["https://example.com/", 7] }, /urls\.1/],
      ["an unknown field", { urls: ["https://example.com/"], priority: 1 }, /priority/],
    ])("refuses %s with 400 in both forms", async (_name, payload, message) => {
      const a = await batch(agency.key, payload);
      expect(a.status).toBe(400);
      expect(body(a).error).toEqual(
        expect.objectContaining({ code: "invalid_request", message: expect.stringMatching(message) }),
      );
      const b = await batch(agency.key, payload, "B");
      expect(b.status).toBe(400);
      expect(body(b)).toEqual({ error: expect.stringMatching(message), code: "VALIDATION_ERROR" });
    });

    it("accepts exactly 100 URLs", async () => {
      const urls = Array.from({ length: 100 }, (_, i) => site.url(`/page-${i}`));
      const response = await batch(agency.key, { urls, mode: "quick" });
      expect(response.status).toBe(202);
      expect(body(response).data.scans).toHaveLength(100);
    });

    it("refuses the whole batch, storing nothing, when one URL is private or malformed, naming it", async () => {
      const before = await stack.db.scan.count();
      const privateUrl = await batch(agency.key, { urls: [site.url("/a"), site.url("/b"), "http://10.0.0.1/"] });
      expect(privateUrl.status).toBe(400);
      expect(body(privateUrl).error.message).toMatch(/^urls\[2\]: .*private/);
      const malformed = await batch(agency.key, { urls: [site.url("/a"), "ftp://example.com/"] });
      expect(malformed.status).toBe(400);
      expect(body(malformed).error.message).toMatch(/^urls\[1\]/);
      expect(await stack.db.scan.count()).toBe(before);
    });

    it("counts every URL against the rate limit, and refuses a batch larger than what is left", async () => {
      const first = await batch(starter.key, {
        urls: [site.url("/1"), site.url("/2"), site.url("/3"), site.url("/4")],
      });
      expect(first.status).toBe(202);
      expect(first.headers.get("x-ratelimit-limit")).toBe("12");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("8");
      const before = await stack.db.scan.count({ where: { userId: starter.user.id } });
      const tooMany = await batch(starter.key, { urls: Array.from({ length: 9 }, (_, i) => site.url(`/x${i}`)) });
      expect(tooMany.status).toBe(429);
      expect(tooMany.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(body(tooMany).error.code).toBe("rate_limited");
      expect(await stack.db.scan.count({ where: { userId: starter.user.id } })).toBe(before);
      // the refused batch cost its one request, not its nine URLs: 8 - 1 = 7 left
      const after = await api(stack.gateway.url, "/api/v1/scans", { headers: { "x-api-key": starter.key } });
      expect(after.headers.get("x-ratelimit-remaining")).toBe("6");
    });

    it("refuses a batch the monthly quota cannot hold with 403 PLAN_LIMIT, storing nothing", async () => {
      const urls = Array.from({ length: 5 }, (_, i) => site.url(`/q${i}`));
      const a = await batch(free.key, { urls });
      expect(a.status).toBe(403);
      expect(body(a).error.code).toBe("forbidden");
      const b = await batch(free.key, { urls }, "B");
      expect(body(b).code).toBe("PLAN_LIMIT");
      expect(await stack.db.scan.count({ where: { userId: free.user.id } })).toBe(0);
    });

    it("lists the key holder's scans, newest first, by status, never another user's", async () => {
      const mine = await api(stack.gateway.url, "/api/v1/scans?limit=5", { headers: { "x-api-key": agency.key } });
      expect(mine.status).toBe(200);
      const { data, meta } = body(mine);
      expect(meta).toEqual({ page: 1, limit: 5, total: 104, hasMore: true, requestId: expect.any(String) });
      expect(data).toHaveLength(5);
      expect(data[0]).not.toHaveProperty("checks");
      const times = data.map((scan: { created_at: string }) => scan.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      const others = await stack.db.scan.findMany({ where: { userId: { not: agency.user.id } }, select: { id: true } });
      const seen = new Set<string>();
      for (let page = 1; page <= 3; page++) {
        const response = await api(stack.gateway.url, `/api/v1/scans?limit=50&page=${page}`, {
          headers: { "x-api-key": agency.key },
        });
        for (const scan of body(response).data) seen.add(scan.id);
      }
      expect(seen.size).toBe(104);
      for (const { id } of others) expect(seen.has(id)).toBe(false);
      const queued = await api(stack.gateway.url, "/api/v1/scans?status=queued&limit=1", {
        headers: { "x-api-key": agency.key, "x-response-form": "B" },
      });
      expect(body(queued)).toEqual({
        success: true,
        data: [expect.objectContaining({ status: "queued" })],
        meta: expect.objectContaining({ total: 104 }),
      });
      const none = await api(stack.gateway.url, "/api/v1/scans?status=completed", {
        headers: { "x-api-key": agency.key },
      });
      expect(body(none).meta.total).toBe(0);
    });

    it.each(["status=done", "limit=0", "limit=101", "page=0", "sort=asc"])("refuses ?%s with 400", async (query) => {
      const response = await api(stack.gateway.url, `/api/v1/scans?${query}`, { headers: { "x-api-key": agency.key } });
      expect(response.status).toBe(400);
      expect(body(response).error.code).toBe("invalid_request");
    });

    it("takes a caller's first waiting scan ahead of another caller's backlog (plan priorities)", async () => {
      const flood = await createAccount(stack.db, "agency");
      const small = await createAccount(stack.db, "free");
      const floodIds = body(
        await batch(flood.key, { urls: Array.from({ length: 20 }, (_, i) => site.url(`/flood-${i}`)), mode: "quick" }),
      ).data.scans.map((scan: { id: string }) => scan.id) as string[];
      const smallIds: string[] = [];
      for (const path of ["/small-1", "/small-2"]) {
        const response = await api(stack.gateway.url, "/api/v1/scan", {
          body: { url: site.url(path), mode: "quick" },
          headers: { "x-api-key": small.key, prefer: "respond-async" },
        });
        smallIds.push(body(response).data.id);
      }
      // BullMQ takes the lowest priority number first, then the oldest
      const jobs = await queue.getJobs(["prioritized", "waiting"]);
      const order = jobs
        .filter((job) => job.id && [...floodIds, ...smallIds].includes(job.id))
        .sort((a, b) => a.priority - b.priority || a.timestamp - b.timestamp)
        .map((job) => job.id as string);
      expect(order).toHaveLength(22);
      // the free caller's first scan comes second (after the agency's first), its second after
      // 9 of the agency's 20 (weights agency 1, free 8): slowed by the flood, not starved
      expect(order.indexOf(smallIds[0] as string)).toBe(1);
      expect(order.indexOf(smallIds[1] as string)).toBe(10);
      expect(order.indexOf(floodIds[19] as string)).toBe(21);
    });
  });

  describe("admission control", () => {
    let stack: Stack;
    let key: string;

    beforeAll(async () => {
      stack = await startStack({
        databaseUrl: database.url,
        redisUrl,
        allowlist: [site.hostPort],
        env: { SCAN_WAIT_MS: "20000" },
      });
      key = (await createAccount(stack.db, "agency")).key;
    }, 300_000);

    afterAll(async () => {
      await stack?.close();
    });

    it("refuses a waiting caller whose scan cannot finish within its budget, and still queues async ones", async () => {
      const scan = (headers: Record<string, string> = {}) =>
        api(stack.gateway.url, "/api/v1/scan", {
          body: { url: site.url("/slow"), mode: "quick" },
          headers: { "x-api-key": key, ...headers },
        });
      // one timed scan teaches the gateway how long a scan takes here (about 1 s)
      expect((await scan()).status).toBe(200);
      for (let i = 0; i < 8; i++) expect((await scan({ prefer: "respond-async" })).status).toBe(202);
      const refused = await scan({ prefer: "wait=3" });
      expect(refused.status).toBe(429);
      expect(body(refused).error).toEqual(
        expect.objectContaining({ code: "rate_limited", message: expect.stringMatching(/queue is too long/) }),
      );
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const refusedB = await scan({ prefer: "wait=3", "x-response-form": "B" });
      expect(body(refusedB)).toEqual({ error: expect.any(String), code: "RATE_LIMITED" });
      // a caller who does not wait is queued whatever the queue's length
      expect((await scan({ prefer: "respond-async" })).status).toBe(202);
    }, 300_000);
  });
});
