import { execFileSync } from "node:child_process";
import type { ServerResponse } from "node:http";
import { type FixtureServer, hang, html, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Hostile and broken targets, and a browser that dies: every scan ends within its budget with
 * a verdict or upstream_failure, and the worker goes on scanning.
 */

const SCAN_TIMEOUT_MS = 4_000;
const GOOD = `<!doctype html><html lang="en"><head><title>A healthy page after the storm</title></head>
<body><main><h1>Healthy</h1><p>${"Plain words of content. ".repeat(40)}</p></main></body></html>`;

type Envelope = { data?: any; error?: { code: string; message: string } };

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
  const timers = new Set<NodeJS.Timeout>();

  const trickle = (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<!doctype html><html><head><title>slow</title>");
    const timer = setInterval(() => res.write("<p>.</p>"), 100);
    timers.add(timer);
    res.on("close", () => clearInterval(timer));
  };

  beforeAll(async () => {
    const huge = `<!doctype html><html lang="en"><head><title>A very large page</title></head><body>${"<p>Ten megabytes of paragraphs, one after another.</p>".repeat(200_000)}</body></html>`;
    site = await startFixtureServer(
      {
        "/good": html(GOOD),
        "/hang": hang,
        "/trickle": trickle,
        "/huge": html(huge),
        "/hang-after-headers": (_req, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.flushHeaders();
        },
        // the parser stops at a script that never arrives: the title after it is never parsed
        "/blocked-parser": html(
          `<!doctype html><html lang="en"><head><script src="/hang"></script><title>A title behind a stuck script</title></head><body><h1>Behind it</h1><p>${"words ".repeat(80)}</p></body></html>`,
        ),
        "/endless-script": html(
          `<!doctype html><html><head><title>Spins for ever</title></head><body><p>${"words ".repeat(80)}</p><script>for(;;){}</script></body></html>`,
        ),
      },
      (req, res) => {
        // /redirect/N redirects to /redirect/N+1, for ever
        const match = /^\/redirect\/(\d+)$/.exec(req.url ?? "");
        if (!match) return void res.writeHead(404).end();
        res.writeHead(302, { location: `/redirect/${Number(match[1]) + 1}` }).end();
      },
    );
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS), SCAN_WAIT_MS: "20000", RATE_LIMIT_ANONYMOUS: "100000" },
    });
  }, 60_000);

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const scan = async (path: string, mode: "quick" | "full" = "full") => {
    const started = performance.now();
    const response = await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url(path), mode } });
    return { ...response, body: response.body as Envelope, ms: performance.now() - started };
  };

  const expectHealthy = async () => {
    const after = await scan("/good");
    expect(after.status).toBe(200);
    expect(after.body.data.status).toBe("completed");
  };

  // the budget: the capture's own timeout, plus storing and judging, well under the 35 s client timeout
  const BUDGET_MS = SCAN_TIMEOUT_MS + 4_000;

  it.each([
    ["accepts the connection and never answers", "/hang"],
    ["sends headers and then nothing", "/hang-after-headers"],
  ])("ends a scan of a target that %s with upstream_failure in the budget", async (_name, path) => {
    const result = await scan(path);
    expect(result.status).toBe(502);
    expect(result.body.error?.code).toBe("upstream_failure");
    expect(result.ms).toBeLessThan(BUDGET_MS);
    await expectHealthy();
  });

  it("ends a scan of a target that trickles bytes for ever within the budget", async () => {
    const result = await scan("/trickle");
    expect([200, 502]).toContain(result.status);
    if (result.status === 502) expect(result.body.error?.code).toBe("upstream_failure");
    expect(result.ms).toBeLessThan(BUDGET_MS);
    await expectHealthy();
  });

  it("judges a 10 MB page on the first MAX_HTML_BYTES within the budget", async () => {
    const result = await scan("/huge");
    expect(result.status).toBe(200);
    const title = result.body.data.checks.find((check: { id: string }) => check.id === "title");
    expect(title.status).toBe("pass");
    expect(result.ms).toBeLessThan(BUDGET_MS + 6_000);
    await expectHealthy();
  }, 30_000);

  it("stops following 50 redirects at MAX_REDIRECTS and fails the page's status checks", async () => {
    const result = await scan("/redirect/0");
    expect(result.status).toBe(200);
    const byId = Object.fromEntries(
      result.body.data.checks.map((check: { id: string; status: string }) => [check.id, check.status]),
    );
    expect(byId["http-status"]).toBe("fail");
    expect(byId["redirect-chain"]).toBe("fail");
    expect(result.ms).toBeLessThan(BUDGET_MS);
  });

  it("judges a page whose script never yields on its served HTML, within the budget", async () => {
    const result = await scan("/endless-script");
    expect(result.status).toBe(200);
    expect(result.body.data.rendered).toBe(false);
    expect(result.ms).toBeLessThan(BUDGET_MS + 4_000);
    await expectHealthy();
  }, 30_000);

  it("judges a page the parser could not finish on its served HTML, not on half a document", async () => {
    const result = await scan("/blocked-parser");
    expect(result.status).toBe(200);
    expect(result.body.data.rendered).toBe(false);
    const byId = Object.fromEntries(
      result.body.data.checks.map((check: { id: string; status: string }) => [check.id, check.status]),
    );
    // the partly parsed DOM has neither: judged on it, both would fail
    expect(byId.title).toBe("pass");
    expect(byId.h1).toBe("pass");
    expect(result.ms).toBeLessThan(BUDGET_MS);
    await expectHealthy();
  }, 30_000);

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
  }, 60_000);
});
