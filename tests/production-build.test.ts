import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { assembleService } from "../scripts/assemble-service";
import { dropQueue, type Service, startGatewayProcess, startWorkerProcess } from "../scripts/bench/stack";
import { buildService, SERVICE_BUILDS } from "../scripts/build";
import { corpusPages, serveCorpus } from "./support/corpus";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { sampleValue, scrape } from "./support/prometheus";
import { createTestDatabase, type TestDatabase, testRedisUrl, uniquePrefix } from "./support/services";

/**
 * The production build: `pnpm build` bundles, scripts/assemble-service.ts lays each service out
 * as its image holds it (dist/ and production dependencies only, no tsx), and that layout is
 * started as the images start it, `node dist/main.js` with NODE_ENV=production, against real
 * Postgres, Redis and Chromium.
 */

// a build, two `pnpm deploy`s, two service starts and a scan
jest.setTimeout(300_000);

const run = promisify(execFile);
const ADMIN_TOKEN = "production-build-admin-token";
/** what the Ingress adds to a request it received over HTTPS */
const https = { "x-forwarded-proto": "https" };

let layout: string;
let database: TestDatabase;
let freshUrl: URL;
let redisUrl: string;
let prefix: string;
let site: FixtureServer;
let gateway: { service: Service; url: string };
let worker: Service;
let workerOps: string;

beforeAll(async () => {
  await Promise.all(SERVICE_BUILDS.map(buildService));
  layout = mkdtempSync(join(tmpdir(), "aeo-scan-image-"));
  assembleService("gateway", layout);
  assembleService("worker", layout);
  database = await createTestDatabase();
  // a database the compiled migrations create and fill themselves
  freshUrl = new URL(database.url);
  freshUrl.pathname = `${freshUrl.pathname}_fresh`;
  redisUrl = await testRedisUrl();
  prefix = uniquePrefix();
  site = await startFixtureServer({}, serveCorpus);
});

afterAll(async () => {
  await gateway?.service.stop();
  await worker?.stop();
  await site?.close();
  await dropQueue(redisUrl, prefix);
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${freshUrl.pathname.slice(1)}" WITH (FORCE)`);
  await admin.end();
  await database?.drop();
  if (layout) rmSync(layout, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: "production",
  // a production gateway wants its JWT key configured
  JWT_SECRET: "production-build-jwt-secret-0123456789abcdef",
  // behind the Ingress: its X-Forwarded-Proto says the request came over HTTPS
  TRUST_PROXY: "1",
  DATABASE_URL: freshUrl.toString(),
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: prefix,
  RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
  SCAN_ALLOWLIST: site.hostPort,
  LOG_LEVEL: "info",
  ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
});

describe("the compiled services, laid out as in their images", () => {
  it("hold JavaScript and production dependencies only", () => {
    for (const service of ["gateway", "worker"]) {
      const dir = join(layout, "services", service);
      expect([service, existsSync(join(dir, "dist/main.js"))]).toEqual([service, true]);
      expect([service, existsSync(join(dir, "src"))]).toEqual([service, false]);
      expect([service, existsSync(join(dir, "node_modules/tsx"))]).toEqual([service, false]);
      expect([service, existsSync(join(dir, "node_modules/typescript"))]).toEqual([service, false]);
    }
    expect(existsSync(join(layout, "services/worker/node_modules/playwright-core"))).toBe(true);
  });

  it("migrate a new database with dist/migrate.js", async () => {
    const result = await run(process.execPath, ["dist/migrate.js"], {
      cwd: join(layout, "services/gateway"),
      env: env(),
    });
    expect(result.stdout).toMatch(/^applied \d{14}_scans, /);
  });

  it("create a user and a key with dist/accounts.js", async () => {
    const cwd = join(layout, "services/gateway");
    await run(process.execPath, ["dist/accounts.js", "create-user", "--email", "ops@example.com", "--plan", "pro"], {
      cwd,
      env: env(),
    });
    const created = await run(process.execPath, ["dist/accounts.js", "create-key", "--email", "ops@example.com"], {
      cwd,
      env: env(),
    });
    expect(created.stdout).toMatch(/aeo_live_[0-9A-Za-z]{36}/);
  });

  it("start and serve: probes, the docs page, the queue dashboard and a scan", async () => {
    const options = (service: string) => ({ compiledIn: join(layout, "services", service) });
    gateway = await startGatewayProcess({ ...env(), ADMIN_TOKEN }, options("gateway"));
    worker = await startWorkerProcess(
      "worker",
      { ...env(), METRICS_PORT: "0", METRICS_HOST: "127.0.0.1" },
      options("worker"),
    );
    workerOps = (await worker.waitForLog((record) => record.msg === "worker started", 10_000)).ops as string;

    // the probes as the kubelet sends them, over plain HTTP
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${workerOps}/readyz`)).status).toBe(200);
    // in production the API wants HTTPS
    expect((await fetch(`${gateway.url}/api/v1/scans`)).status).toBe(403);
    // the modules kept out of the bundle find their files
    const docs = await fetch(`${gateway.url}/docs`, { headers: https });
    expect(docs.status).toBe(200);
    expect(docs.headers.get("strict-transport-security")).toMatch(/^max-age=\d+$/);
    const dashboard = await fetch(`${gateway.url}/admin/queues`, {
      headers: { ...https, authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("<html");

    const [page] = corpusPages();
    const response = await fetch(`${gateway.url}/api/v1/scan`, {
      method: "POST",
      headers: { ...https, "content-type": "application/json" },
      body: JSON.stringify({ url: site.url(`/${page}/`), mode: "quick" }),
    });
    const body = (await response.json()) as { data?: { scores?: { overall?: number } } };
    expect(response.status).toBe(200);
    expect(body.data?.scores?.overall).toEqual(expect.any(Number));
    const metrics = await scrape(workerOps);
    expect(sampleValue(metrics, "scan_duration_seconds_count", { mode: "quick", outcome: "completed" })).toBe(1);
  });
});
