import { Writable } from "node:stream";
import { createLogger } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { eventually, sampleSum, sampleValue, scrape } from "./support/prometheus";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Operating the service: Prometheus metrics of both services, health and readiness, the
 * queue dashboard behind the admin token, and logs that follow a request into the worker
 * without a secret in any line.
 */

// scans run through Chromium; the machine may be busy
jest.setTimeout(300_000);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Operating a scanner: metrics, probes and logs</title>
<meta name="description" content="A page scanned by the operations tests: it only needs to exist and to be judged by the quick checks.">
</head><body><main><h1>Operating a scanner</h1><p>Metrics, probes and logs.</p></main></body></html>`;

const ADMIN_TOKEN = "admin-token-0123456789abcdef";
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

type Envelope = { ok?: boolean; data?: any; error?: any };
const envelope = (response: { body: unknown }) => response.body as Envelope;

let site: FixtureServer;
let redisUrl: string;

beforeAll(async () => {
  site = await startFixtureServer({
    "/page": html(PAGE),
    "/other": html(PAGE.replace("Operating a scanner", "Another page")),
    "/broken": html("<h1>down</h1>", 503),
    "/robots.txt": text("User-agent: *\nAllow: /\n"),
  });
  redisUrl = await testRedisUrl();
});

afterAll(async () => {
  await site?.close();
  await stopContainers();
});

describe("gateway: metrics, probes, dashboard (no worker running)", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ databaseUrl: database.url, redisUrl, allowlist: [site.hostPort], worker: false });
    base = stack.gateway.url;
  });

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("reports the real queue depth: N scans queued with no worker are N jobs waiting by priority", async () => {
    const before = await scrape(base);
    expect(sampleValue(before, "scan_queue_jobs", { queue: "scans", state: "waiting" })).toBe(0);
    expect(sampleValue(before, "scan_queue_jobs", { queue: "scans", state: "prioritized" })).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await api(base, "/api/v1/scan", {
        body: { url: site.url("/page"), mode: "quick" },
        headers: { prefer: "respond-async" },
      });
      expect(response.status).toBe(202);
      ids.push(envelope(response).data.id);
    }
    const after = await scrape(base);
    // every scan is queued with its caller's priority, which BullMQ keeps apart from the wait list
    expect(sampleValue(after, "scan_queue_jobs", { queue: "scans", state: "prioritized" })).toBe(4);
    expect(sampleValue(after, "scan_queue_jobs", { queue: "scans", state: "active" })).toBe(0);
    for (const state of ["waiting", "delayed", "failed", "completed"])
      expect(sampleValue(after, "scan_queue_jobs", { queue: "scans", state })).toBe(0);
    expect(sampleValue(after, "scan_queue_jobs", { queue: "webhooks", state: "waiting" })).toBe(0);
    expect(sampleValue(after, "scan_queue_jobs", { queue: "visibility", state: "waiting" })).toBe(0);
    expect(sampleValue(after, "scan_queue_up", { queue: "scans" })).toBe(1);
    // no worker runs in this stack
    expect(sampleValue(after, "scan_queue_workers", { queue: "scans" })).toBe(0);
    expect(new Set(ids).size).toBe(4);
  });

  it("measures requests by route pattern and status, never by raw path", async () => {
    const id = "7d0f5a0e-2b52-4c7e-9d0a-4f3c8a1b2c3d";
    const { key } = await createAccount(stack.db);
    const keyed = { headers: { authorization: `Bearer ${key}` } };
    expect((await api(base, `/api/v1/scan/${id}`, keyed)).status).toBe(404);
    expect((await api(base, "/api/v1/scan/not-a-uuid", keyed)).status).toBe(400);
    expect((await api(base, "/no/such/route")).status).toBe(404);
    // refused before any route ran: labelled with the path the route is declared on, not the raw one
    expect((await api(base, `/api/v1/scan/${id}`)).status).toBe(401);
    const metrics = await scrape(base);
    expect(metrics).not.toContain(id);
    expect(metrics).not.toContain("not-a-uuid");
    expect(metrics).not.toContain("/no/such/route");
    const count = (route: string, status: string, method = "GET") =>
      sampleValue(metrics, "http_request_duration_seconds_count", { method, route, status });
    expect(count("/api/v1/scan/:id", "404")).toBe(1);
    expect(count("/api/v1/scan/:id", "400")).toBe(1);
    expect(count("unmatched", "404")).toBeGreaterThanOrEqual(1);
    expect(count("/api/v1/scan/:id", "401")).toBe(1);
    expect(count("/api/v1/scan", "202", "POST")).toBe(4);
  });

  it("exports the rate-limit rejection counter for the limiter to increment", async () => {
    expect(await scrape(base)).toContain("# TYPE rate_limit_rejections_total counter");
    stack.gateway.metrics.rateLimitRejections.inc({ plan: "free" });
    stack.gateway.metrics.rateLimitRejections.inc({ plan: "free" });
    expect(sampleValue(await scrape(base), "rate_limit_rejections_total", { plan: "free" })).toBe(2);
  });

  it("exposes the process metrics and answers /metrics without a token when none is configured", async () => {
    const metrics = await scrape(base);
    expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("reports Postgres and Redis up, as /readyz probes them", async () => {
    const metrics = await scrape(base);
    expect(sampleValue(metrics, "dependency_up", { dependency: "postgres" })).toBe(1);
    expect(sampleValue(metrics, "dependency_up", { dependency: "redis" })).toBe(1);
  });

  it("answers /healthz and /readyz with Postgres and Redis reachable", async () => {
    expect(await api(base, "/healthz")).toMatchObject({ status: 200, body: { ok: true } });
    const ready = await api(base, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      ok: true,
      checks: { postgres: { ok: true, ms: expect.any(Number) }, redis: { ok: true, ms: expect.any(Number) } },
    });
  });

  it("has no dashboard when ADMIN_TOKEN is not configured: /admin/queues is 404", async () => {
    for (const path of ["/admin/queues", "/admin/queues/api/queues"]) {
      const response = await api(base, path, { headers: { authorization: "Bearer anything-at-all-here" } });
      expect(response.status).toBe(404);
      expect(envelope(response).error.code).toBe("not_found");
    }
  });
});

describe("gateway with ADMIN_TOKEN and METRICS_TOKEN", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl,
      allowlist: [site.hostPort],
      worker: false,
      env: { ADMIN_TOKEN, METRICS_TOKEN },
    });
    base = stack.gateway.url;
  });

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString("base64")}`;

  it("refuses the dashboard without the admin token, asking for it", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong-token-0123456789",
      basic("wrong"),
      `Bearer ${METRICS_TOKEN}`,
    ]) {
      const response = await api(base, "/admin/queues", { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(envelope(response).error.code).toBe("unauthenticated");
      expect(response.headers.get("www-authenticate")).toContain("Basic");
    }
    expect((await api(base, "/admin/queues/api/queues")).status).toBe(401);
  });

  it("serves the dashboard and its API with the token, as Bearer or as the Basic password", async () => {
    const page = await api(base, "/admin/queues", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(String(page.body)).toContain("/admin/queues");
    const queues = await api(base, "/admin/queues/api/queues", { headers: { authorization: basic(ADMIN_TOKEN) } });
    expect(queues.status).toBe(200);
    const names = (queues.body as { queues: Array<{ name: string }> }).queues.map((q) => q.name).sort();
    expect(names).toEqual(["scans", "visibility", "webhooks"]);
  });

  it("refuses a change to the queues from another origin even with the browser's credentials", async () => {
    const response = await api(base, "/admin/queues/api/queues/scans/pause", {
      method: "PUT",
      headers: { authorization: basic(ADMIN_TOKEN), origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
  });

  it("wants the metrics token on /metrics but leaves the probes open", async () => {
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain("scan_queue_jobs");
    expect(
      (await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status,
    ).toBe(401);
    const metrics = await scrape(base, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics).toContain("scan_queue_jobs");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe("worker: its own metrics port, and logs that follow a request", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let worker: string;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl,
      allowlist: [site.hostPort],
      // every quick scan renders, so each one opens a context and prepares the next on its browser
      env: { BROWSER_RECYCLE_AFTER: "4", SCAN_TIMEOUT_MS: "5000", QUICK_RENDER: "always" },
      log: createLogger({ service: "test", level: "debug" }, sink),
    });
    base = stack.gateway.url;
    worker = stack.workerOps!.url;
  });

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  const scan = async (path: string, headers: Record<string, string> = {}) =>
    api(base, "/api/v1/scan", { body: { url: site.url(path), mode: "quick" }, headers });

  it("answers /healthz and /readyz with the browser launched and Redis and Postgres reachable", async () => {
    expect((await fetch(`${worker}/healthz`)).status).toBe(200);
    const ready = await eventually(
      async () => {
        const response = await fetch(`${worker}/readyz`);
        return response.status === 200 ? response.json() : undefined;
      },
      { what: "the worker to be ready" },
    );
    expect(ready).toEqual({
      ok: true,
      checks: {
        browser: { ok: true, ms: expect.any(Number) },
        redis: { ok: true, ms: expect.any(Number) },
        postgres: { ok: true, ms: expect.any(Number) },
      },
    });
  });

  it("carries the request id from the gateway into the worker's log lines, and logs no secret", async () => {
    const { key } = await createAccount(stack.db, "pro");
    const body = { url: site.url("/page"), mode: "quick" };
    // credentials the gateway refuses are kept out of the logs as well as the ones it accepts
    const refused = await api(base, "/api/v1/scan?key=sk_live_QUERYSECRET", {
      body,
      headers: {
        "x-request-id": "trace-ops-41",
        authorization: "Bearer sk_live_BEARERSECRET",
        "x-api-key": "sk_live_HEADERSECRET",
        cookie: "session=COOKIESECRET",
      },
    });
    expect(refused.status).toBe(401);
    const response = await api(base, "/api/v1/scan?key=sk_live_QUERYSECRET", {
      body,
      headers: {
        "x-request-id": "trace-ops-42",
        authorization: `Bearer ${key}`,
        "x-api-key": key,
        cookie: "session=COOKIESECRET",
      },
    });
    expect(response.status).toBe(200);
    const scanId = envelope(response).data.id;
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.find((l) => l.msg === "request" && l.requestId === "trace-ops-41")).toMatchObject({
      route: "/api/v1/scan",
      status: 401,
      url: "/api/v1/scan?key=[REDACTED]",
    });
    const request = parsed.find((l) => l.msg === "request" && l.requestId === "trace-ops-42");
    expect(request).toMatchObject({ method: "POST", route: "/api/v1/scan", status: 200 });
    expect(request.url).toBe("/api/v1/scan?key=[REDACTED]");
    const completed = parsed.find((l) => l.msg === "scan completed" && l.scanId === scanId);
    expect(completed).toMatchObject({
      requestId: "trace-ops-42",
      mode: "quick",
      renderReason: "quick scans always render (QUICK_RENDER=always)",
    });
    const all = lines.join("\n");
    expect(all).not.toMatch(/QUERYSECRET|BEARERSECRET|HEADERSECRET|COOKIESECRET/);
    // neither the key nor its secret part (everything after the aeo_live_ prefix)
    expect(all).not.toContain(key.slice("aeo_live_".length));
  });

  it("exports scan durations by mode and outcome, checks run, and the browser pool", async () => {
    // the scan above was the first browser's first; the fourth retires it (BROWSER_RECYCLE_AFTER=4)
    expect((await scan("/other")).status).toBe(200);
    expect((await scan("/page")).status).toBe(200);
    expect((await scan("/broken")).status).toBe(502);
    // the fifth launches the replacement: a recycle
    expect((await scan("/other")).status).toBe(200);
    const metrics = await scrape(worker);
    expect(sampleValue(metrics, "scan_duration_seconds_count", { mode: "quick", outcome: "completed" })).toBe(4);
    expect(sampleValue(metrics, "scan_duration_seconds_count", { mode: "quick", outcome: "upstream_failure" })).toBe(1);
    // every completed quick scan runs the 20 quick checks
    expect(sampleSum(metrics, "scan_checks_total")).toBe(4 * 20);
    expect(sampleSum(metrics, "scan_checks_total", { area: "seo" })).toBeGreaterThan(0);
    expect(sampleValue(metrics, "browser_restarts_total", { reason: "recycle" })).toBe(1);
    expect(sampleValue(metrics, "browser_restarts_total", { reason: "crash" })).toBe(0);
    expect(sampleValue(metrics, "browser_pool_browsers")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(metrics, "browser_pool_contexts")).toBeGreaterThanOrEqual(0);
    for (const dependency of ["browser", "redis", "postgres"]) {
      expect([dependency, sampleValue(metrics, "dependency_up", { dependency })]).toEqual([dependency, 1]);
    }
    // the gateway sees this stack's worker on the scan queue, the visibility queue and the webhook queue
    const gateway = await scrape(base);
    expect(sampleValue(gateway, "scan_queue_workers", { queue: "scans" })).toBe(1);
    expect(sampleValue(gateway, "scan_queue_workers", { queue: "visibility" })).toBe(1);
    expect(sampleValue(gateway, "scan_queue_workers", { queue: "webhooks" })).toBe(1);
  });

  it("counts a browser that died as a crash restart, and scans on", async () => {
    const pool = stack.worker!.scanner.pool;
    const browser = await pool.use(async (b) => b);
    await browser.close();
    expect((await scan("/page")).status).toBe(200);
    const metrics = await scrape(worker);
    expect(sampleValue(metrics, "browser_restarts_total", { reason: "crash" })).toBe(1);
    expect(sampleValue(metrics, "browser_pool_browsers")).toBe(1);
    // the next scan's context is prepared on the new browser, not left pointing at the dead one
    const current = await pool.use(async (b) => b);
    expect(current).not.toBe(browser);
    expect((pool as any).spare?.browser).toBe(current);
    expect((await fetch(`${worker}/readyz`)).status).toBe(200);
  });
});
