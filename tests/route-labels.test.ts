import { randomUUID } from "node:crypto";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { eventually, parseMetrics } from "./support/prometheus";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * The request metrics label every request with the path its route is declared on: for every
 * route the gateway mounts (read from its router, so a new one cannot be missed), a success,
 * a refused caller (401), a missing resource (404) and a method the path does not serve (405)
 * are each counted under that path, never under a mount point's doubled path (`/mcp/mcp`),
 * never under `unmatched`.
 */

jest.setTimeout(300_000);

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widgets for every gap</title>
<meta name="description" content="Widgets in every size, and how to choose the one for your gap."></head>
<body><main><h1>Widgets</h1><h2>What size do I need?</h2><p>One size above the gap.</p></main></body></html>`;

type Probe = {
  /** the status the gateway must answer */
  status: number;
  /** the method the request is sent with, when it is not the route's own (405) */
  method?: string;
  send: () => Promise<ApiResponse>;
};

afterAll(() => stopContainers());

describe("route labels of the request metrics", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let account: TestAccount;
  let routes: RouteInfo[];

  beforeAll(async () => {
    site = await startFixtureServer({ "/page": html(PAGE), "/robots.txt": text("User-agent: *\nAllow: /\n") });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: {
        METRICS_TOKEN,
        RATE_LIMIT_AGENCY: "100000",
        RATE_LIMIT_ANONYMOUS: "1000",
        SITE_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      },
    });
    base = stack.gateway.url;
    account = await createAccount(stack.db, "agency");
    // the dashboard's pages and files (GET /app, /app/{*page}) are labelled `/app` as a whole by
    // their own middleware; tests/dashboard-serving.test.ts holds them to it
    routes = gatewayRoutes(stack.gateway.server).filter((route) => !route.path.startsWith("/app"));
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  const key = () => ({ "x-api-key": account.key });
  const jwt = () => ({ authorization: `Bearer ${account.token}` });
  const bogus = { authorization: "Bearer aeo_live_notAKeyAtAll" };
  const call = (path: string, init: Parameters<typeof api>[2] = {}) => api(base, path, init);
  const rpcBody = { jsonrpc: "2.0", id: 1, method: "tools/list" };

  /** The probes of each route, keyed `METHOD path` as the router declares it. */
  const probesOf = async (): Promise<Record<string, Probe[]>> => {
    const scan = await call("/api/v1/scan", {
      body: { url: site.url("/page"), mode: "quick" },
      headers: { ...key(), prefer: "respond-async" },
    });
    const scanId = (scan.body as any).data.id as string;
    const created = await call("/api/v1/sites", { headers: key(), body: { url: site.url("/") } });
    const siteId = (created.body as any).data.id as string;
    // two sites behind a login: one whose credentials are read and set, one whose are removed
    const other = await call("/api/v1/sites", { headers: key(), body: { url: "https://other.labels.example" } });
    const otherSiteId = (other.body as any).data.id as string;
    for (const id of [siteId, otherSiteId]) {
      await call(`/api/v1/sites/${id}/credentials`, {
        method: "PUT",
        headers: key(),
        body: { headers: { "X-Staging": "label" } },
      });
    }
    const spare = await call("/api/v1/keys", { headers: jwt(), body: { name: "spare" } });
    const spareId = (spare.body as any).data.id as string;
    const keyword = { site_id: siteId, keyword: "widgets", position: 3, volume: 10, difficulty: 5 };
    const track = { site_id: siteId, platform: "claude", query_text: "widgets", cited: false };
    // records that the PATCH and DELETE probes rename and delete
    const idOf = async (path: string, body: unknown) =>
      ((await call(path, { headers: key(), body })).body as any).data.id as string;
    const doomedSiteId = await idOf("/api/v1/sites", { url: "https://doomed.labels.example" });
    const [renamedKeyword, doomedKeyword] = [
      await idOf("/api/v1/keywords", { ...keyword, keyword: "renamed" }),
      await idOf("/api/v1/keywords", { ...keyword, keyword: "doomed" }),
    ];
    const [renamedTrack, doomedTrack] = [
      await idOf("/api/v1/citations", track),
      await idOf("/api/v1/citations", track),
    ];
    const [renamedClient, doomedClient] = [
      await idOf("/api/v1/clients", { name: "Renamed" }),
      await idOf("/api/v1/clients", { name: "Doomed" }),
    ];
    const [promptId, doomedPromptId] = [
      await idOf(`/api/v1/sites/${siteId}/prompts`, { text: "changed label" }),
      await idOf(`/api/v1/sites/${siteId}/prompts`, { text: "doomed label" }),
    ];
    const [competitorId, doomedCompetitorId] = [
      await idOf(`/api/v1/sites/${siteId}/competitors`, { name: "Changed" }),
      await idOf(`/api/v1/sites/${siteId}/competitors`, { name: "Doomed" }),
    ];
    // the caller's personal workspace, for the workspace routes
    const mine = await call("/api/v1/workspaces", { headers: jwt() });
    const workspaceId = (mine.body as any).data[0].id as string;
    const member = randomUUID();
    const changing = (kind: string, id: string, body: unknown, other: string) => ({
      [`PATCH /api/v1/${kind}/:id`]: [
        { status: 200, send: () => call(`/api/v1/${kind}/${id}`, { method: "PATCH", headers: key(), body }) },
        { status: 401, send: () => call(`/api/v1/${kind}/${id}`, { method: "PATCH", body }) },
        {
          status: 404,
          send: () => call(`/api/v1/${kind}/${randomUUID()}`, { method: "PATCH", headers: key(), body }),
        },
        { status: 405, method: "PUT", send: () => call(`/api/v1/${kind}/${id}`, { method: "PUT", headers: key() }) },
      ],
      [`DELETE /api/v1/${kind}/:id`]: [
        { status: 200, send: () => call(`/api/v1/${kind}/${other}`, { method: "DELETE", headers: key() }) },
        { status: 404, send: () => call(`/api/v1/${kind}/${other}`, { method: "DELETE", headers: key() }) },
      ],
    });
    return {
      ...changing("sites", siteId, { name: "Labels" }, doomedSiteId),
      ...changing("keywords", renamedKeyword, { keyword: "renamed again" }, doomedKeyword),
      ...changing("citations", renamedTrack, { query_text: "widgets again" }, doomedTrack),
      ...changing("clients", renamedClient, { name: "Renamed again" }, doomedClient),
      "GET /api/v1/clients": [
        { status: 200, send: () => call("/api/v1/clients", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/clients") },
        { status: 405, method: "PUT", send: () => call("/api/v1/clients", { method: "PUT", headers: key() }) },
      ],
      "GET /api/v1/clients/:id": [
        { status: 200, send: () => call(`/api/v1/clients/${renamedClient}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/clients/${renamedClient}`) },
        { status: 404, send: () => call(`/api/v1/clients/${randomUUID()}`, { headers: key() }) },
      ],
      "POST /api/v1/clients": [
        { status: 201, send: () => call("/api/v1/clients", { headers: key(), body: { name: "Labels" } }) },
        { status: 401, send: () => call("/api/v1/clients", { body: { name: "Labels" } }) },
      ],
      "POST /api/v1/scan": [
        {
          status: 202,
          send: () =>
            call("/api/v1/scan", {
              body: { url: site.url("/page"), mode: "quick" },
              headers: { prefer: "respond-async" },
            }),
        },
        { status: 401, send: () => call("/api/v1/scan", { body: { url: site.url("/page") }, headers: bogus }) },
        { status: 405, method: "PUT", send: () => call("/api/v1/scan", { method: "PUT" }) },
      ],
      "GET /api/v1/scan/:id": [
        { status: 200, send: () => call(`/api/v1/scan/${scanId}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/scan/${scanId}`) },
        { status: 404, send: () => call(`/api/v1/scan/${randomUUID()}`, { headers: key() }) },
        { status: 405, method: "POST", send: () => call(`/api/v1/scan/${scanId}`, { method: "POST", headers: key() }) },
      ],
      // a progress stream's 200 is open until the scan ends: the refusals are probed
      "GET /api/v1/scan/:id/events": [
        { status: 401, send: () => call(`/api/v1/scan/${scanId}/events`) },
        { status: 404, send: () => call(`/api/v1/scan/${randomUUID()}/events`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/scan/${scanId}/events`, { method: "POST", headers: key() }),
        },
      ],
      "POST /api/v1/scans/batch": [
        {
          status: 202,
          send: () =>
            call("/api/v1/scans/batch", { headers: key(), body: { urls: [site.url("/page")], mode: "quick" } }),
        },
        { status: 401, send: () => call("/api/v1/scans/batch", { body: { urls: [site.url("/page")] } }) },
        { status: 405, method: "GET", send: () => call("/api/v1/scans/batch", { headers: key() }) },
      ],
      "GET /api/v1/scans": [
        { status: 200, send: () => call("/api/v1/scans", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/scans") },
        { status: 405, method: "POST", send: () => call("/api/v1/scans", { method: "POST", headers: key() }) },
      ],
      "GET /api/v1/keys": [
        { status: 200, send: () => call("/api/v1/keys", { headers: jwt() }) },
        { status: 401, send: () => call("/api/v1/keys") },
        { status: 405, method: "PUT", send: () => call("/api/v1/keys", { method: "PUT", headers: jwt() }) },
      ],
      "POST /api/v1/keys": [
        { status: 201, send: () => call("/api/v1/keys", { headers: jwt(), body: { name: "labels" } }) },
        { status: 401, send: () => call("/api/v1/keys", { headers: key(), body: {} }) },
      ],
      "DELETE /api/v1/keys/:id": [
        { status: 200, send: () => call(`/api/v1/keys/${spareId}`, { method: "DELETE", headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/keys/${spareId}`, { method: "DELETE" }) },
        { status: 404, send: () => call(`/api/v1/keys/${randomUUID()}`, { method: "DELETE", headers: jwt() }) },
        { status: 405, method: "GET", send: () => call(`/api/v1/keys/${spareId}`, { headers: jwt() }) },
      ],
      "POST /api/v1/aeo-2/evaluate": [
        { status: 200, send: () => call("/api/v1/aeo-2/evaluate", { headers: key(), body: {} }) },
        { status: 401, send: () => call("/api/v1/aeo-2/evaluate", { body: {} }) },
        { status: 405, method: "GET", send: () => call("/api/v1/aeo-2/evaluate", { headers: key() }) },
      ],
      "GET /api/v1/sites": [
        { status: 200, send: () => call("/api/v1/sites", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/sites") },
        { status: 405, method: "PUT", send: () => call("/api/v1/sites", { method: "PUT", headers: key() }) },
      ],
      "POST /api/v1/sites": [
        { status: 201, send: () => call("/api/v1/sites", { headers: key(), body: { url: "https://labels.example" } }) },
        { status: 401, send: () => call("/api/v1/sites", { body: { url: "https://labels.example" } }) },
      ],
      "GET /api/v1/keywords": [
        { status: 200, send: () => call("/api/v1/keywords", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/keywords") },
        { status: 404, send: () => call(`/api/v1/keywords?site_id=${randomUUID()}`, { headers: key() }) },
        { status: 405, method: "DELETE", send: () => call("/api/v1/keywords", { method: "DELETE", headers: key() }) },
      ],
      "POST /api/v1/keywords": [
        { status: 201, send: () => call("/api/v1/keywords", { headers: key(), body: keyword }) },
        { status: 401, send: () => call("/api/v1/keywords", { body: keyword }) },
      ],
      "GET /api/v1/citations": [
        { status: 200, send: () => call("/api/v1/citations", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/citations") },
        { status: 404, send: () => call(`/api/v1/citations?site_id=${randomUUID()}`, { headers: key() }) },
        { status: 405, method: "DELETE", send: () => call("/api/v1/citations", { method: "DELETE", headers: key() }) },
      ],
      "POST /api/v1/citations": [
        { status: 201, send: () => call("/api/v1/citations", { headers: key(), body: track }) },
        { status: 401, send: () => call("/api/v1/citations", { body: track }) },
      ],
      "POST /api/v1/fix": [
        {
          status: 200,
          send: () => call("/api/v1/fix", { headers: key(), body: { url: site.url("/page"), issues: ["llms-txt"] } }),
        },
        { status: 401, send: () => call("/api/v1/fix", { body: { url: site.url("/page") } }) },
        { status: 405, method: "GET", send: () => call("/api/v1/fix", { headers: key() }) },
      ],
      "POST /api/v1/generate": [
        {
          status: 200,
          send: () =>
            call("/api/v1/generate", { headers: key(), body: { url: site.url("/page"), content_type: "faq" } }),
        },
        {
          status: 401,
          send: () => call("/api/v1/generate", { body: { url: site.url("/page"), content_type: "faq" } }),
        },
        { status: 405, method: "GET", send: () => call("/api/v1/generate", { headers: key() }) },
      ],
      "GET /api/v1/sites/:id": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}`, { method: "POST", headers: key() }),
        },
      ],
      "PUT /api/v1/sites/:id/credentials": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/sites/${siteId}/credentials`, {
              method: "PUT",
              headers: key(),
              body: { headers: { "X-Staging": "label" } },
            }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/credentials`, { method: "PUT", body: {} }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/credentials`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/credentials": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/credentials`, { headers: key() }) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/credentials`, { headers: key() }) },
      ],
      "DELETE /api/v1/sites/:id/credentials": [
        {
          status: 200,
          send: () => call(`/api/v1/sites/${otherSiteId}/credentials`, { method: "DELETE", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/visibility": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/visibility`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/visibility`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/visibility`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/visibility`, { method: "POST", headers: key() }),
        },
      ],
      "PUT /api/v1/sites/:id/visibility": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/sites/${siteId}/visibility`, { method: "PUT", headers: key(), body: { brand_names: ["L"] } }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/visibility`, { method: "PUT", body: {} }) },
      ],
      "GET /api/v1/sites/:id/prompts": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/prompts`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/prompts`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/prompts`, { headers: key() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/sites/${siteId}/prompts`, { method: "PUT", headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/prompts": [
        {
          status: 201,
          send: () => call(`/api/v1/sites/${siteId}/prompts`, { headers: key(), body: { text: "labels" } }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/prompts`, { body: { text: "labels" } }) },
      ],
      "POST /api/v1/sites/:id/keywords/search-console": [
        {
          status: 400,
          send: () =>
            call(`/api/v1/sites/${siteId}/keywords/search-console`, {
              headers: key(),
              body: {
                access_token: "ya29.label",
                property: "sc-domain:elsewhere.example",
                start_date: "2026-10-01",
                end_date: "2026-10-31",
              },
            }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/keywords/search-console`, { body: {} }) },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/sites/${siteId}/keywords/search-console`, { headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/keywords/import": [
        {
          status: 201,
          send: () =>
            call(`/api/v1/sites/${siteId}/keywords/import`, {
              method: "POST",
              headers: { ...key(), "content-type": "text/csv" },
              rawBody: "Top queries,Clicks,Impressions,CTR,Position\nimported label,3,40,7.5%,4.2\n",
            }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/keywords/import`, { method: "POST" }) },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/sites/${siteId}/keywords/import`, { headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/prompts/import": [
        {
          status: 201,
          send: () =>
            call(`/api/v1/sites/${siteId}/prompts/import`, {
              method: "POST",
              headers: { ...key(), "content-type": "text/csv" },
              rawBody: "text\nimported label\n",
            }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/prompts/import`, { method: "POST" }) },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/sites/${siteId}/prompts/import`, { headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/prompts/:promptId": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/prompts/${promptId}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/prompts/${promptId}`) },
        { status: 404, send: () => call(`/api/v1/sites/${siteId}/prompts/${randomUUID()}`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/prompts/${promptId}`, { method: "POST", headers: key() }),
        },
      ],
      "PATCH /api/v1/sites/:id/prompts/:promptId": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/sites/${siteId}/prompts/${promptId}`, {
              method: "PATCH",
              headers: key(),
              body: { topic: "labels" },
            }),
        },
      ],
      "DELETE /api/v1/sites/:id/prompts/:promptId": [
        {
          status: 200,
          send: () => call(`/api/v1/sites/${siteId}/prompts/${doomedPromptId}`, { method: "DELETE", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/competitors": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/competitors`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/competitors`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/competitors`, { headers: key() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/sites/${siteId}/competitors`, { method: "PUT", headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/competitors": [
        {
          status: 201,
          send: () => call(`/api/v1/sites/${siteId}/competitors`, { headers: key(), body: { name: "Labels" } }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/competitors`, { body: { name: "Labels" } }) },
      ],
      "GET /api/v1/sites/:id/competitors/:competitorId": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/competitors/${competitorId}`, { headers: key() }) },
        {
          status: 404,
          send: () => call(`/api/v1/sites/${siteId}/competitors/${randomUUID()}`, { headers: key() }),
        },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/competitors/${competitorId}`, { method: "POST", headers: key() }),
        },
      ],
      "PATCH /api/v1/sites/:id/competitors/:competitorId": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/sites/${siteId}/competitors/${competitorId}`, {
              method: "PATCH",
              headers: key(),
              body: { aliases: ["L"] },
            }),
        },
      ],
      "DELETE /api/v1/sites/:id/competitors/:competitorId": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/sites/${siteId}/competitors/${doomedCompetitorId}`, { method: "DELETE", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/history": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/history`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/history`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/history`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/history`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/alerts": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/alerts`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/alerts`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/alerts`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/alerts`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/visibility/alerts": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/visibility/alerts`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/visibility/alerts`) },
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/visibility/alerts`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/sites/${siteId}/visibility/alerts`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/sites/:id/schedule": [
        { status: 404, send: () => call(`/api/v1/sites/${randomUUID()}/schedule`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/schedule`) },
        {
          status: 405,
          method: "PATCH",
          send: () => call(`/api/v1/sites/${siteId}/schedule`, { method: "PATCH", headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/schedule": [
        {
          status: 404,
          send: () => call(`/api/v1/sites/${randomUUID()}/schedule`, { headers: key(), body: { frequency: "weekly" } }),
        },
      ],
      "DELETE /api/v1/sites/:id/schedule": [
        {
          status: 404,
          send: () => call(`/api/v1/sites/${randomUUID()}/schedule`, { method: "DELETE", headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/audits": [
        {
          status: 404,
          send: () => call(`/api/v1/sites/${randomUUID()}/audits`, { headers: key(), body: { mode: "quick" } }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/audits`, { body: { mode: "quick" } }) },
      ],
      "GET /api/v1/sites/:id/audits": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/audits`, { headers: key() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/sites/${siteId}/audits`, { method: "PUT", headers: key() }),
        },
      ],
      "POST /api/v1/sites/:id/visibility/runs": [
        // the site tracks prompts, but neither the workspace nor the service has an engine key
        {
          status: 400,
          send: () => call(`/api/v1/sites/${siteId}/visibility/runs`, { method: "POST", headers: key(), body: {} }),
        },
        { status: 401, send: () => call(`/api/v1/sites/${siteId}/visibility/runs`, { method: "POST", body: {} }) },
        {
          status: 404,
          send: () =>
            call(`/api/v1/sites/${randomUUID()}/visibility/runs`, { method: "POST", headers: key(), body: {} }),
        },
      ],
      "GET /api/v1/sites/:id/visibility/runs": [
        { status: 200, send: () => call(`/api/v1/sites/${siteId}/visibility/runs`, { headers: key() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/sites/${siteId}/visibility/runs`, { method: "PUT", headers: key() }),
        },
      ],
      "GET /api/v1/visibility/runs/:id": [
        { status: 404, send: () => call(`/api/v1/visibility/runs/${randomUUID()}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/visibility/runs/${randomUUID()}`) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}`, { method: "POST", headers: key() }),
        },
      ],
      "DELETE /api/v1/visibility/runs/:id": [
        {
          status: 404,
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}`, { method: "DELETE", headers: key() }),
        },
      ],
      "GET /api/v1/visibility/runs/:id/samples": [
        { status: 404, send: () => call(`/api/v1/visibility/runs/${randomUUID()}/samples`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}/samples`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/visibility/runs/:id/cited-pages": [
        { status: 404, send: () => call(`/api/v1/visibility/runs/${randomUUID()}/cited-pages`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/visibility/runs/${randomUUID()}/cited-pages`) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}/cited-pages`, { method: "PUT", headers: key() }),
        },
      ],
      "POST /api/v1/visibility/runs/:id/cited-pages": [
        {
          status: 404,
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}/cited-pages`, { method: "POST", headers: key() }),
        },
        {
          status: 401,
          send: () => call(`/api/v1/visibility/runs/${randomUUID()}/cited-pages`, { method: "POST" }),
        },
      ],
      "GET /api/v1/audits/:id": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/audits/${randomUUID()}`) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/audits/${randomUUID()}`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/audits/:id/events": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}/events`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/audits/${randomUUID()}/events`) },
        {
          status: 405,
          method: "DELETE",
          send: () => call(`/api/v1/audits/${randomUUID()}/events`, { method: "DELETE", headers: key() }),
        },
      ],
      "DELETE /api/v1/audits/:id": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}`, { method: "DELETE", headers: key() }) },
      ],
      "GET /api/v1/audits/:id/pages": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}/pages`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/audits/${randomUUID()}/pages`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/audits/:id/issues": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}/issues`, { headers: key() }) },
        { status: 401, send: () => call(`/api/v1/audits/${randomUUID()}/issues`) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/audits/${randomUUID()}/issues`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/audits/:id/issues/:check/pages": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}/issues/title/pages`, { headers: key() }) },
        {
          status: 405,
          method: "DELETE",
          send: () => call(`/api/v1/audits/${randomUUID()}/issues/title/pages`, { method: "DELETE", headers: key() }),
        },
      ],
      "GET /api/v1/audits/:id/report": [
        { status: 404, send: () => call(`/api/v1/audits/${randomUUID()}/report`, { headers: key() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/audits/${randomUUID()}/report`, { method: "POST", headers: key() }),
        },
      ],
      "GET /api/v1/branding": [
        { status: 200, send: () => call("/api/v1/branding", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/branding") },
        { status: 405, method: "POST", send: () => call("/api/v1/branding", { method: "POST", headers: key() }) },
      ],
      "PUT /api/v1/branding": [
        {
          status: 200,
          send: () =>
            call("/api/v1/branding", { method: "PUT", headers: key(), body: { agency_name: "Label agency" } }),
        },
        { status: 401, send: () => call("/api/v1/branding", { method: "PUT", body: { agency_name: "x" } }) },
      ],
      "GET /api/v1/account": [
        { status: 200, send: () => call("/api/v1/account", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/account") },
        { status: 405, method: "POST", send: () => call("/api/v1/account", { method: "POST", headers: key() }) },
      ],
      "GET /api/v1/usage": [
        { status: 200, send: () => call("/api/v1/usage", { headers: key() }) },
        { status: 400, send: () => call("/api/v1/usage?client_id=x", { headers: key() }) },
        { status: 401, send: () => call("/api/v1/usage") },
        { status: 404, send: () => call(`/api/v1/usage?client_id=${randomUUID()}`, { headers: key() }) },
        { status: 405, method: "POST", send: () => call("/api/v1/usage", { method: "POST", headers: key() }) },
      ],
      "GET /api/v1/operations": [
        { status: 401, send: () => call("/api/v1/operations") },
        { status: 405, method: "POST", send: () => call("/api/v1/operations", { method: "POST", headers: jwt() }) },
      ],
      "POST /auth/sign-up": [
        {
          status: 403,
          send: () => call("/auth/sign-up", { body: { email: "x@example.com", password: "a".repeat(16) } }),
        },
        { status: 405, method: "GET", send: () => call("/auth/sign-up") },
      ],
      "POST /auth/sign-in": [
        {
          status: 401,
          send: () => call("/auth/sign-in", { body: { email: "x@example.com", password: "a".repeat(16) } }),
        },
        { status: 405, method: "GET", send: () => call("/auth/sign-in") },
      ],
      "POST /auth/sign-out": [
        { status: 204, send: () => call("/auth/sign-out", { method: "POST" }) },
        { status: 405, method: "GET", send: () => call("/auth/sign-out") },
      ],
      "GET /auth/session": [
        { status: 401, send: () => call("/auth/session") },
        { status: 405, method: "POST", send: () => call("/auth/session", { method: "POST" }) },
      ],
      "POST /auth/token": [
        { status: 401, send: () => call("/auth/token", { method: "POST" }) },
        { status: 405, method: "GET", send: () => call("/auth/token") },
      ],
      "POST /auth/password": [
        { status: 401, send: () => call("/auth/password", { body: { currentPassword: "x", newPassword: "y" } }) },
        { status: 405, method: "GET", send: () => call("/auth/password") },
      ],
      "POST /auth/password-reset": [
        { status: 400, send: () => call("/auth/password-reset", { body: { token: "x", password: "a".repeat(16) } }) },
        { status: 405, method: "GET", send: () => call("/auth/password-reset") },
      ],
      "GET /auth/invitations/:token": [
        { status: 404, send: () => call(`/auth/invitations/${"a".repeat(43)}`) },
        { status: 405, method: "POST", send: () => call(`/auth/invitations/${"a".repeat(43)}`, { method: "POST" }) },
      ],
      "GET /api/v1/workspaces": [
        { status: 200, send: () => call("/api/v1/workspaces", { headers: jwt() }) },
        { status: 401, send: () => call("/api/v1/workspaces") },
        { status: 405, method: "PUT", send: () => call("/api/v1/workspaces", { method: "PUT", headers: jwt() }) },
      ],
      "POST /api/v1/workspaces/invitations/accept": [
        { status: 401, send: () => call("/api/v1/workspaces/invitations/accept", { body: { token: "x" } }) },
        {
          status: 405,
          method: "GET",
          send: () => call("/api/v1/workspaces/invitations/accept", { headers: jwt() }),
        },
      ],
      "GET /api/v1/workspaces/:id": [
        { status: 200, send: () => call(`/api/v1/workspaces/${workspaceId}`, { headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}`) },
        { status: 404, send: () => call(`/api/v1/workspaces/${randomUUID()}`, { headers: jwt() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/workspaces/${workspaceId}`, { method: "PUT", headers: jwt() }),
        },
      ],
      "PATCH /api/v1/workspaces/:id": [
        {
          status: 200,
          send: () =>
            call(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", headers: jwt(), body: { name: "Labels" } }),
        },
        {
          status: 401,
          send: () => call(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", body: { name: "Labels" } }),
        },
      ],
      "POST /api/v1/workspaces/:id/switch": [
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/switch`, { method: "POST" }) },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/workspaces/${workspaceId}/switch`, { headers: jwt() }),
        },
      ],
      "GET /api/v1/workspaces/:id/audit-log": [
        { status: 200, send: () => call(`/api/v1/workspaces/${workspaceId}/audit-log`, { headers: jwt() }) },
        { status: 400, send: () => call(`/api/v1/workspaces/${workspaceId}/audit-log?limit=0`, { headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/audit-log`) },
        { status: 404, send: () => call(`/api/v1/workspaces/${randomUUID()}/audit-log`, { headers: jwt() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/workspaces/${workspaceId}/audit-log`, { method: "POST", headers: jwt() }),
        },
      ],
      "GET /api/v1/workspaces/:id/members": [
        { status: 200, send: () => call(`/api/v1/workspaces/${workspaceId}/members`, { headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/members`) },
        { status: 404, send: () => call(`/api/v1/workspaces/${randomUUID()}/members`, { headers: jwt() }) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/workspaces/${workspaceId}/members`, { method: "PUT", headers: jwt() }),
        },
      ],
      "PATCH /api/v1/workspaces/:id/members/:userId": [
        {
          status: 401,
          send: () =>
            call(`/api/v1/workspaces/${workspaceId}/members/${member}`, { method: "PATCH", body: { role: "viewer" } }),
        },
      ],
      "DELETE /api/v1/workspaces/:id/members/:userId": [
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/members/${member}`, { method: "DELETE" }) },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/workspaces/${workspaceId}/members/${member}`, { headers: jwt() }),
        },
      ],
      "GET /api/v1/workspaces/:id/invitations": [
        { status: 200, send: () => call(`/api/v1/workspaces/${workspaceId}/invitations`, { headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/invitations`) },
        {
          status: 405,
          method: "PUT",
          send: () => call(`/api/v1/workspaces/${workspaceId}/invitations`, { method: "PUT", headers: jwt() }),
        },
      ],
      "POST /api/v1/workspaces/:id/invitations": [
        {
          status: 401,
          send: () =>
            call(`/api/v1/workspaces/${workspaceId}/invitations`, {
              body: { email: "invited@labels.example", role: "member" },
            }),
        },
      ],
      "DELETE /api/v1/workspaces/:id/invitations/:invitationId": [
        {
          status: 401,
          send: () => call(`/api/v1/workspaces/${workspaceId}/invitations/${randomUUID()}`, { method: "DELETE" }),
        },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/workspaces/${workspaceId}/invitations/${randomUUID()}`, { headers: jwt() }),
        },
      ],
      "GET /logos/:token": [
        { status: 404, send: () => call(`/logos/${"a".repeat(32)}`) },
        { status: 405, method: "POST", send: () => call(`/logos/${"a".repeat(32)}`, { method: "POST" }) },
      ],
      "GET /api/v1/workspaces/:id/engine-keys": [
        { status: 200, send: () => call(`/api/v1/workspaces/${workspaceId}/engine-keys`, { headers: jwt() }) },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/engine-keys`) },
        { status: 404, send: () => call(`/api/v1/workspaces/${randomUUID()}/engine-keys`, { headers: jwt() }) },
        {
          status: 405,
          method: "POST",
          send: () => call(`/api/v1/workspaces/${workspaceId}/engine-keys`, { method: "POST", headers: jwt() }),
        },
      ],
      "PUT /api/v1/workspaces/:id/engine-keys/:engine": [
        {
          status: 201,
          send: () =>
            call(`/api/v1/workspaces/${workspaceId}/engine-keys/gemini`, {
              method: "PUT",
              headers: jwt(),
              body: { api_key: "labels-engine-key-0123456789" },
            }),
        },
        { status: 401, send: () => call(`/api/v1/workspaces/${workspaceId}/engine-keys/gemini`, { method: "PUT" }) },
      ],
      "DELETE /api/v1/workspaces/:id/engine-keys/:engine": [
        {
          status: 404,
          send: () =>
            call(`/api/v1/workspaces/${workspaceId}/engine-keys/perplexity`, { method: "DELETE", headers: jwt() }),
        },
        {
          status: 405,
          method: "GET",
          send: () => call(`/api/v1/workspaces/${workspaceId}/engine-keys/perplexity`, { headers: jwt() }),
        },
      ],
      "GET /healthz": [
        { status: 200, send: () => call("/healthz") },
        { status: 405, method: "POST", send: () => call("/healthz", { method: "POST" }) },
      ],
      "GET /readyz": [
        { status: 200, send: () => call("/readyz") },
        { status: 405, method: "DELETE", send: () => call("/readyz", { method: "DELETE" }) },
      ],
      "GET /metrics": [
        { status: 401, send: () => call("/metrics") },
        { status: 405, method: "POST", send: () => call("/metrics", { method: "POST" }) },
      ],
      "GET /openapi.json": [
        { status: 200, send: () => call("/openapi.json") },
        { status: 405, method: "POST", send: () => call("/openapi.json", { method: "POST" }) },
      ],
      "GET /docs": [
        { status: 200, send: () => call("/docs") },
        { status: 405, method: "DELETE", send: () => call("/docs", { method: "DELETE" }) },
      ],
      "GET /docs/assets/:file": [
        { status: 200, send: () => call("/docs/assets/start.js") },
        { status: 404, send: () => call("/docs/assets/swagger-initializer.js") },
        { status: 405, method: "POST", send: () => call("/docs/assets/start.js", { method: "POST" }) },
      ],
      "GET /favicon.ico": [
        { status: 200, send: () => call("/favicon.ico") },
        { status: 405, method: "POST", send: () => call("/favicon.ico", { method: "POST" }) },
      ],
      "POST /mcp": [
        {
          status: 200,
          send: () =>
            call("/mcp", { headers: { ...key(), accept: "application/json, text/event-stream" }, body: rpcBody }),
        },
        { status: 401, send: () => call("/mcp", { body: rpcBody }) },
        { status: 405, method: "GET", send: () => call("/mcp", { headers: key() }) },
      ],
      "GET /mcp/sse": [{ status: 401, send: () => call("/mcp/sse") }],
      "HEAD /mcp/sse": [{ status: 200, send: () => call("/mcp/sse", { method: "HEAD", headers: key() }) }],
      "POST /mcp/sse": [
        { status: 200, send: () => call("/mcp/sse", { headers: key(), body: rpcBody }) },
        { status: 401, send: () => call("/mcp/sse", { body: rpcBody }) },
        { status: 404, send: () => call(`/mcp/sse?sessionId=${randomUUID()}`, { headers: key(), body: rpcBody }) },
        { status: 405, method: "DELETE", send: () => call("/mcp/sse", { method: "DELETE", headers: key() }) },
      ],
    };
  };

  it("labels a success, a 401, a 404 and a 405 of every route with its declared path", async () => {
    const probes = await probesOf();
    // every mounted route has its probes, and every probed route is mounted
    expect(Object.keys(probes).sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    // each path is probed with a method it does not serve
    const paths = [...new Set(routes.map((route) => route.path))];
    for (const path of paths) {
      const probed = routes
        .filter((route) => route.path === path)
        .flatMap((r) => probes[`${r.method} ${r.path}`] ?? []);
      expect([path, probed.some((probe) => probe.status === 405)]).toEqual([path, true]);
    }

    // the setup's own requests are counted too: compare what the probes add
    const scrape = async () =>
      parseMetrics(
        await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text(),
      )
        .filter((sample) => sample.name === "http_request_duration_seconds_count")
        .filter((sample) => !(sample.labels.route === "/metrics" && sample.labels.status === "200"));
    const countsOf = (samples: Awaited<ReturnType<typeof scrape>>) =>
      new Map(samples.map((s) => [`${s.labels.method} ${s.labels.route} ${s.labels.status}`, s.value]));
    const before = countsOf(await scrape());

    const expected = new Map<string, number>();
    for (const route of routes) {
      for (const probe of probes[`${route.method} ${route.path}`] ?? []) {
        const response = await probe.send();
        expect([route.method, route.path, probe.method, response.status]).toEqual([
          route.method,
          route.path,
          probe.method,
          probe.status,
        ]);
        const label = `${probe.method ?? route.method} ${route.path} ${probe.status}`;
        expected.set(label, (expected.get(label) ?? 0) + 1);
      }
    }
    // the SSE stream: answered 200, then closed by the client (a 499 in the metrics)
    const stream = await fetch(`${base}/mcp/sse`, { headers: key() });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    expected.set("GET /mcp/sse 499", 1);

    const deltaNow = async () => {
      const delta = new Map<string, number>();
      for (const [label, value] of countsOf(await scrape())) {
        const more = value - (before.get(label) ?? 0);
        if (more > 0) delta.set(label, more);
      }
      return delta;
    };
    // a request is counted when its response has closed, a moment after the client has it
    await eventually(
      async () => {
        const delta = await deltaNow();
        return [...expected].every(([label, count]) => delta.get(label) === count);
      },
      { what: "every probe counted" },
    ).catch(() => undefined);
    const delta = await deltaNow();
    // nothing else was counted: no doubled mount path, no unmatched label for a declared route
    expect(Object.fromEntries([...delta].sort())).toEqual(Object.fromEntries([...expected].sort()));
    const declared = new Set(routes.map((route) => route.path));
    const labels = [...countsOf(await scrape()).keys()].map((label) => label.split(" ")[1] ?? "");
    expect(labels.filter((route) => !declared.has(route) && route !== "unmatched")).toEqual([]);
  });

  it("labels a path no route declares `unmatched`, with or without a key", async () => {
    expect((await call("/api/v1/nothing-here")).status).toBe(401);
    expect((await call("/nothing-here")).status).toBe(404);
    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).not.toContain("nothing-here");
    expect(metrics).toContain('route="unmatched",status="401"');
    expect(metrics).toContain('route="unmatched",status="404"');
  });
});
