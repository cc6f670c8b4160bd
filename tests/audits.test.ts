import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount, type TestAccount } from "./support/accounts";
import { buildAuditSite } from "./support/audit-site";
import { type FixtureServer, type Handler, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A whole-site audit of a site served on loopback, made of the corpus's pages: more than 300
 * pages, a sitemap index with a gzip sitemap, and planted defects of every site-check kind.
 * Through the real gateway, queue, workers, Chromium-less quick scans and Postgres, the audit
 * finds every page once, every planted defect, and nothing that was not planted.
 */

const PAGES = 300;

type Json = Record<string, any>;

afterAll(() => stopContainers());

describe("a whole-site audit of the corpus site", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let siteId: string;
  let built: ReturnType<typeof buildAuditSite>;
  let audit: Json;
  const routes: Record<string, Handler> = {};
  const requests = new Map<string, number>();

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const handler = routes[path];
      if (handler) return handler(req, res);
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    });
    built = buildAuditSite(site.origin, PAGES);
    Object.assign(routes, built.routes);
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: {
        WORKER_CONCURRENCY: "2",
        RATE_LIMIT_AGENCY: "100000",
        RATE_LIMIT_FREE: "100000",
        SCAN_TIMEOUT_MS: "15000",
      },
    });
    owner = await createAccount(stack.db, "agency");
    const created = await call("/api/v1/sites", owner.key, { body: { url: site.url("/"), name: "Corpus site" } });
    expect(created.status).toBe(201);
    siteId = created.body.data.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  const call = async (path: string, key: string, init: { method?: string; body?: unknown; form?: "A" | "B" } = {}) => {
    const response = await api(stack.gateway.url, path, {
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      headers: { "x-api-key": key, ...(init.form ? { "x-response-form": init.form } : {}) },
    });
    return { ...response, body: response.body as Json };
  };

  it("runs to completion, every page found and counted once", async () => {
    const started = Date.now();
    const accepted = await call(`/api/v1/sites/${siteId}/audits`, owner.key, {
      body: { mode: "quick", max_pages: 1000 },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("location")).toBe(`/api/v1/audits/${accepted.body.data.id}`);
    expect(accepted.body.data).toMatchObject({ status: "discovering", mode: "quick", max_pages: 1000, report: null });
    const id = accepted.body.data.id as string;
    await eventually(
      async () => {
        const answer = await call(`/api/v1/audits/${id}`, owner.key);
        audit = answer.body.data;
        return audit.status === "completed" || audit.status === "failed";
      },
      // about a minute on an idle machine; a loaded one is given fifteen
      900_000,
      "the audit to complete",
    );
    process.stdout.write(`audit of ${audit.progress.discovered} pages: ${Date.now() - started} ms\n`);
    expect(audit.status).toBe("completed");
    const expected = built.paths.map((path) => site.url(path)).sort();
    const rows = await stack.db.auditPage.findMany({ where: { auditId: id }, select: { url: true, status: true } });
    expect(rows.map((row) => row.url).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(300);
    expect(audit.progress).toEqual({
      discovered: expected.length,
      queued: 0,
      running: 0,
      scanned: expected.length - 2,
      failed: 1,
      blocked: 1,
      cancelled: 0,
    });
    // robots.txt's Disallow is obeyed: the blocked page was never fetched; every other page once
    expect(requests.get("/private/report")).toBeUndefined();
    expect(rows.find((row) => row.url === site.url("/private/report"))?.status).toBe("blocked");
    expect(rows.find((row) => row.url === site.url("/server-error"))?.status).toBe("failed");
    // what a page costs in Postgres (docs/audits.md, Retention)
    const [size] = await stack.db.$queryRaw<Array<{ row: number; checks: number; facts: number }>>`
      SELECT avg(pg_column_size(p.*))::int AS row, avg(pg_column_size(p."checks"))::int AS checks,
        avg(pg_column_size(p."facts"))::int AS facts FROM "audit_pages" p WHERE p."status" = 'scanned'`;
    process.stdout.write(`quick audit page bytes: ${JSON.stringify(size)}\n`);
  }, 960_000);

  it("finds every planted defect and nothing that was not planted", () => {
    const report = audit.report as Json;
    const found = (report.site_checks as Json[]).flatMap((check) =>
      (check.findings as Json[]).map((finding) => ({ check: check.id as string, url: finding.url as string })),
    );
    const key = (defect: { check: string; url: string }) => `${defect.check} ${defect.url}`;
    expect(found.map(key).sort()).toEqual(built.planted.map(key).sort());
    // every kind of site check was planted, so each fails, and each says what to change; the
    // site publishes no ai-catalog.json and names none, so the catalog's checks have nothing to judge
    const unjudged = new Set(["ai-catalog", "ai-catalog-schema"]);
    for (const check of report.site_checks as Json[]) {
      if (unjudged.has(check.id)) {
        expect([check.id, check.status]).toEqual([check.id, "skip"]);
        continue;
      }
      expect([check.id, check.status]).toEqual([check.id, "fail"]);
      expect(check.fix.length).toBeGreaterThan(20);
    }
    expect((report.site_checks as Json[]).filter((check) => unjudged.has(check.id))).toHaveLength(2);
    const pages = (id: string, url: string) =>
      (report.site_checks as Json[]).find((check) => check.id === id)?.findings.find((f: Json) => f.url === url)?.pages;
    expect(pages("duplicate-titles", site.url("/p/20")).sort()).toEqual([site.url("/p/20"), site.url("/p/21")]);
    expect(pages("broken-internal-links", site.url("/missing-page"))).toEqual([site.url("/p/40")]);
    expect(pages("redirect-chains", site.url("/chain-start"))).toEqual([site.url("/chain-start"), site.url("/p/80")]);
  });

  it("reports page checks' pass rates, the worst pages, site scores and what discovery read", () => {
    const report = audit.report as Json;
    expect(report.partial).toBe(true);
    expect(report.pages_judged).toBeGreaterThanOrEqual(300);
    const title = (report.page_checks as Json[]).find((check) => check.id === "title");
    expect(title).toMatchObject({ pages: report.pages_judged, pass: report.pages_judged, pass_rate: 1 });
    const indexable = (report.page_checks as Json[]).find((check) => check.id === "indexable");
    expect(indexable?.fail).toBe(1);
    expect(report.worst_pages).toHaveLength(10);
    const overalls = (report.worst_pages as Json[]).map((page) => page.overall);
    expect(overalls).toEqual([...overalls].sort((a, b) => a - b));
    expect(report.worst_pages[0].url).toBe(site.url("/p/60"));
    expect(audit.scores).toEqual(report.scores);
    expect(report.scores.overall).toBeGreaterThan(0);
    expect(report.discovery.sitemaps.map((s: Json) => [s.kind, s.gzip])).toEqual([
      ["sitemapindex", false],
      ["urlset", false],
      ["urlset", true],
    ]);
    expect(report.discovery.sitemap_urls).toBe(PAGES + 4);
  });

  it("pages through the pages in both forms, and exports CSV", async () => {
    const id = audit.id as string;
    const first = await call(`/api/v1/audits/${id}/pages?limit=100`, owner.key);
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ page: 1, limit: 100, total: audit.progress.discovered, hasMore: true });
    expect(first.body.data[0]).toMatchObject({ url: site.url("/"), depth: 0, in_sitemap: true, status: "scanned" });
    expect(first.body.data[0].checks.length).toBe(20);
    const last = await call(`/api/v1/audits/${id}/pages?limit=100&page=4`, owner.key, { form: "B" });
    expect(last.body).toMatchObject({ success: true, meta: { page: 4, hasMore: false } });
    const csv = await fetch(`${stack.gateway.url}/api/v1/audits/${id}/pages?format=csv`, {
      headers: { "x-api-key": owner.key },
    });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = Buffer.from(await csv.arrayBuffer());
    // a UTF-8 byte-order mark first, for Excel
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n");
    expect(lines[0]).toBe(
      "url,status,http_status,final_url,depth,in_sitemap,overall,seo,aeo,geo,grade,critical,warning,info,failing_checks,error",
    );
    expect(lines).toHaveLength(audit.progress.discovered + 2);
    const report = await fetch(`${stack.gateway.url}/api/v1/audits/${id}/report?format=csv`, {
      headers: { "x-api-key": owner.key },
    });
    const reportText = await report.text();
    expect(reportText).toContain(`site,broken-internal-links,seo,critical,fail,0,8,${site.url("/missing-page")},`);
    const json = await call(`/api/v1/audits/${id}/report`, owner.key, { form: "B" });
    expect(json.body).toEqual({ success: true, data: audit.report });
  });

  it("lists the site's audits; another user sees none of it", async () => {
    const list = await call(`/api/v1/sites/${siteId}/audits`, owner.key);
    expect(list.body.data.map((entry: Json) => entry.id)).toEqual([audit.id]);
    expect(list.body.data[0].report).toBeNull();
    // the site's history shows the audit with its scores; a quick audit's are partial
    const history = await call(`/api/v1/sites/${siteId}/history?kind=audit`, owner.key);
    expect(history.body.data).toEqual([
      {
        kind: "audit",
        id: audit.id,
        url: site.url("/"),
        mode: "quick",
        partial: true,
        scores: audit.scores,
        grade: audit.grade,
        issues: audit.report.issues,
        pages: audit.report.pages_judged,
        completed_at: audit.completed_at,
      },
    ]);
    const scans = await call(`/api/v1/sites/${siteId}/history?kind=scan`, owner.key);
    expect(scans.body.meta.total).toBe(0);
    // a quick audit leaves the site's latest scores alone
    const shown = await call("/api/v1/sites", owner.key);
    expect(shown.body.data[0].latest_scores_audit).toBeNull();
    const stranger = await createAccount(stack.db, "agency");
    for (const path of [
      `/api/v1/audits/${audit.id}`,
      `/api/v1/audits/${audit.id}/pages`,
      `/api/v1/sites/${siteId}/audits`,
    ]) {
      const answer = await call(path, stranger.key, { form: "B" });
      expect([path, answer.status, answer.body.code]).toEqual([path, 404, "NOT_FOUND"]);
    }
    const started = await call(`/api/v1/sites/${siteId}/audits`, stranger.key, { body: {} });
    expect(started.status).toBe(404);
  });
});

describe("audit requests", () => {
  let database: TestDatabase;
  let stack: Stack;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({});
    database = await createTestDatabase();
    // no worker: audits stay where the gateway put them
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      worker: false,
      env: { RATE_LIMIT_FREE: "100000", AUDITS_ACTIVE_PER_USER: "2", AUDIT_PAGES_FREE: "25" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  const request = async (key: string, path: string, body?: unknown, form: "A" | "B" = "A", method?: string) => {
    const answer = await api(stack.gateway.url, path, {
      ...(method ? { method } : {}),
      ...(body === undefined ? {} : { body }),
      headers: { "x-api-key": key, "x-response-form": form },
    });
    return { ...answer, body: answer.body as Json };
  };

  it("refuses bad input in the request's form, and audits past the plan's ceiling", async () => {
    const { key } = await createAccount(stack.db, "free");
    const created = await request(key, "/api/v1/sites", { url: site.url("/") });
    const siteId = created.body.data.id as string;
    const cases: Array<[unknown, string]> = [
      [{ mode: "deep" }, "mode"],
      [{ max_pages: 0 }, "max_pages"],
      [{ max_pages: 1.5 }, "max_pages"],
      [{ include: ["blog"] }, "include.0"],
      [{ exclude: Array.from({ length: 21 }, () => "/x") }, "exclude"],
      [{ depth: 3 }, 'unknown field "depth"'],
    ];
    for (const [body, named] of cases) {
      const answer = await request(key, `/api/v1/sites/${siteId}/audits`, body);
      expect([JSON.stringify(body), answer.status, answer.body.error.code]).toEqual([
        JSON.stringify(body),
        400,
        "invalid_request",
      ]);
      expect(answer.body.error.message).toContain(named);
    }
    const formB = await request(key, `/api/v1/sites/${siteId}/audits`, { mode: "deep" }, "B");
    expect(formB.body).toEqual({ error: expect.stringContaining("mode"), code: "VALIDATION_ERROR" });
    const notUuid = await request(key, "/api/v1/sites/abc/audits", {});
    expect(notUuid.status).toBe(400);
    const ceiling = await request(key, `/api/v1/sites/${siteId}/audits`, { max_pages: 26 }, "B");
    expect(ceiling).toMatchObject({ status: 403, body: { code: "PLAN_LIMIT" } });
    const unknownSite = await request(key, `/api/v1/sites/${randomUUID()}/audits`, {});
    expect(unknownSite).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
  });

  it("starts audits up to the number under way a user may have, and cancels them", async () => {
    const { key } = await createAccount(stack.db, "free");
    const created = await request(key, "/api/v1/sites", { url: site.url("/") });
    const siteId = created.body.data.id as string;
    // no body at all: every default
    const first = await api(stack.gateway.url, `/api/v1/sites/${siteId}/audits`, {
      method: "POST",
      headers: { "x-api-key": key },
    });
    expect(first.status).toBe(202);
    expect((first.body as Json).data).toMatchObject({ mode: "full", max_pages: 25, include: [], exclude: [] });
    const second = await request(key, `/api/v1/sites/${siteId}/audits`, { include: ["/blog/*"] }, "B");
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ success: true, data: { include: ["/blog/*"], status: "discovering" } });
    const third = await request(key, `/api/v1/sites/${siteId}/audits`, {});
    expect(third).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    const firstId = (first.body as Json).data.id as string;
    const cancelled = await request(key, `/api/v1/audits/${firstId}`, undefined, "A", "DELETE");
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: firstId, status: "cancelled" });
    expect(cancelled.body.data.completed_at).not.toBeNull();
    // cancelling again changes nothing; a cancelled audit has no report
    const again = await request(key, `/api/v1/audits/${firstId}`, undefined, "B", "DELETE");
    expect(again.body).toMatchObject({ success: true, data: { status: "cancelled" } });
    const report = await request(key, `/api/v1/audits/${firstId}/report`);
    expect(report).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    // room for another now
    const fourth = await request(key, `/api/v1/sites/${siteId}/audits`, {});
    expect(fourth.status).toBe(202);
    const wrongFormat = await request(key, `/api/v1/audits/${firstId}/pages?format=xml`);
    expect(wrongFormat.status).toBe(400);
  });
});
