import { execFileSync } from "node:child_process";
import { RENDER_FAILURE_MESSAGES } from "@scan/contract";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { hostileTargets } from "./support/hostile-targets";
import { sampleValue, scrape } from "./support/prometheus";
import { type FinishedCheck, scanToEnd } from "./support/scan-to-end";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * Hostile and broken targets, and a browser that dies: every scan ends with a verdict or
 * upstream_failure, and the worker goes on scanning. How soon is the benchmark's question
 * (`pnpm bench`, docs/faults-and-benchmark.md): on a loaded machine a scan may outlast the
 * gateway's wait, and is then read from its stored row, as a client would after a 202.
 */

const SCAN_TIMEOUT_MS = 4_000;
const GOOD = `<!doctype html><html lang="en"><head><title>A healthy page after the storm</title></head>
<body><main><h1>Healthy</h1><p>${"Plain words of content. ".repeat(40)}</p></main></body></html>`;

/** Chromium processes whose parent is this test process (the pool's browser). */
const browserPids = (): number[] =>
  execFileSync("ps", ["-eo", "pid=,ppid=,comm="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, comm]) => Number(ppid) === process.pid && /chrom/.test(comm ?? ""))
    .map(([pid]) => Number(pid));

describe("faults: hostile targets and a dying browser", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  const hostile = hostileTargets();

  beforeAll(async () => {
    site = await startFixtureServer({ "/good": html(GOOD), ...hostile.routes }, hostile.fallback);
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS), SCAN_WAIT_MS: "34000", RATE_LIMIT_ANONYMOUS: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    hostile.close();
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const scan = (path: string, mode: "quick" | "full" = "full") =>
    scanToEnd(stack.gateway.url, { url: site.url(path), mode });

  const byId = (checks: FinishedCheck[]) => Object.fromEntries(checks.map((check) => [check.id, check.status]));

  const expectHealthy = async () => {
    const after = await scan("/good");
    expect(after.status).toBe("completed");
  };

  it.each([
    ["accepts the connection and never answers", "/hang"],
    ["sends headers and then nothing", "/hang-after-headers"],
  ])(
    "ends a scan of a target that %s with upstream_failure",
    async (_name, path) => {
      const result = await scan(path);
      expect(result).toMatchObject({ status: "failed", errorCode: "upstream_failure" });
      await expectHealthy();
    },
    180_000,
  );

  it("ends a scan of a target that trickles bytes for ever", async () => {
    const result = await scan("/trickle");
    if (result.status === "failed") expect(result.errorCode).toBe("upstream_failure");
    await expectHealthy();
  }, 180_000);

  it("judges a 10 MB page on the first MAX_HTML_BYTES", async () => {
    const result = await scan("/huge");
    // the error code too: a failure says why
    expect({ status: result.status, errorCode: result.errorCode }).toEqual({ status: "completed", errorCode: null });
    expect(byId(result.checks).title).toBe("pass");
    await expectHealthy();
  }, 180_000);

  it("stops following 50 redirects at MAX_REDIRECTS and fails the page's status checks", async () => {
    const result = await scan("/redirect/0");
    expect(result.status).toBe("completed");
    expect(byId(result.checks)["http-status"]).toBe("fail");
    expect(byId(result.checks)["redirect-chain"]).toBe("fail");
  }, 180_000);

  it("judges a page whose script never yields on its served HTML, and says why", async () => {
    const result = await scan("/endless-script");
    expect(result).toMatchObject({
      status: "completed",
      rendered: false,
      renderFailure: { code: "dom_unreadable", message: RENDER_FAILURE_MESSAGES.dom_unreadable },
    });
    await expectHealthy();
  }, 180_000);

  it("judges a page the parser could not finish on its served HTML, not on half a document, and says why", async () => {
    const result = await scan("/blocked-parser");
    expect(result).toMatchObject({
      status: "completed",
      rendered: false,
      renderFailure: { code: "parse_unfinished", message: RENDER_FAILURE_MESSAGES.parse_unfinished },
    });
    // the partly parsed DOM has neither: judged on it, both would fail
    expect(byId(result.checks).title).toBe("pass");
    expect(byId(result.checks).h1).toBe("pass");
    await expectHealthy();
  }, 180_000);

  it("counts the scans judged on their served HTML by mode and reason, one for each such stored scan", async () => {
    const metrics = await scrape(stack.workerOps?.url ?? "");
    for (const mode of ["quick", "full"] as const) {
      for (const reason of ["dom_unreadable", "parse_unfinished"]) {
        const stored = await stack.db.scan.count({ where: { mode, renderFailure: reason } });
        const counted = sampleValue(metrics, "scan_render_fallbacks_total", { mode, reason });
        expect({ mode, reason, counted }).toEqual({ mode, reason, counted: stored });
      }
    }
    // the two pages above, at least (on a loaded machine a large page may join them)
    expect(await stack.db.scan.count({ where: { renderFailure: { not: null } } })).toBeGreaterThanOrEqual(2);
  });

  it("relaunches a browser that was killed, and the next scans succeed", async () => {
    await expectHealthy();
    const launchesBefore = stack.worker?.scanner.pool.launches ?? 0;
    const pids = browserPids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    // the scan right after the kill may be retried once on the new browser; it must not hang or fail
    for (let i = 0; i < 3; i++) await expectHealthy();
    expect(stack.worker?.scanner.pool.launches ?? 0).toBeGreaterThan(launchesBefore);
    expect(browserPids().length).toBeGreaterThan(0);
  }, 300_000);
});
