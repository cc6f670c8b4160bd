import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { sampleSum, sampleValue, scrape } from "./support/prometheus";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * The `scan` command, run as a user runs it, against a local stack and in-process. With
 * SCAN_API_KEY it follows the scan asynchronously; without, it takes the API's synchronous
 * answer, since reading a scan back needs a key.
 */

// each test runs the client as a process, some of them several times
jest.setTimeout(300_000);

const BIN = resolve(__dirname, "../packages/cli/bin/scan.cjs");

const NO_TITLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head>
<body><main><h1>A page without a title</h1><p>The command-line client should say so.</p></main></body></html>`;

type Run = { code: number | null; stdout: string; stderr: string };

const run = (args: string[], env: Record<string, string | undefined>): Promise<Run> =>
  new Promise((done) => {
    // only what the client reads: no SCAN_API_URL leaks in from the environment
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });

// after every describe block: the later ones reuse the containers
afterAll(async () => {
  await stopContainers();
});

describe("scan <url> on the command line", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  /** the client's environment with a key */
  let api: Record<string, string>;
  /** and without one */
  let anonymous: Record<string, string>;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/no-title": html(NO_TITLE),
      "/broken": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    stack = await startStack({ databaseUrl: database.url, redisUrl: await testRedisUrl(), allowlist: [site.hostPort] });
    // each status read counts against the key's hourly limit: a plan with room for several scans
    const { key } = await createAccount(stack.db, "pro");
    api = { SCAN_API_URL: stack.gateway.url, SCAN_API_KEY: key };
    anonymous = { SCAN_API_URL: stack.gateway.url };
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  it("scans through the API, shows progress while it waits, and prints scores and failing checks", async () => {
    const result = await run([site.url("/no-title"), "--mode", "quick"], api);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Scan of http:\/\/127\.0\.0\.1:\d+\/no-title \(quick, [\d.]+ s, id [0-9a-f-]{36}\)/);
    expect(result.stdout).toMatch(/overall\s+\d+\s+grade (A\+|A|B\+|B|C|D|F)/);
    expect(result.stdout).toMatch(/fail\s+seo\s+critical\s+title\s+0\/\d+/);
    expect(result.stdout).toContain("How to fix");
    // progress goes to stderr, one line per status when stderr is not a terminal
    expect(result.stderr).toContain(`scan ${site.url("/no-title")}: queued`);
    expect(result.stdout).not.toContain("queued");
    // the printed id is the stored scan
    const id = /id ([0-9a-f-]{36})/.exec(result.stdout)?.[1];
    const stored = await stack.db.scan.findUniqueOrThrow({ where: { id: id! } });
    expect(stored.status).toBe("completed");
    expect(result.stdout).toMatch(new RegExp(`overall\\s+${stored.overall}\\s`));
    expect(stored.userId).not.toBeNull();
  });

  it("audits a whole site through the API with a progress bar, and prints the site report", async () => {
    const result = await run(["audit", site.url("/no-title"), "--mode", "quick", "--max-pages", "5"], api);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining(`audit ${site.origin}: `)]);
    // one progress line per change, with a bar of the pages done
    expect(result.stderr).toMatch(
      /audit http:\/\/127\.0\.0\.1:\d+: (running|finalizing|completed) \[[#-]{20}\] \d+\/\d+ pages/,
    );
    expect(result.stdout).toMatch(/^audit [0-9a-f-]{36} of http:\/\/127\.0\.0\.1:\d+\/ \(quick\): completed/);
    expect(result.stdout).toMatch(/grade (A\+|A|B\+|B|C|D|F)\s+overall \d+/);
    const id = /^audit ([0-9a-f-]{36})/.exec(result.stdout)?.[1];
    const stored = await stack.db.audit.findUniqueOrThrow({ where: { id: id! } });
    expect(stored).toMatchObject({ status: "completed", maxPages: 5, mode: "quick" });
    const refused = await run(["audit", site.url("/")], anonymous);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("SCAN_API_KEY");
  });

  it("without SCAN_API_KEY, takes the API's synchronous answer and never reads the scan back", async () => {
    const requests = async () => {
      const metrics = await scrape(stack.gateway.url);
      return {
        // every GET but the scrapes themselves
        reads:
          sampleSum(metrics, "http_request_duration_seconds_count", { method: "GET" }) -
          sampleSum(metrics, "http_request_duration_seconds_count", { method: "GET", route: "/metrics" }),
        answered: sampleValue(metrics, "http_request_duration_seconds_count", {
          method: "POST",
          route: "/api/v1/scan",
          status: "200",
        }),
        accepted: sampleValue(metrics, "http_request_duration_seconds_count", {
          method: "POST",
          route: "/api/v1/scan",
          status: "202",
        }),
      };
    };
    const before = await requests();
    const result = await run([site.url("/no-title"), "--mode", "quick"], anonymous);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Scan of http:\/\/127\.0\.0\.1:\d+\/no-title \(quick, [\d.]+ s, id [0-9a-f-]{36}\)/);
    expect(result.stdout).toMatch(/fail\s+seo\s+critical\s+title\s+0\/\d+/);
    expect(result.stderr).not.toContain("queued");
    expect(result.stderr).not.toMatch(/\b401\b|API key/);
    const after = await requests();
    // one POST answered with the result: no 202, and no GET that would have needed a key
    expect(after.answered).toBe((before.answered ?? 0) + 1);
    expect(after.accepted).toBe(before.accepted);
    expect(after.reads).toBe(before.reads);
    const id = /id ([0-9a-f-]{36})/.exec(result.stdout)?.[1];
    const stored = await stack.db.scan.findUniqueOrThrow({ where: { id: id! } });
    expect(stored).toMatchObject({ status: "completed", userId: null });

    // a scan that fails is reported as the keyed client reports it
    const failed = await run([site.url("/broken"), "--mode", "quick"], anonymous);
    // the page itself failed: exit 1, as Lighthouse CI
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Failed: .*503.* \(upstream_failure\)/);
    expect(failed.stderr).not.toMatch(/\b401\b|API key/);
  });

  it("prints JSON with --json", async () => {
    const result = await run([site.url("/no-title"), "--mode", "quick", "--json"], api);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ url: site.url("/no-title"), mode: "quick", status: "completed" });
    expect(report.checks).toHaveLength(20);
    expect(report.checks.find((c: { id: string }) => c.id === "title").status).toBe("fail");
  });

  it("exits 1 when the page fails, and 3 with the reason when the API refuses the scan", async () => {
    const failed = await run([site.url("/broken"), "--mode", "quick"], api);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Failed: .*503.* \(upstream_failure\)/);

    const refused = await run(["http://10.1.2.3/", "--mode", "quick"], api);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/not scannable.*\(400 invalid_request\)/);

    const badKey = await run([site.url("/no-title"), "--mode", "quick"], { ...api, SCAN_API_KEY: "aeo_live_nope" });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toMatch(/\(401 unauthenticated\)/);

    const down = await run([site.url("/no-title")], { SCAN_API_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("could not reach the API at http://127.0.0.1:9");
  });

  it("refuses bad usage with exit 2", async () => {
    expect((await run([], api)).code).toBe(2);
    expect((await run([site.url("/no-title"), "--mode", "slow"], api)).stderr).toContain(
      "--mode must be quick or full",
    );
    expect((await run(["ftp://example.com/"], api)).code).toBe(2);
    expect((await run([site.url("/no-title")], { SCAN_API_URL: "not a url" })).stderr).toContain("SCAN_API_URL");
  });

  it("scans in-process when no API is configured", async () => {
    const result = await run([site.url("/no-title"), "--mode", "quick"], { SCAN_ALLOWLIST: site.hostPort });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Scan of http:\/\/127\.0\.0\.1:\d+\/no-title \(quick, [\d.]+ s\)/);
    expect(result.stdout).toMatch(/fail\s+seo\s+critical\s+title/);
    expect(result.stderr).toContain("starting Chromium");
    // the same rules as the service: a private target needs the allowlist
    const refused = await run([site.url("/no-title"), "--mode", "quick"], {});
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("is not scannable");
  });
});

describe("scan <url> without SCAN_API_KEY when the API answers 202", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    // no worker: the scan stays queued past the API's short wait
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["127.0.0.1:9"],
      worker: false,
      // a free key's limit that runs out while the client follows a scan
      env: { SCAN_WAIT_MS: "300", RATE_LIMIT_FREE: "2" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("follows the scan by its access link without a key, and at --timeout names the link, never a 401", async () => {
    const result = await run(["http://127.0.0.1:9/page", "--mode", "quick", "--timeout", "3"], {
      SCAN_API_URL: stack.gateway.url,
    });
    expect(result.code).toBe(3);
    const found = /no result within 3 s; the scan goes on as ([0-9a-f-]{36}): GET (\S+)/.exec(result.stderr);
    const id = found?.[1] as string;
    const link = found?.[2] as string;
    expect(link.startsWith(`${stack.gateway.url}/api/v1/scan/${id}?access=`)).toBe(true);
    expect(link.split("access=")[1]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stderr).not.toMatch(/\b401\b|unauthenticated/);
    expect(await stack.db.scan.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "queued", userId: null });
    // it read the scan by its link, and every read was answered
    const metrics = await scrape(stack.gateway.url);
    expect(sampleSum(metrics, "http_request_duration_seconds_count", { method: "GET", status: "200" })).toBeGreaterThan(
      0,
    );
    expect(sampleSum(metrics, "http_request_duration_seconds_count", { method: "GET", status: "401" })).toBe(0);
    // and the link still reads it
    expect((await fetch(link)).status).toBe(200);
  });

  it("with a key whose rate limit runs out while it follows the scan, names the scan to read later", async () => {
    const { key } = await createAccount(stack.db);
    const result = await run(["http://127.0.0.1:9/page", "--mode", "quick"], {
      SCAN_API_URL: stack.gateway.url,
      SCAN_API_KEY: key,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("(429 rate_limited)");
    const id = /goes on as ([0-9a-f-]{36}): GET /.exec(result.stderr)?.[1];
    expect(result.stderr).toContain(`GET ${stack.gateway.url}/api/v1/scan/${id}`);
    expect(await stack.db.scan.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({ status: "queued" });
  });

  it("with a key, gives up at --timeout naming the scan, which goes on", async () => {
    const { key } = await createAccount(stack.db, "pro");
    const result = await run(["http://127.0.0.1:9/page", "--mode", "quick", "--timeout", "2"], {
      SCAN_API_URL: stack.gateway.url,
      SCAN_API_KEY: key,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/: queued/);
    const id = /no result within 2 s; the scan goes on as ([0-9a-f-]{36}): GET /.exec(result.stderr)?.[1];
    expect(result.stderr).toContain(`GET ${stack.gateway.url}/api/v1/scan/${id}`);
    expect(await stack.db.scan.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({ status: "queued" });
  });
});
