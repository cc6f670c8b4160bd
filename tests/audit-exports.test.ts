import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createLogger } from "@scan/platform";
import { FINGERPRINT_KEY } from "@scan/reports";
import { createPruner } from "@scan/worker";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { junitProblems, sarifProblems } from "./support/report-schemas";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * A completed audit exported as SARIF and JUnit XML (the exports and their refusals, as for a
 * stored scan), and `scan audit` gating a CI job on the site: a threshold that passes (exit 0)
 * and one that fails (exit 1), a failed audit (exit 3), bad usage (exit 2). A site of five pages
 * on loopback: three judged, one linked page missing (404), one down (503).
 */

jest.setTimeout(300_000);

type Json = Record<string, any>;

const BIN = resolve(__dirname, "../packages/cli/bin/scan.cjs");

const page = (title: string, description: string | null, links: string[]) =>
  html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${description ? `<meta name="description" content="${description}">` : ""}
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>${title}</h1><p>A page of the audited site.</p>
${links.map((href) => `<a href="${href}">${href}</a>`).join(" ")}</main></body></html>`);

type Run = { code: number | null; stdout: string; stderr: string };

const run = (args: string[], env: Record<string, string>): Promise<Run> =>
  new Promise((done) => {
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

afterAll(() => stopContainers());

describe("an audit's exports and the audit as a CI gate", () => {
  let site: FixtureServer;
  let down: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let cli: Record<string, string>;
  let dir: string;
  let audit: Json;

  const get = (path: string, headers: Record<string, string> = {}) =>
    api(stack.gateway.url, path, { headers: { "x-api-key": owner.key, ...headers } });
  const type = (response: ApiResponse) => response.headers.get("content-type") ?? "";

  beforeAll(async () => {
    site = await startFixtureServer({
      "/": page("The audited site", "The home page of a small site that is audited as a whole.", [
        "/a",
        "/b",
        "/missing",
        "/down",
      ]),
      "/a": page("Page A of the audited site", "The first page under the home page, with what it needs.", ["/"]),
      "/b": page("Page B of the audited site", null, ["/"]),
      "/down": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    // a site whose robots.txt does not answer: its audit fails
    down = await startFixtureServer({ "/robots.txt": text("unavailable", 503) });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, down.hostPort],
      env: { WORKER_CONCURRENCY: "2", RATE_LIMIT_AGENCY: "100000", SCAN_TIMEOUT_MS: "15000" },
    });
    owner = await createAccount(stack.db, "agency");
    cli = { SCAN_API_URL: stack.gateway.url, SCAN_API_KEY: owner.key };
    dir = await mkdtemp(join(tmpdir(), "audit-gate-"));
    const created = await api(stack.gateway.url, "/api/v1/sites", {
      headers: { "x-api-key": owner.key },
      body: { url: site.url("/") },
    });
    const siteId = (created.body as Json).data.id as string;
    const started = await api(stack.gateway.url, `/api/v1/sites/${siteId}/audits`, {
      headers: { "x-api-key": owner.key },
      body: { mode: "quick" },
    });
    expect(started.status).toBe(202);
    const id = (started.body as Json).data.id as string;
    await eventually(
      async () => {
        audit = ((await get(`/api/v1/audits/${id}`)).body as Json).data;
        return audit.status === "completed" || audit.status === "failed";
      },
      45_000,
      "the audit to complete",
    );
    expect(audit.status).toBe("completed");
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await down?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe("through the API", () => {
    it("exports SARIF: a rule per page and site check, results at the pages and at the site finding's URL", async () => {
      const started = Date.now();
      const response = await get(`/api/v1/audits/${audit.id}/report?format=sarif`);
      const bytes = Buffer.byteLength(JSON.stringify(response.body, null, 2));
      process.stdout.write(
        `SARIF export of a ${audit.progress.discovered}-page quick audit (${audit.report.pages_judged} judged): ${Date.now() - started} ms, about ${bytes} bytes\n`,
      );
      expect(response.status).toBe(200);
      expect(type(response)).toMatch(/^application\/sarif\+json\b/);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="audit-${audit.id}-report.sarif"`);
      expect(response.headers.get("vary")).toMatch(/\bAccept\b/);
      const log = response.body as Json;
      expect(sarifProblems(log)).toEqual([]);
      const run = log.runs[0];
      expect(run.properties).toMatchObject({ auditId: audit.id, grade: audit.grade, scores: audit.scores });
      // the judged pages, then the page that failed; the missing page (404) is no page of the report
      expect(run.artifacts.map((artifact: Json) => artifact.location.uri)).toEqual(
        ["/", "/a", "/b", "/down"].map((path) => site.url(path)),
      );
      const scopes = Object.fromEntries(run.tool.driver.rules.map((rule: Json) => [rule.id, rule.properties.scope]));
      expect(scopes).toMatchObject({ title: "page", "meta-description": "page", "broken-internal-links": "site" });
      const description = run.results.filter((result: Json) => result.ruleId === "meta-description");
      expect(description.map((result: Json) => result.locations[0].physicalLocation.artifactLocation.uri)).toEqual([
        site.url("/b"),
      ]);
      const broken = run.results.filter((result: Json) => result.ruleId === "broken-internal-links");
      expect(broken.map((result: Json) => result.locations[0].physicalLocation.artifactLocation.uri).sort()).toEqual([
        site.url("/down"),
        site.url("/missing"),
      ]);
      const missing = broken.find((result: Json) => result.properties.url === site.url("/missing"));
      expect(missing.relatedLocations.map((location: Json) => location.physicalLocation.artifactLocation)).toEqual([
        { uri: site.url("/"), index: 0 },
      ]);
      expect(missing.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{64}$/);
      expect(run.invocations[0]).toMatchObject({
        executionSuccessful: true,
        toolExecutionNotifications: [{ level: "error", properties: { code: "http_503" } }],
      });
    });

    it("exports JUnit XML valid against both XSDs, chosen by Accept", async () => {
      for (const accept of ["application/xml", "application/junit+xml"]) {
        const response = await get(`/api/v1/audits/${audit.id}/report`, { accept });
        expect([accept, response.status, type(response)]).toEqual([accept, 200, "application/xml; charset=utf-8"]);
        const xml = response.body as string;
        if (accept === "application/xml") process.stdout.write(`JUnit export: ${Buffer.byteLength(xml)} bytes\n`);
        expect(await junitProblems(xml)).toEqual([]);
        expect(xml).toContain(`<testsuite name="SEO site checks of ${site.url("/")}"`);
        expect(xml).toMatch(
          /<testcase name="broken-internal-links: [^"]+" classname="aeo-scan.site.seo" time="0">\n\s+<failure type="fail"/,
        );
        expect(xml).toContain(`<testcase name="meta-description: Page has a meta description (${site.url("/b")})"`);
        expect(xml).toContain(`<testcase name="scan (${site.url("/down")})" classname="aeo-scan"`);
      }
      const csv = await get(`/api/v1/audits/${audit.id}/report`, { accept: "text/csv" });
      expect([csv.status, type(csv)]).toEqual([200, "text/csv; charset=utf-8"]);
      const json = await get(`/api/v1/audits/${audit.id}/report`, { accept: "application/json" });
      expect((json.body as Json).data).toEqual(audit.report);
    });

    it("refuses an Accept it cannot serve, an unknown format, and an audit under way, in both envelopes", async () => {
      const path = `/api/v1/audits/${audit.id}/report`;
      const refusedA = await get(path, { accept: "text/html" });
      expect([refusedA.status, (refusedA.body as Json).error.code]).toEqual([406, "not_acceptable"]);
      const refusedB = await get(path, { accept: "application/json;q=0, text/html", "x-response-form": "B" });
      expect(refusedB.body).toEqual({ error: expect.any(String), code: "NOT_ACCEPTABLE" });
      expect((await get(`${path}?format=html`)).status).toBe(400);
      // ?format= wins over an Accept it would refuse
      expect((await get(`${path}?format=sarif`, { accept: "text/html" })).status).toBe(200);

      const running = await stack.db.audit.create({
        data: {
          userId: owner.user.id,
          siteId: audit.site_id,
          startUrl: site.url("/"),
          mode: "quick",
          status: "running",
          maxPages: 10,
          include: [],
          exclude: [],
        },
      });
      for (const [format, form, code] of [
        ["sarif", "A", "conflict"],
        ["junit", "B", "SCAN_NOT_FINISHED"],
        ["json", "B", "SCAN_NOT_FINISHED"],
      ] as const) {
        const answer = await get(`/api/v1/audits/${running.id}/report?format=${format}`, { "x-response-form": form });
        expect([format, answer.status, answer.headers.get("retry-after")]).toEqual([format, 409, "10"]);
        const body = answer.body as Json;
        expect(form === "A" ? body.error.code : body.code).toBe(code);
      }
      await stack.db.audit.update({ where: { id: running.id }, data: { status: "cancelled" } });
      expect((await get(`/api/v1/audits/${running.id}/report?format=junit`)).status).toBe(404);
      const stranger = await createAccount(stack.db, "agency");
      const hidden = await api(stack.gateway.url, `${path}?format=sarif`, { headers: { "x-api-key": stranger.key } });
      expect(hidden.status).toBe(404);
    });
  });

  describe("scan audit", () => {
    const overall = () => audit.report.scores.overall as number;

    it("passes a site that meets its thresholds (exit 0), writing the same SARIF the API exports", async () => {
      const file = join(dir, "audit.sarif");
      // the command keeps the pages in a temporary file while it writes the report: it leaves none behind
      const temporary = await mkdtemp(join(tmpdir(), "audit-gate-tmp-"));
      const result = await run(
        [
          "audit",
          site.url("/"),
          "--mode",
          "quick",
          "--format",
          "sarif",
          "--output",
          file,
          "--min-score",
          String(overall()),
          "--min-grade",
          audit.grade,
          "--require-check",
          "title,duplicate-titles",
        ],
        { ...cli, TMPDIR: temporary },
      );
      expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("Assertions: all 4 passed")]);
      // (tsx keeps its cache there too)
      const spools = (await readdir(temporary)).filter((name) => name.startsWith("scan-audit-"));
      expect([spools, (await readdir(dir)).filter((name) => name.includes(".partial"))]).toEqual([[], []]);
      await rm(temporary, { recursive: true });
      expect(result.stdout).toMatch(/^audit [0-9a-f-]{36} of .+ \(quick\): completed/);
      const sarif = await readFile(file, "utf8");
      const log = JSON.parse(sarif);
      expect(sarifProblems(log)).toEqual([]);
      const id = log.runs[0].properties.auditId as string;
      expect(id).not.toBe(audit.id);
      // the command's file is the API's export of its audit, byte for byte
      const exported = await fetch(`${stack.gateway.url}/api/v1/audits/${id}/report?format=sarif`, {
        headers: { "x-api-key": owner.key },
      });
      expect(await exported.text()).toBe(sarif);
    });

    it("fails a site that misses them (exit 1), naming the site check and the page that fell short", async () => {
      const file = join(dir, "audit.xml");
      const result = await run(
        [
          "audit",
          site.url("/"),
          "--mode",
          "quick",
          "--format",
          "junit",
          "--output",
          file,
          "--min-score",
          String(overall() + 1),
          "--require-check",
          "broken-internal-links,meta-description,title",
        ],
        cli,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("Assertions: 3 errors, 0 warnings, 1 passed");
      expect(result.stderr).toContain(`overall score ${overall()} is below ${overall() + 1}`);
      expect(result.stderr).toMatch(
        /error {2}broken-internal-links\s+site check broken-internal-links: fail, expected pass: /,
      );
      expect(result.stderr).toContain(
        `check meta-description: fails on 1 of 3 pages, expected pass on every page: ${site.url("/b")}`,
      );
      const xml = await readFile(file, "utf8");
      expect(await junitProblems(xml)).toEqual([]);
      expect(xml).toContain("Findings (2 of 2):");

      const json = await run(["audit", site.url("/"), "--mode", "quick", "--json", "--require-check", "h1"], cli);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        status: "completed",
        report: { grade: audit.grade },
        assertions: [{ key: "h1", level: "error", passed: true, expected: "pass on every page" }],
      });
    });

    it("exits 3 when the audit fails, and 2 on bad usage before auditing", async () => {
      const failed = await run(["audit", down.url("/"), "--mode", "quick", "--min-score", "1"], cli);
      expect(failed.code).toBe(3);
      expect(failed.stdout).toMatch(/\(quick\): failed/);
      expect(failed.stderr).not.toContain("Assertions");
      const before = await stack.db.audit.count();
      for (const [args, message] of [
        [["audit", site.url("/"), "--require-check", "broken-links"], 'assertion "broken-links": no check has this id'],
        [["audit", site.url("/"), "--format", "pdf"], "--format must be one of"],
        [[site.url("/"), "--require-check", "broken-internal-links"], "is a site check: only an audit runs it"],
      ] as const) {
        const refused = await run([...args], cli);
        expect([args.join(" "), refused.code]).toEqual([args.join(" "), 2]);
        expect(refused.stderr).toContain(message);
      }
      expect(await stack.db.audit.count()).toBe(before);
    });
  });

  it("answers 410 to SARIF and JUnit once retention dropped the pages' checks; the report stays", async () => {
    // the audit is a year and more old: an agency plan keeps its pages' checks 365 days
    await stack.db.audit.update({
      where: { id: audit.id },
      data: { createdAt: new Date(Date.now() - 400 * 24 * 3600 * 1000) },
    });
    const pruner = createPruner({
      db: stack.db,
      days: { anonymous: 7, free: 30, starter: 90, pro: 180, agency: 365 },
      auditLogDays: { free: 400, starter: 400, pro: 400, agency: 400 },
      batchSize: 500,
      maxBatches: 5,
      log: createLogger({ service: "test", level: "silent" }),
    });
    expect((await pruner.prune()).auditPages).toBe(audit.progress.scanned);
    for (const [format, form] of [
      ["sarif", "A"],
      ["junit", "B"],
    ] as const) {
      const gone = await get(`/api/v1/audits/${audit.id}/report?format=${format}`, { "x-response-form": form });
      expect(gone.status).toBe(410);
      expect(form === "A" ? (gone.body as Json).error.code : (gone.body as Json).code).toBe(
        form === "A" ? "gone" : "CHECKS_PRUNED",
      );
    }
    expect((await get(`/api/v1/audits/${audit.id}/report?format=csv`)).status).toBe(200);
    expect(((await get(`/api/v1/audits/${audit.id}/report`)).body as Json).data).toEqual(audit.report);
  });
});
