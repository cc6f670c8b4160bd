import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The ai-catalog.json a site's start page names by `<link rel="ai-catalog">` or by a `Link`
 * header is the one an audit's report judges, though discovery fetches no page: the start page
 * is fetched once, by its scan, and the catalog it names is fetched when the report is built.
 */

type Json = Record<string, any>;

const VALID = JSON.stringify({
  specVersion: "1.0",
  entries: [
    {
      identifier: "urn:air:site.example:shop:assistant",
      displayName: "Shop assistant",
      type: "application/mcp-server-card+json",
      url: "https://site.example/mcp.json",
    },
  ],
});
// an entry with neither url nor data: the ARD schema rejects it
const INVALID = JSON.stringify({
  specVersion: "1.0",
  entries: [{ identifier: "urn:air:site.example:shop:x", displayName: "X", type: "application/ai-catalog+json" }],
});

const PAGE = (head: string) => `<!doctype html><html lang="en"><head><title>A shop that names its catalog</title>
${head}</head><body><main><h1>Shop</h1><p>Words for the checks.</p></main></body></html>`;

type Site = { server: FixtureServer; requests: Map<string, number> };

/** a one-page site: `/` as given, its catalog at `catalogPath`, the well-known path 404 */
const startSite = async (
  page: { head: string; link?: string },
  catalogPath: string,
  catalog: string,
): Promise<Site> => {
  const requests = new Map<string, number>();
  const server = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\n");
    if (path === "/")
      return res
        .writeHead(200, { "content-type": "text/html", ...(page.link ? { link: page.link } : {}) })
        .end(PAGE(page.head));
    if (path === catalogPath) return res.writeHead(200, { "content-type": "application/json" }).end(catalog);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  return { server, requests };
};

/**
 * A site without a catalog whose well-known path answers what `served.catalog` holds (404 while
 * it is null): the file POST /api/v1/fix generated, published where discovery looks first.
 */
const startBareSite = async (): Promise<Site & { served: { catalog: string | null } }> => {
  const requests = new Map<string, number>();
  const served: { catalog: string | null } = { catalog: null };
  const server = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\n");
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(PAGE(""));
    if (path === "/.well-known/ai-catalog.json" && served.catalog !== null)
      return res.writeHead(200, { "content-type": "application/json" }).end(served.catalog);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  return { server, requests, served };
};

describe("an audit judges the ai-catalog.json its start page names", () => {
  let byLink: Site;
  let byHeader: Site;
  let bare: Awaited<ReturnType<typeof startBareSite>>;
  let database: TestDatabase;
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    byLink = await startSite(
      { head: '<link rel="ai-catalog" href="/catalogs/shop.json">' },
      "/catalogs/shop.json",
      VALID,
    );
    byHeader = await startSite(
      { head: "", link: '</agents/catalog.json>; rel="ai-catalog"' },
      "/agents/catalog.json",
      INVALID,
    );
    bare = await startBareSite();
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [byLink.server.hostPort, byHeader.server.hostPort, bare.server.hostPort],
      env: { WORKER_CONCURRENCY: "2", RATE_LIMIT_AGENCY: "100000" },
    });
    key = (await createAccount(stack.db, "agency")).key;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await byLink?.server.close();
    await byHeader?.server.close();
    await bare?.server.close();
    await database?.drop();
    await stopContainers();
  });

  const audit = async (site: Site): Promise<Json> => {
    const headers = { "x-api-key": key };
    const created = await api(stack.gateway.url, "/api/v1/sites", { body: { url: site.server.url("/") }, headers });
    const siteId = (created.body as { data: { id: string } }).data.id;
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
    return (await stack.db.audit.findUniqueOrThrow({ where: { id } })).report as Json;
  };

  const catalogChecks = (report: Json) =>
    Object.fromEntries(
      (report.site_checks as Json[])
        .filter((check) => check.id.startsWith("ai-catalog"))
        .map((check) => [check.id, { status: check.status, findings: (check.findings as Json[]).map((f) => f.url) }]),
    );

  it("reads the catalog a <link rel=ai-catalog> names, valid, fetching the page once", async () => {
    const report = await audit(byLink);
    expect(catalogChecks(report)).toEqual({
      "ai-catalog": { status: "pass", findings: [] },
      "ai-catalog-schema": { status: "pass", findings: [] },
    });
    expect(byLink.requests.get("/")).toBe(1);
    expect(byLink.requests.get("/catalogs/shop.json")).toBe(1);
    // discovery looked at the well-known path, knowing no page yet
    expect(byLink.requests.get("/.well-known/ai-catalog.json")).toBe(1);
  }, 120_000);

  it("judges the catalog a Link header names against the ARD schema, fetching the page once", async () => {
    const report = await audit(byHeader);
    const url = byHeader.server.url("/agents/catalog.json");
    const checks = catalogChecks(report);
    expect(checks["ai-catalog"]).toEqual({ status: "pass", findings: [] });
    // the entry with neither url nor data breaks the schema and the ARD rules: each error names the catalog
    expect(checks["ai-catalog-schema"]?.status).toBe("fail");
    expect(checks["ai-catalog-schema"]?.findings.length).toBeGreaterThan(0);
    expect(new Set(checks["ai-catalog-schema"]?.findings)).toEqual(new Set([url]));
    expect(byHeader.requests.get("/")).toBe(1);
    expect(byHeader.requests.get("/agents/catalog.json")).toBe(1);
  }, 120_000);

  it("passes both catalog checks with the ai-catalog.json POST /api/v1/fix generated, served at the well-known path", async () => {
    const without = catalogChecks(await audit(bare));
    // nothing published and nothing named: the checks have nothing to judge
    expect(without["ai-catalog"]?.status).not.toBe("pass");
    const fixed = await api(stack.gateway.url, "/api/v1/fix", {
      body: { url: bare.server.url("/"), issues: ["ai-catalog-schema"] },
      headers: { "x-api-key": key },
    });
    expect(fixed.status).toBe(200);
    const catalog = (fixed.body as { data: { aiCatalog: Json | null } }).data.aiCatalog;
    expect(catalog?.path).toBe("/.well-known/ai-catalog.json");
    expect(catalog?.contentType).toMatch(/json/);
    // the generator's own proof, run on its copy of the site
    const proof = (fixed.body as { data: { proof: { siteChecks: Json[] } } }).data.proof.siteChecks;
    expect(proof.map((check) => [check.id, check.after])).toEqual([
      ["ai-catalog", "pass"],
      ["ai-catalog-schema", "pass"],
    ]);

    // published as the fix says, the audit's discovery finds it at the well-known path and the schema holds
    bare.served.catalog = catalog?.content as string;
    expect(catalogChecks(await audit(bare))).toEqual({
      "ai-catalog": { status: "pass", findings: [] },
      "ai-catalog-schema": { status: "pass", findings: [] },
    });
    expect(bare.requests.get("/.well-known/ai-catalog.json")).toBe(2);
  }, 180_000);
});
