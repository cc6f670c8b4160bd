import { FINGERPRINT_KEY } from "@scan/reports";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { csvRows, junitProblems, parseCsv, sarifProblems } from "./support/report-schemas";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * GET /api/v1/scan/:id exports a stored scan as CSV, SARIF 2.1.0 and JUnit XML, chosen by
 * `?format=` or by `Accept`; each export of a real scan of a real page is checked against its
 * published schema, and the negotiation's refusals come in the request's envelope.
 */

jest.setTimeout(300_000);

type Json = Record<string, any>;
type Check = { id: string; status: string; severity: string; description: string };

// two headings, so that the h1 check fails quoting their text: markup, quotes and a formula
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Exports of a stored scan, read by CI systems and spreadsheets</title>
</head><body><main><h1>Exports &amp; &lt;CI&gt; "systems"</h1><h1>=HYPERLINK("http://evil.example/")</h1>
<p>A page with no meta description, no canonical link and no structured data, so several checks fail.</p></main></body></html>`;

describe("exports of a stored scan", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let account: TestAccount;
  let base: string;
  let id: string;
  let failedId: string;
  let checks: Check[];

  const get = (path: string, headers: Record<string, string> = {}) =>
    api(base, path, { headers: { "x-api-key": account.key, ...headers } });

  const contentType = (response: ApiResponse) => response.headers.get("content-type") ?? "";

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": html(PAGE),
      "/down": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
    base = stack.gateway.url;
    account = await createAccount(stack.db, "agency");
    const done = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": account.key },
      body: { url: site.url("/page"), mode: "full" },
    });
    expect(done.status).toBe(200);
    id = (done.body as Json).data.id;
    checks = (done.body as Json).data.checks;
    const failed = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": account.key },
      body: { url: site.url("/down"), mode: "quick" },
    });
    expect(failed.status).toBe(502);
    failedId = (await stack.db.scan.findFirstOrThrow({ where: { url: site.url("/down") } })).id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const failing = () => checks.filter((check) => check.status === "fail" || check.status === "warn");

  describe("CSV", () => {
    it.each([
      ["Accept: text/csv", { accept: "text/csv" }, ""],
      ["?format=csv", {}, "?format=csv"],
      ["?format=csv over an Accept it would refuse", { accept: "text/html" }, "?format=csv"],
    ])("%s: one row per check, read back by a CSV parser", async (_name, headers, query) => {
      const response = await get(`/api/v1/scan/${id}${query}`, headers);
      expect(response.status).toBe(200);
      expect(contentType(response)).toBe("text/csv; charset=utf-8; header=present");
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="scan-${id}.csv"`);
      expect(response.headers.get("vary")).toMatch(/\bAccept\b/);
      expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
      const body = response.body as string;
      const rows = parseCsv(body);
      expect(rows.map((row) => [row.check_id, row.status, row.severity])).toEqual(
        checks.map((check) => [check.id, check.status, check.severity]),
      );
      expect(rows.every((row) => row.scan_id === id && row.url === site.url("/page"))).toBe(true);
      // the h1 check quotes the headings, read back as they were
      const h1 = rows.find((row) => row.check_id === "h1");
      expect(h1).toMatchObject({ status: "warn", finding: expect.stringContaining('Exports & <CI> "systems"') });
      expect(h1?.finding).toContain('=HYPERLINK("http://evil.example/")');
      for (const row of rows) for (const value of Object.values(row)) expect(value).not.toMatch(/^[=+\-@\t\r]/);
      expect(csvRows(body)).toHaveLength(checks.length + 1);
    });
  });

  describe("SARIF", () => {
    it.each([
      ["Accept: application/sarif+json", { accept: "application/sarif+json" }, ""],
      ["?format=sarif", {}, "?format=sarif"],
    ])("%s: valid against the SARIF 2.1.0 schema, a result per failing check", async (_name, headers, query) => {
      const response = await get(`/api/v1/scan/${id}${query}`, headers);
      expect(response.status).toBe(200);
      expect(contentType(response)).toMatch(/^application\/sarif\+json\b/);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="scan-${id}.sarif"`);
      const log = response.body as Json;
      expect(sarifProblems(log)).toEqual([]);
      const run = log.runs[0];
      expect(run.tool.driver.rules.map((rule: Json) => rule.id)).toEqual(checks.map((check) => check.id));
      expect(run.results.map((result: Json) => result.ruleId)).toEqual(failing().map((check) => check.id));
      for (const result of run.results) {
        expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(site.url("/page"));
        expect(result.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it("gives each finding the same fingerprint every time it is exported", async () => {
      const fingerprints = async () =>
        ((await get(`/api/v1/scan/${id}?format=sarif`)).body as Json).runs[0].results.map(
          (result: Json) => result.partialFingerprints[FINGERPRINT_KEY],
        );
      const first = await fingerprints();
      expect(await fingerprints()).toEqual(first);
      expect(new Set(first).size).toBe(first.length);
    });
  });

  describe("JUnit XML", () => {
    it.each([
      ["Accept: application/xml", { accept: "application/xml" }, ""],
      ["Accept: application/junit+xml", { accept: "application/junit+xml" }, ""],
      ["Accept: text/xml", { accept: "text/xml" }, ""],
      ["?format=junit", {}, "?format=junit"],
    ])("%s: valid against the Ant and Jenkins xUnit XSDs", async (_name, headers, query) => {
      const response = await get(`/api/v1/scan/${id}${query}`, headers);
      expect(response.status).toBe(200);
      expect(contentType(response)).toBe("application/xml; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="scan-${id}.xml"`);
      const xml = response.body as string;
      expect(await junitProblems(xml)).toEqual([]);
      expect(xml.match(/<testcase /g)).toHaveLength(checks.length);
      expect(xml.match(/<failure /g)).toHaveLength(failing().length);
      expect(xml).toContain("Exports &amp; &lt;CI&gt;");
    });
  });

  describe("a failed scan", () => {
    it("exports its reason in each format", async () => {
      const csv = parseCsv((await get(`/api/v1/scan/${failedId}?format=csv`)).body as string);
      expect(csv).toEqual([expect.objectContaining({ status: "error", finding: expect.stringContaining("503") })]);
      const sarif = (await get(`/api/v1/scan/${failedId}?format=sarif`)).body as Json;
      expect(sarifProblems(sarif)).toEqual([]);
      expect(sarif.runs[0].invocations[0].executionSuccessful).toBe(false);
      const junit = (await get(`/api/v1/scan/${failedId}?format=junit`)).body as string;
      expect(await junitProblems(junit)).toEqual([]);
      expect(junit).toContain('<error type="upstream_failure"');
    });
  });

  describe("negotiation", () => {
    it.each([
      ["no Accept", {}],
      ["*/*", { accept: "*/*" }],
      ["application/*", { accept: "application/*" }],
      ["application/json; charset=utf-8", { accept: "application/json; charset=utf-8" }],
      ["JSON preferred by q", { accept: "text/csv;q=0.1, application/json;q=0.9" }],
      ["?format=json over Accept", { accept: "text/csv" }],
    ])("answers the stored scan as JSON: %s", async (name, headers) => {
      const response = await get(`/api/v1/scan/${id}${name.startsWith("?") ? "?format=json" : ""}`, headers);
      expect(response.status).toBe(200);
      expect(contentType(response)).toMatch(/^application\/json/);
      expect(response.headers.get("content-disposition")).toBeNull();
      expect(response.headers.get("vary")).toMatch(/\bAccept\b/);
      expect(response.body).toMatchObject({ ok: true, data: { id, status: "completed" } });
    });

    it("honours q-values between exports", async () => {
      const response = await get(`/api/v1/scan/${id}`, { accept: "application/json;q=0.2, text/csv;q=0.9" });
      expect(contentType(response)).toMatch(/^text\/csv/);
      const xml = await get(`/api/v1/scan/${id}`, {
        accept: "text/html, application/xhtml+xml, application/xml;q=0.9",
      });
      expect(contentType(xml)).toMatch(/^application\/xml/);
    });

    it.each(["A", "B"])("refuses an Accept it cannot serve with 406 in Form %s", async (form) => {
      const response = await get(`/api/v1/scan/${id}`, {
        accept: "text/html, image/png;q=0.5",
        "x-response-form": form,
      });
      expect(response.status).toBe(406);
      expect(contentType(response)).toMatch(/^application\/json/);
      expect(response.body).toEqual(
        form === "A"
          ? {
              ok: false,
              error: {
                code: "not_acceptable",
                message: expect.stringContaining("text/html"),
                hint: expect.stringContaining("?format="),
              },
            }
          : { error: expect.stringContaining("text/html"), code: "NOT_ACCEPTABLE" },
      );
      const excluded = await get(`/api/v1/scan/${id}`, { accept: "application/json;q=0, */*;q=0" });
      expect(excluded.status).toBe(406);
    });

    it("refuses an unknown format or parameter with 400", async () => {
      const html = await get(`/api/v1/scan/${id}?format=html`);
      expect(html.status).toBe(400);
      expect((html.body as Json).error.message).toContain("format must be json, csv, sarif, junit or pdf");
      const unknown = await get(`/api/v1/scan/${id}?fields=all`);
      expect(unknown.status).toBe(400);
      expect((unknown.body as Json).error.message).toContain('unknown query parameter "fields"');
    });

    it("answers an unknown scan 404 whatever the format", async () => {
      const missing = await get("/api/v1/scan/6f1f0c4e-7a43-4d1b-9a51-0c2f8c1e9d00", { accept: "text/csv" });
      expect(missing.status).toBe(404);
      expect((missing.body as Json).error.code).toBe("not_found");
    });

    it("answers HEAD with the export's headers", async () => {
      const response = await fetch(`${base}/api/v1/scan/${id}`, {
        method: "HEAD",
        headers: { "x-api-key": account.key, accept: "text/csv" },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="scan-${id}.csv"`);
      expect(await response.text()).toBe("");
    });
  });

  describe("a scan not finished yet", () => {
    it.each(["A", "B"])("is 409 as an export and its status as JSON (Form %s)", async (form) => {
      const queued = await stack.db.scan.create({
        data: { url: site.url("/page"), mode: "quick", userId: account.user.id },
      });
      const headers = { "x-response-form": form };
      for (const format of ["csv", "sarif", "junit"]) {
        const response = await get(`/api/v1/scan/${queued.id}?format=${format}`, headers);
        expect([format, response.status]).toEqual([format, 409]);
        expect(response.body).toEqual(
          form === "A"
            ? {
                ok: false,
                error: { code: "conflict", message: expect.stringContaining("queued"), hint: expect.any(String) },
              }
            : { error: expect.stringContaining("queued"), code: "SCAN_NOT_FINISHED" },
        );
      }
      const json = await get(`/api/v1/scan/${queued.id}`, headers);
      expect(json.status).toBe(200);
      expect((json.body as Json).data.status).toBe("queued");
      await stack.db.scan.delete({ where: { id: queued.id } });
    });
  });
});
