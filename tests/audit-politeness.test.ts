import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * An audit never hammers the site: with two worker slots free, one page of the host is fetched
 * at a time (AUDIT_HOST_CONCURRENCY=1), each page starting at least the robots.txt Crawl-delay
 * after the one before; a page robots.txt disallows for the crawler is never fetched.
 */

const PAGES = 6;
const CRAWL_DELAY_S = 0.5;

const page = (
  n: number,
) => `<!doctype html><html lang="en"><head><title>Polite page number ${n} of the site</title></head>
<body><main><h1>Page ${n}</h1><p>Words for the checks.</p>${Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">${i + 1}</a>`).join(" ")}
<a href="/secret/">secret</a></main></body></html>`;

describe("a polite audit", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let inFlight = 0;
  let mostInFlight = 0;
  const starts: number[] = [];
  const fetched: string[] = [];

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/robots.txt") {
        res
          .writeHead(200, { "content-type": "text/plain" })
          .end(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_S}\nDisallow: /secret/\n`);
        return;
      }
      if (path !== "/" && !path.startsWith("/p/") && !path.startsWith("/secret/")) return res.writeHead(404).end();
      fetched.push(path);
      starts.push(Date.now());
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // slow enough that two slots would overlap if the audit let them
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { "content-type": "text/html" }).end(page(Number(path.split("/")[2] ?? 0)));
      }, 200);
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { WORKER_CONCURRENCY: "2", AUDIT_HOST_CONCURRENCY: "1", RATE_LIMIT_AGENCY: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  it("fetches one page at a time, a Crawl-delay apart, and never a disallowed one", async () => {
    const { key } = await createAccount(stack.db, "agency");
    const headers = { "x-api-key": key };
    const siteId = (
      (await api(stack.gateway.url, "/api/v1/sites", { body: { url: site.url("/") }, headers })).body as {
        data: { id: string };
      }
    ).data.id;
    const started = await api(stack.gateway.url, `/api/v1/sites/${siteId}/audits`, {
      headers,
      body: { mode: "quick" },
    });
    const id = (started.body as { data: { id: string } }).data.id;
    await eventually(
      async () => (await stack.db.audit.findUniqueOrThrow({ where: { id } })).status === "completed",
      60_000,
      "the audit to complete",
    );
    const progress = await stack.db.auditPage.groupBy({ by: ["status"], where: { auditId: id }, _count: true });
    expect(Object.fromEntries(progress.map((row) => [row.status, row._count]))).toEqual({
      scanned: PAGES + 1,
      blocked: 1,
    });
    expect(fetched.filter((path) => path.startsWith("/secret/"))).toEqual([]);
    expect(fetched).toHaveLength(PAGES + 1);
    expect(mostInFlight).toBe(1);
    // Crawl-delay spaces the pages' slots: over the audit the requests come no faster than one a
    // delay; one gap may come out shorter by the work another job did on the worker's event loop
    // between a slot's taking and its request
    const span = (starts.at(-1) as number) - (starts[0] as number);
    expect(span).toBeGreaterThanOrEqual((starts.length - 1) * CRAWL_DELAY_S * 1000 - 50);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000 - 250);
  }, 300_000);
});
