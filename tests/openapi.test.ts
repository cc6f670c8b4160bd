import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describeApi } from "@scan/gateway";
import { resolveChromiumPath } from "@scan/scanner";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { chromium } from "playwright-core";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, invitationToken, PASSWORD } from "./support/sessions";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * The API reference: GET /openapi.json covers every route the gateway really mounts (read from
 * its router) and nothing it does not, is a valid OpenAPI 3.1 document, and describes what the
 * gateway really answers; GET /docs serves a working reference page from this server alone.
 */

// a quick scan through the worker and a browser rendering the reference; the machine may be busy
jest.setTimeout(300_000);

/**
 * Mounted routes the reference leaves out, each with its reason. Matched as path prefixes.
 * - /admin/queues: bull-board's dashboard and its own JSON API, an operator's tool rather than
 *   this API, mounted only when ADMIN_TOKEN is set (it is not here).
 * - /app: the web dashboard's pages and files (docs/dashboard.md), not API operations.
 */
const UNDOCUMENTED = ["/admin/queues", "/app"];

/**
 * Documented operations whose routes are not mounted yet: services/gateway/src/docs/openapi.ts
 * keeps them in its NOT_YET_MOUNTED, and they are listed here too. Remove each entry once its
 * route is mounted; the last test below fails while a mounted route is still listed here.
 */
const NOT_YET_MOUNTED: string[] = [];

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>The API reference: a page whose scan is checked against the document</title>
<meta name="description" content="Scanned by the reference test: its result, stored scan and callback must match the OpenAPI document.">
</head><body><main><h1>The API reference</h1><p>Every answer matches the document.</p></main></body></html>`;

const WEBHOOK_SECRET = "whsec_0123456789abcdef0123456789abcdef";

type Json = Record<string, any>;
type Operation = { responses: Record<string, Json>; requestBody?: Json; callbacks?: Json };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: Json };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `/api/v1/scan/:id` as OpenAPI writes it: `/api/v1/scan/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

const operationsOf = (document: Document): string[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe("the API reference", () => {
  let site: FixtureServer;
  let receiver: FixtureServer;
  let callbacks: Array<{ headers: IncomingMessage["headers"]; body: unknown }>;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let routes: RouteInfo[];
  let document: Document;
  let account: TestAccount;

  beforeAll(async () => {
    callbacks = [];
    site = await startFixtureServer({ "/page": html(PAGE), "/robots.txt": text("User-agent: *\nAllow: /\n") });
    receiver = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        callbacks.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        res.writeHead(204).end();
      });
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, receiver.hostPort],
      env: { WEBHOOK_SECRET, RATE_LIMIT_ANONYMOUS: "1000", RATE_LIMIT_AGENCY: "100000", SIGN_UP: "open" },
    });
    base = stack.gateway.url;
    routes = gatewayRoutes(stack.gateway.server);
    account = await createAccount(stack.db, "agency");
    const response = await api(base, "/openapi.json");
    expect(response.status).toBe(200);
    document = response.body as Document;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await receiver?.close();
    await database?.drop();
    await stopContainers();
  });

  describe("covers the mounted routes", () => {
    const mounted = () =>
      routes
        .filter((route) => route.method !== "HEAD" && route.method !== "OPTIONS")
        .filter((route) => !UNDOCUMENTED.some((prefix) => route.path.startsWith(prefix)))
        .map((route) => `${route.method} ${openApiPath(route.path)}`);

    /** Operations documented only as the 405 a path answers (GET and DELETE /mcp). */
    const refusals = () =>
      operationsOf(document).filter((operation) => {
        const [method = "", path = ""] = operation.split(" ");
        return Object.keys(document.paths[path]?.[method.toLowerCase()]?.responses ?? {}).join() === "405";
      });

    it("finds the routes", () => {
      expect(mounted().length).toBeGreaterThanOrEqual(15);
      expect(mounted()).toEqual(expect.arrayContaining(["GET /api/v1/scan/{id}", "GET /openapi.json", "GET /docs"]));
    });

    it("documents every mounted route under /api/v1 with a summary, an id, a tag, a success and an error", () => {
      const api = mounted().filter((operation) => operation.split(" ")[1]?.startsWith("/api/v1/"));
      expect(api.length).toBeGreaterThanOrEqual(40);
      const lacking = api.filter((operation) => {
        const [method = "", path = ""] = operation.split(" ");
        const documented = document.paths[path]?.[method.toLowerCase()] as Json | undefined;
        const statuses = Object.keys(documented?.responses ?? {});
        return !(
          typeof documented?.summary === "string" &&
          typeof documented.operationId === "string" &&
          documented.tags?.length === 1 &&
          statuses.some((status) => /^2\d\d$/.test(status)) &&
          statuses.some((status) => /^[45]\d\d$/.test(status))
        );
      });
      expect(lacking).toEqual([]);
    });

    it("is the document the reference is generated from without a server (pnpm client:generate)", () => {
      expect(document).toEqual(JSON.parse(JSON.stringify(describeApi())));
    });

    it("documents no operation that is not mounted", () => {
      const served = new Set(mounted());
      const missing = operationsOf(document).filter(
        (operation) =>
          !served.has(operation) && !NOT_YET_MOUNTED.includes(operation) && !refusals().includes(operation),
      );
      expect(missing).toEqual([]);
      // a 405-only operation still sits on a served path
      const servedPaths = new Set(mounted().map((operation) => operation.split(" ")[1]));
      const pending = new Set(NOT_YET_MOUNTED.map((operation) => operation.split(" ")[1]));
      for (const operation of refusals()) {
        const path = operation.split(" ")[1] ?? "";
        expect(servedPaths.has(path) || pending.has(path)).toBe(true);
      }
    });

    it("lists as not yet mounted only documented routes that are really not mounted", () => {
      const documented = new Set(operationsOf(document));
      const served = new Set(mounted());
      expect(NOT_YET_MOUNTED.filter((operation) => !documented.has(operation))).toEqual([]);
      // once one of these is merged, remove it from NOT_YET_MOUNTED
      expect(NOT_YET_MOUNTED.filter((operation) => served.has(operation))).toEqual([]);
    });
  });

  describe("is valid", () => {
    it("against the OpenAPI 3.1 schema", async () => {
      const validator = new Validator();
      const result = await validator.validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    });

    it("with every schema a valid JSON Schema (2020-12, strict)", () => {
      const ajv = strictAjv();
      for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Json>)) {
        expect([name, ajv.validateSchema(schema), ajv.errors ?? null]).toEqual([name, true, null]);
      }
      // compiling resolves every reference the operations make
      const compiler = responseCompiler(document);
      for (const operation of operationsOf(document)) {
        const [method = "", path = ""] = operation.split(" ");
        for (const status of Object.keys(document.paths[path]?.[method.toLowerCase()]?.responses ?? {})) {
          expect(() => compiler.schemasOf(method, path, status)).not.toThrow();
        }
      }
    });

    it("with the fix operation's generated files: the ai-catalog.json, the WebMCP form annotations and their re-check", () => {
      const fix = document.paths["/api/v1/fix"]?.post as Json;
      expect(fix.summary).toMatch(/ai-catalog\.json and WebMCP form annotations/);
      const answer = JSON.stringify(fix.responses);
      for (const field of ["aiCatalog", "webmcpForms", "siteChecks", "toolparamdescription", "recheck"])
        expect([field, answer.includes(`"${field}"`)]).toEqual([field, true]);
    });

    it("with unique operation ids, and every operation tagged and summarised", () => {
      const operations = Object.values(document.paths).flatMap((item) =>
        Object.entries(item)
          .filter(([key]) => METHODS.includes(key))
          .map(([, operation]) => operation as Json),
      );
      const ids = operations.map((operation) => operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const operation of operations) {
        expect(operation.tags?.length).toBe(1);
        expect(typeof operation.summary).toBe("string");
      }
    });

    it("is served with the API's error envelope around it", async () => {
      const wrongMethod = await api(base, "/openapi.json", {
        method: "POST",
        body: {},
        headers: { "x-response-form": "B" },
      });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body).toEqual({ error: expect.any(String), code: "METHOD_NOT_ALLOWED" });
      const missing = await api(base, "/docs/assets/swagger-initializer.js");
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ ok: false, error: expect.objectContaining({ code: "not_found" }) });
    });
  });

  describe("describes what the gateway answers", () => {
    let compiler: ReturnType<typeof responseCompiler>;
    const key = () => ({ "x-api-key": account.key });
    const jwt = () => ({ authorization: `Bearer ${account.token}` });

    beforeAll(() => {
      compiler = responseCompiler(document);
    });

    /** The answer's status is documented for the operation, with its headers and a body that fits the schema. */
    const expectDocumented = (method: string, path: string, response: ApiResponse) => {
      const problems = compiler.check(method, path, response);
      expect([`${method} ${path} → ${response.status}`, problems]).toEqual([
        `${method} ${path} → ${response.status}`,
        [],
      ]);
    };

    it.each(["A", "B"])("scans, stored scans and the callback (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const done = await api(base, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" }, headers });
      expect(done.status).toBe(200);
      expectDocumented("POST", "/api/v1/scan", done);

      const accepted = await api(base, "/api/v1/scan", {
        body: { url: site.url("/page"), mode: "quick", callback_url: receiver.url(`/hook-${form}`) },
        headers: { ...headers, prefer: "respond-async" },
      });
      expect(accepted.status).toBe(202);
      expectDocumented("POST", "/api/v1/scan", accepted);
      const id = (accepted.body as Json).data.id as string;

      const stored = await api(base, `/api/v1/scan/${(done.body as Json).data.id}`, { headers });
      expect(stored.status).toBe(200);
      expectDocumented("GET", "/api/v1/scan/{id}", stored);
      const unchanged = await api(base, `/api/v1/scan/${(done.body as Json).data.id}`, {
        headers: { ...headers, "if-none-match": stored.headers.get("etag") ?? "" },
      });
      expect(unchanged.status).toBe(304);
      expectDocumented("GET", "/api/v1/scan/{id}", unchanged);

      // the callback, as the receiver got it: the operation's callback describes it
      const callback = await until(() => callbacks.find((c) => (c.body as Json).scan_id === id));
      expect(compiler.checkCallback("POST", "/api/v1/scan", callback)).toEqual([]);
      const withCallback = await until(async () => {
        const answer = await api(base, `/api/v1/scan/${id}`, { headers });
        return (answer.body as Json).data?.callback?.state === "delivered" ? answer : undefined;
      });
      expectDocumented("GET", "/api/v1/scan/{id}", withCallback);

      const anonymous = await api(base, "/api/v1/scan", {
        body: { url: site.url("/page"), mode: "quick" },
        headers: { "x-response-form": form, prefer: "respond-async" },
      });
      expectDocumented("POST", "/api/v1/scan", anonymous);
    });

    it.each(["A", "B"])("exports of a stored scan and their refusals (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const done = await api(base, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" }, headers });
      expect(done.status).toBe(200);
      const path = `/api/v1/scan/${(done.body as Json).data.id}`;
      for (const accept of ["text/csv", "application/sarif+json", "application/xml", "application/junit+xml"]) {
        const exported = await api(base, path, { headers: { ...headers, accept } });
        expect([accept, exported.status]).toEqual([accept, 200]);
        expectDocumented("GET", "/api/v1/scan/{id}", exported);
      }
      for (const format of ["csv", "sarif", "junit", "json", "pdf"]) {
        expectDocumented("GET", "/api/v1/scan/{id}", await api(base, `${path}?format=${format}`, { headers }));
      }
      const refused = await api(base, path, { headers: { ...headers, accept: "text/html" } });
      expect(refused.status).toBe(406);
      expectDocumented("GET", "/api/v1/scan/{id}", refused);
      const badFormat = await api(base, `${path}?format=html`, { headers });
      expect(badFormat.status).toBe(400);
      expectDocumented("GET", "/api/v1/scan/{id}", badFormat);
      const queued = await stack.db.scan.create({
        data: { url: site.url("/page"), mode: "quick", userId: account.user.id },
      });
      const unfinished = await api(base, `/api/v1/scan/${queued.id}?format=sarif`, { headers });
      expect(unfinished.status).toBe(409);
      expectDocumented("GET", "/api/v1/scan/{id}", unfinished);
      await stack.db.scan.delete({ where: { id: queued.id } });
    });

    it.each(["A", "B"])("bulk scans and the scan list (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const batch = await api(base, "/api/v1/scans/batch", {
        headers,
        body: { urls: [site.url("/page"), site.url("/page?two")], mode: "quick" },
      });
      expect(batch.status).toBe(202);
      expectDocumented("POST", "/api/v1/scans/batch", batch);
      const refused = await api(base, "/api/v1/scans/batch", { headers, body: { urls: [] } });
      expect(refused.status).toBe(400);
      expectDocumented("POST", "/api/v1/scans/batch", refused);
      const list = await api(base, "/api/v1/scans?limit=2", { headers });
      expect(list.status).toBe(200);
      expectDocumented("GET", "/api/v1/scans", list);
      const filtered = await api(base, "/api/v1/scans?status=completed", { headers });
      expectDocumented("GET", "/api/v1/scans", filtered);
    });

    it.each(["A", "B"])("the evaluator (Form %s)", async (form) => {
      const response = await api(base, "/api/v1/aeo-2/evaluate", {
        headers: { ...key(), "x-response-form": form },
        body: {
          citations: [{ brandName: "Acme", targetUrl: "https://acme.com/", responseText: "Acme", position: 2 }],
          evidence: [{ sourceType: "primary", url: "https://acme.com/study", supportsClaim: true }],
          revenue: {
            monthlyAiImpressions: 1000,
            conversionRate: 0.1,
            revenuePerConversion: 20,
            grossMargin: 0.5,
            attributionCoverage: 1,
          },
        },
      });
      expect(response.status).toBe(200);
      expectDocumented("POST", "/api/v1/aeo-2/evaluate", response);
    });

    it.each(["A", "B"])("sites, keywords and citation tracks (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const created = await api(base, "/api/v1/sites", { headers, body: { url: `https://${form}.example.com/x` } });
      expect(created.status).toBe(201);
      expectDocumented("POST", "/api/v1/sites", created);
      const again = await api(base, "/api/v1/sites", { headers, body: { url: `https://${form}.example.com/y` } });
      expect(again.status).toBe(200);
      expectDocumented("POST", "/api/v1/sites", again);
      // a retry with an Idempotency-Key, the same key with another body, and a malformed key
      const keyed = { ...headers, "idempotency-key": `reference-${form}` };
      const keyedFirst = await api(base, "/api/v1/sites", {
        headers: keyed,
        body: { url: `https://${form}.keyed.example` },
      });
      const replayed = await api(base, "/api/v1/sites", {
        headers: keyed,
        body: { url: `https://${form}.keyed.example` },
      });
      expect([keyedFirst.status, replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([
        201,
        201,
        "true",
      ]);
      expectDocumented("POST", "/api/v1/sites", replayed);
      const reused = await api(base, "/api/v1/sites", {
        headers: keyed,
        body: { url: `https://${form}.other.example` },
      });
      expect(reused.status).toBe(422);
      expectDocumented("POST", "/api/v1/sites", reused);
      const malformed = await api(base, "/api/v1/sites", {
        headers: { ...headers, "idempotency-key": "x".repeat(300) },
        body: { url: `https://${form}.keyed.example` },
      });
      expect(malformed.status).toBe(400);
      expectDocumented("POST", "/api/v1/sites", malformed);
      const siteId = (created.body as Json).data.id as string;

      const keyword = { site_id: siteId, keyword: "best crm", position: 4, volume: 1900, difficulty: 42 };
      const first = await api(base, "/api/v1/keywords", { headers, body: keyword });
      expectDocumented("POST", "/api/v1/keywords", first);
      const moved = await api(base, "/api/v1/keywords", { headers, body: { ...keyword, position: 3 } });
      expectDocumented("POST", "/api/v1/keywords", moved);
      const track = await api(base, "/api/v1/citations", {
        headers,
        body: {
          site_id: siteId,
          platform: "claude",
          query_text: "best crm",
          cited: true,
          citation_url: "https://a.example.com/",
        },
      });
      expect(track.status).toBe(201);
      expectDocumented("POST", "/api/v1/citations", track);

      for (const path of ["/api/v1/sites", "/api/v1/keywords", "/api/v1/citations"]) {
        const list = await api(base, `${path}?limit=5`, { headers });
        expect(list.status).toBe(200);
        expectDocumented("GET", path, list);
        const unchanged = await api(base, `${path}?limit=5`, {
          headers: { ...headers, "if-none-match": list.headers.get("etag") ?? "" },
        });
        expect(unchanged.status).toBe(304);
        expectDocumented("GET", path, unchanged);
      }
      const unknownSite = await api(base, `/api/v1/keywords?site_id=${randomUUID()}`, { headers });
      expect(unknownSite.status).toBe(404);
      expectDocumented("GET", "/api/v1/keywords", unknownSite);
    });

    it.each(["A", "B"])("audits (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const created = await api(base, "/api/v1/sites", { headers, body: { url: site.url("/page") } });
      const siteId = (created.body as Json).data.id as string;
      const started = await api(base, `/api/v1/sites/${siteId}/audits`, {
        headers,
        body: { mode: "quick", max_pages: 3 },
      });
      expect(started.status).toBe(202);
      expectDocumented("POST", "/api/v1/sites/{id}/audits", started);
      const id = (started.body as Json).data.id as string;
      const done = await until(async () => {
        const answer = await api(base, `/api/v1/audits/${id}`, { headers });
        return (answer.body as Json).data?.status === "completed" ? answer : undefined;
      });
      expectDocumented("GET", "/api/v1/audits/{id}", done);
      for (const path of [`/api/v1/audits/${id}/pages`, `/api/v1/audits/${id}/pages?format=csv`]) {
        const answer = await api(base, path, { headers });
        expect(answer.status).toBe(200);
        expectDocumented("GET", "/api/v1/audits/{id}/pages", answer);
      }
      for (const format of ["", "?format=csv", "?format=sarif", "?format=junit"]) {
        const answer = await api(base, `/api/v1/audits/${id}/report${format}`, { headers });
        expect([format, answer.status]).toEqual([format, 200]);
        expectDocumented("GET", "/api/v1/audits/{id}/report", answer);
      }
      for (const accept of ["application/sarif+json", "application/junit+xml", "text/html"]) {
        const answer = await api(base, `/api/v1/audits/${id}/report`, { headers: { ...headers, accept } });
        expect([accept, answer.status]).toEqual([accept, accept === "text/html" ? 406 : 200]);
        expectDocumented("GET", "/api/v1/audits/{id}/report", answer);
      }
      for (const query of ["", "?severity=critical&state=new", "?format=csv", "?state=gone"]) {
        const answer = await api(base, `/api/v1/audits/${id}/issues${query}`, { headers });
        expect([query, answer.status]).toEqual([query, query === "?state=gone" ? 400 : 200]);
        expectDocumented("GET", "/api/v1/audits/{id}/issues", answer);
      }
      const issues = (await api(base, `/api/v1/audits/${id}/issues`, { headers })).body as Json;
      const check = (issues.data.issues[0]?.check as string | undefined) ?? "title";
      for (const [path, status] of [
        [`/api/v1/audits/${id}/issues/${check}/pages?q=/`, issues.data.issues.length > 0 ? 200 : 404],
        [`/api/v1/audits/${id}/issues/not-a-check/pages`, 404],
        [`/api/v1/audits/${randomUUID()}/issues/${check}/pages`, 404],
      ] as const) {
        const answer = await api(base, path, { headers });
        expect([path, answer.status]).toEqual([path, status]);
        expectDocumented("GET", "/api/v1/audits/{id}/issues/{check}/pages", answer);
      }
      const list = await api(base, `/api/v1/sites/${siteId}/audits`, { headers });
      expectDocumented("GET", "/api/v1/sites/{id}/audits", list);
      const history = await api(base, `/api/v1/sites/${siteId}/history`, { headers });
      expect(history.status).toBe(200);
      expect((history.body as Json).data.length).toBeGreaterThanOrEqual(2);
      expectDocumented("GET", "/api/v1/sites/{id}/history", history);
      const alerts = await api(base, `/api/v1/sites/${siteId}/alerts`, { headers });
      expect(alerts.status).toBe(200);
      expectDocumented("GET", "/api/v1/sites/{id}/alerts", alerts);
      const alertsUnchanged = await api(base, `/api/v1/sites/${siteId}/alerts`, {
        headers: { ...headers, "if-none-match": alerts.headers.get("etag") ?? "" },
      });
      expect(alertsUnchanged.status).toBe(304);
      expectDocumented("GET", "/api/v1/sites/{id}/alerts", alertsUnchanged);
      const noAlerts = await api(base, `/api/v1/sites/${randomUUID()}/alerts`, { headers });
      expect(noAlerts.status).toBe(404);
      expectDocumented("GET", "/api/v1/sites/{id}/alerts", noAlerts);
      const cancelled = await api(base, `/api/v1/audits/${id}`, { method: "DELETE", headers });
      expectDocumented("DELETE", "/api/v1/audits/{id}", cancelled);
      const missing = await api(base, `/api/v1/audits/${randomUUID()}`, { headers });
      expect(missing.status).toBe(404);
      expectDocumented("GET", "/api/v1/audits/{id}", missing);
      const refused = await api(base, `/api/v1/sites/${siteId}/audits`, { headers, body: { mode: "deep" } });
      expect(refused.status).toBe(400);
      expectDocumented("POST", "/api/v1/sites/{id}/audits", refused);
      const scheduled = await api(base, `/api/v1/sites/${siteId}/schedule`, { headers, body: { frequency: "daily" } });
      expect(scheduled.status).toBe(201);
      expectDocumented("POST", "/api/v1/sites/{id}/schedule", scheduled);
      const schedule = await api(base, `/api/v1/sites/${siteId}/schedule`, { headers });
      expectDocumented("GET", "/api/v1/sites/{id}/schedule", schedule);
      const unscheduled = await api(base, `/api/v1/sites/${siteId}/schedule`, { method: "DELETE", headers });
      expectDocumented("DELETE", "/api/v1/sites/{id}/schedule", unscheduled);
      const noSchedule = await api(base, `/api/v1/sites/${siteId}/schedule`, { headers });
      expect(noSchedule.status).toBe(404);
      expectDocumented("GET", "/api/v1/sites/{id}/schedule", noSchedule);
    });

    it.each(["A", "B"])("API keys (Form %s)", async (form) => {
      const headers = { ...jwt(), "x-response-form": form };
      const created = await api(base, "/api/v1/keys", { headers, body: { name: `reference ${form}` } });
      expect(created.status).toBe(201);
      expectDocumented("POST", "/api/v1/keys", created);
      const list = await api(base, "/api/v1/keys", { headers });
      expectDocumented("GET", "/api/v1/keys", list);
      const revoked = await api(base, `/api/v1/keys/${(created.body as Json).data.id}`, { method: "DELETE", headers });
      expect(revoked.status).toBe(200);
      expectDocumented("DELETE", "/api/v1/keys/{id}", revoked);
      const gone = await api(base, `/api/v1/keys/${(created.body as Json).data.id}`, { method: "DELETE", headers });
      expect(gone.status).toBe(404);
      expectDocumented("DELETE", "/api/v1/keys/{id}", gone);
    });

    it.each(["A", "B"])("errors in the request's form (Form %s)", async (form) => {
      const headers = { ...key(), "x-response-form": form };
      const cases: Array<[string, string, Promise<ApiResponse>, number]> = [
        ["POST", "/api/v1/scan", api(base, "/api/v1/scan", { headers, body: { url: "ftp://x" } }), 400],
        ["POST", "/api/v1/scan", api(base, "/api/v1/scan", { headers, rawBody: "{not json" }), 400],
        [
          "POST",
          "/api/v1/scan",
          api(base, "/api/v1/scan", { headers, body: { url: `https://x/${"a".repeat(200_000)}` } }),
          413,
        ],
        ["GET", "/api/v1/sites", api(base, "/api/v1/sites", { headers: { "x-response-form": form } }), 401],
        ["GET", "/api/v1/sites", api(base, "/api/v1/sites?limit=1e1", { headers }), 400],
        ["GET", "/api/v1/scan/{id}", api(base, `/api/v1/scan/${randomUUID()}`, { headers }), 404],
        ["GET", "/api/v1/scan/{id}", api(base, "/api/v1/scan/not-a-uuid", { headers }), 400],
        ["POST", "/api/v1/sites", api(base, "/api/v1/sites", { method: "PUT", headers, body: {} }), 405],
        ["GET", "/api/v1/keys", api(base, "/api/v1/keys", { headers }), 401],
        ["GET", "/healthz", api(base, "/healthz", { method: "POST", headers: { "x-response-form": form } }), 405],
        ["GET", "/docs", api(base, "/docs", { method: "DELETE", headers: { "x-response-form": form } }), 405],
      ];
      for (const [method, path, pending, status] of cases) {
        const response = await pending;
        expect([method, path, response.status]).toEqual([method, path, status]);
        expectDocumented(method, path, response);
      }
    });

    it.each(["A", "B"])("the caller's account and the operators' view (Form %s)", async (form) => {
      const account = await api(base, "/api/v1/account", { headers: { ...key(), "x-response-form": form } });
      expect(account.status).toBe(200);
      expectDocumented("GET", "/api/v1/account", account);
      const email = `operator-${form}-${randomUUID()}@example.com`;
      const operator = new Browser(base);
      expect((await operator.signUp(email, PASSWORD, await invitationToken(stack.db, email, "operator"))).status).toBe(
        201,
      );
      const operations = await api(base, "/api/v1/operations", {
        headers: { authorization: `Bearer ${await operator.token()}`, "x-response-form": form },
      });
      expect(operations.status).toBe(200);
      expectDocumented("GET", "/api/v1/operations", operations);
      const member = new Browser(base);
      expect((await member.signUp(`member-${form}-${randomUUID()}@example.com`, PASSWORD)).status).toBe(201);
      const refused = await api(base, "/api/v1/operations", {
        headers: { authorization: `Bearer ${await member.token()}`, "x-response-form": form },
      });
      expect(refused.status).toBe(403);
      expectDocumented("GET", "/api/v1/operations", refused);
      const keyed = await api(base, "/api/v1/operations", { headers: { ...key(), "x-response-form": form } });
      expect(keyed.status).toBe(401);
      expectDocumented("GET", "/api/v1/operations", keyed);
    });

    it("the dashboard's session endpoints", async () => {
      const email = `session-${randomUUID()}@example.com`;
      const user = new Browser(base);
      const cases: Array<[string, string, () => Promise<ApiResponse>, number]> = [
        ["POST", "/auth/sign-up", () => user.signUp(email, PASSWORD), 201],
        ["POST", "/auth/sign-up", () => new Browser(base).signUp(email, "short"), 400],
        ["POST", "/auth/sign-in", () => new Browser(base).signIn(email, "not the password"), 401],
        ["POST", "/auth/sign-in", () => user.signIn(email, PASSWORD), 200],
        ["GET", "/auth/session", () => user.send("/auth/session"), 200],
        ["GET", "/auth/session", () => new Browser(base).send("/auth/session"), 401],
        ["POST", "/auth/token", () => user.send("/auth/token", { method: "POST" }), 200],
        ["POST", "/auth/token", () => user.send("/auth/token", { method: "POST", csrf: false }), 403],
        [
          "POST",
          "/auth/password",
          () => user.send("/auth/password", { body: { currentPassword: "nope", newPassword: `${PASSWORD} 2` } }),
          400,
        ],
        [
          "POST",
          "/auth/password",
          () => user.send("/auth/password", { body: { currentPassword: PASSWORD, newPassword: `${PASSWORD} 2` } }),
          204,
        ],
        ["GET", "/auth/session", () => user.send("/auth/session"), 200],
        ["POST", "/auth/sign-out", () => user.send("/auth/sign-out", { method: "POST" }), 204],
        ["GET", "/auth/invitations/{token}", () => api(base, `/auth/invitations/${"x".repeat(43)}`), 404],
        [
          "POST",
          "/auth/password-reset",
          () => new Browser(base).send("/auth/password-reset", { body: { token: "y".repeat(43), password: PASSWORD } }),
          400,
        ],
        ["POST", "/auth/sign-out", () => api(base, "/auth/sign-out", { method: "DELETE" }), 405],
      ];
      for (const [method, path, send, status] of cases) {
        const response = await send();
        expect([method, path, response.status]).toEqual([method, path, status]);
        expectDocumented(method, path, response);
      }
      const invited = `invited-${randomUUID()}@example.com`;
      const invitation = await api(base, `/auth/invitations/${await invitationToken(stack.db, invited)}`);
      expect(invitation.status).toBe(200);
      expectDocumented("GET", "/auth/invitations/{token}", invitation);
    });

    it("operations endpoints and the document itself", async () => {
      for (const path of ["/healthz", "/readyz", "/metrics", "/openapi.json"]) {
        const response = await api(base, path);
        expect(response.status).toBe(200);
        expectDocumented("GET", path, response);
      }
    });
  });

  describe("GET /docs", () => {
    it("serves a page whose every asset comes from this server", async () => {
      const response = await fetch(`${base}/docs`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      const page = await response.text();
      const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
      expect(assets.length).toBeGreaterThanOrEqual(3);
      for (const asset of assets) {
        // a path on this origin: no scheme, no protocol-relative host
        expect(asset).toMatch(/^\/(?!\/)/);
        const answer = await fetch(new URL(asset, base));
        expect([asset, answer.status]).toEqual([asset, 200]);
        expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(100);
        const type = answer.headers.get("content-type") ?? "";
        if (asset.includes(".js")) expect(type).toMatch(/javascript/);
        if (asset.includes(".css")) expect(type).toMatch(/^text\/css/);
      }
    });

    it("links the service's icon, served at /favicon.ico, cached and revalidated by its ETag", async () => {
      const page = await (await fetch(`${base}/docs`)).text();
      expect(page).toContain('<link rel="icon" href="/favicon.ico"');
      const icon = await fetch(`${base}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/x-icon");
      expect(icon.headers.get("cache-control")).toBe("public, max-age=86400");
      const bytes = Buffer.from(await icon.arrayBuffer());
      // an ICO: reserved 0, type 1 (icon), then its images; the first is a PNG
      expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 3]);
      const first = bytes.readUInt32LE(6 + 12);
      expect(bytes.subarray(first, first + 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const etag = icon.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const again = await fetch(`${base}/favicon.ico`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
      const stale = await fetch(`${base}/favicon.ico`, { headers: { "if-none-match": '"old"' } });
      expect(stale.status).toBe(200);
    });

    it("renders every operation in a browser, asks nothing of another origin, and tries a request", async () => {
      const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
      const browser = await chromium.launch({ executablePath: resolveChromiumPath(undefined), args });
      try {
        const page = await browser.newPage();
        const requests: string[] = [];
        const problems: string[] = [];
        page.on("request", (request) => requests.push(request.url()));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(message.text());
        });
        page.on("pageerror", (error) => problems.push(error.message));
        await page.goto(`${base}/docs`, { waitUntil: "load" });
        // the reference renders a large document in the browser: a busy machine needs far longer than a quiet one
        await page.waitForSelector(".opblock", { timeout: 150_000 });
        expect(await page.locator(".opblock").count()).toBe(operationsOf(document).length);

        // "Try it out" on GET /healthz: the request goes to this server and its answer shows
        const healthz = page.locator("#operations-Operations-liveness");
        await healthz.locator(".opblock-summary").click();
        await healthz.locator(".try-out__btn").click();
        await healthz.locator(".execute").click();
        await healthz.locator(".live-responses-table tbody .response-col_status").first().waitFor({ timeout: 60_000 });
        expect(
          (await healthz.locator(".live-responses-table tbody .response-col_status").first().textContent())?.trim(),
        ).toBe("200");

        // "Try it out" on POST /api/v1/scan starts synchronous: nothing pre-fills Prefer: respond-async
        const scan = page.locator("#operations-Scans-createScan");
        await scan.locator(".opblock-summary").click();
        await scan.locator(".try-out__btn").click();
        const prefer = scan.locator('tr[data-param-name="Prefer"][data-param-in="header"] input');
        await prefer.waitFor({ timeout: 60_000 });
        expect(await prefer.inputValue()).toBe("");

        const elsewhere = requests.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith("data:"));
        expect(elsewhere).toEqual([]);
        expect(requests).toEqual(expect.arrayContaining([`${base}/openapi.json`, `${base}/healthz`]));
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 400_000);
  });
});

/** Polls `probe` until it answers something (scans and deliveries finish in the background). */
const until = async <T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const strictAjv = () => {
  // strict: unknown keywords and formats are errors; OpenAPI's own keywords are known
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  addFormats(ajv);
  return ajv;
};

const SCHEMAS_ID = "https://reference.test/components";

/**
 * Validates answers against the document: the document's component schemas under one id,
 * `#/components/schemas/X` pointing into it, each response's schema compiled on first use.
 */
const responseCompiler = (document: Document) => {
  const ajv = strictAjv();
  const rewrite = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`)) as T;
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: rewrite(document.components.schemas) });
  const cache = new Map<string, ValidateFunction>();

  const resolve = (value: Json): Json => {
    if (typeof value.$ref !== "string") return value;
    const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? [];
    const target = kind && name ? document.components[kind]?.[name] : undefined;
    if (!target) throw new Error(`unresolved ${value.$ref}`);
    return target as Json;
  };

  const compile = (where: string, schema: Json): ValidateFunction => {
    const known = cache.get(where);
    if (known) return known;
    const compiled = ajv.compile(rewrite(schema));
    cache.set(where, compiled);
    return compiled;
  };

  const operation = (method: string, path: string): Operation => {
    const found = document.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found;
  };

  const responseOf = (method: string, path: string, status: string): Json | undefined => {
    const responses = operation(method, path).responses;
    const response = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    return response ? resolve(response) : undefined;
  };

  /** Every media type's validator of one documented response. */
  const schemasOf = (method: string, path: string, status: string) => {
    const response = responseOf(method, path, status);
    return Object.entries((response?.content ?? {}) as Record<string, Json>).map(([type, media]) => ({
      type,
      validate: compile(`${method} ${path} ${status} ${type}`, media.schema as Json),
    }));
  };

  /** What is wrong with an answer as the document sees it (nothing: an empty list). */
  const check = (method: string, path: string, response: ApiResponse): string[] => {
    const documented = responseOf(method, path, String(response.status));
    if (!documented) return [`status ${response.status} is not documented`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, Json>)) {
      if (resolve(header).required && !response.headers.has(name)) problems.push(`header ${name} is missing`);
    }
    if (documented.content === undefined) {
      // a response documented without a body (304) has none
      return response.body === "" ? problems : [...problems, "a body where the document names none"];
    }
    const contentType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const media = schemasOf(method, path, String(response.status)).find(
      ({ type }) => type.split(";")[0]?.trim() === contentType,
    );
    if (!media) return [...problems, `content type ${contentType} is not documented`];
    if (!media.validate(response.body)) {
      problems.push(...(media.validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));
    }
    return problems;
  };

  /** What is wrong with a callback a receiver got, as the operation's callback describes it. */
  const checkCallback = (
    method: string,
    path: string,
    callback: { headers: IncomingMessage["headers"]; body: unknown },
  ) => {
    const callbacks = Object.values(operation(method, path).callbacks ?? {}) as Json[];
    const post = (Object.values(callbacks[0] ?? {})[0] as Json | undefined)?.post as Json | undefined;
    if (!post) return ["no callback documented"];
    const problems: string[] = [];
    for (const parameter of (post.parameters ?? []) as Json[]) {
      const { name, in: where, required } = resolve(parameter);
      if (where === "header" && required && callback.headers[String(name).toLowerCase()] === undefined) {
        problems.push(`header ${name} is missing`);
      }
    }
    const validate = compile(`${method} ${path} callback`, post.requestBody.content["application/json"].schema as Json);
    if (!validate(callback.body))
      problems.push(...(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
    return problems;
  };

  return { check, checkCallback, schemasOf };
};
