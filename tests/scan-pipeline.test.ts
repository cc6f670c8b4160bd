import { CHECK_EVIDENCE, scoreChecks } from "@scan/checks";
import { CheckEvidence } from "@scan/contract";
import { createAccount } from "./support/accounts";
import { type FixtureServer, hang, html, startFixtureServer, text } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

const GOOD_PAGE = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Scanning pages for answer engines, explained</title>
<meta name="description" content="How a scanner judges a page for search and answer engines: titles, descriptions, headings, structured data and more, in one pass.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="PAGE_URL">
</head><body>
<main><h1>Scanning pages for answer engines</h1>
<p>A scan reads the page once and judges it against a catalogue of checks.</p>
<h2>What does a scan look at?</h2><p>Titles, descriptions, headings, links and structured data.</p>
</main></body></html>`;

// a client-rendered app: the served HTML has no title or heading until its script runs
const APP_SHELL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head>
<body><div id="root"></div><script>
document.title = "Built in the browser by the page's own script";
document.getElementById("root").innerHTML = "<main><h1>Rendered heading</h1><p>Made by script.</p></main>";
</script></body></html>`;

const NO_TITLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head>
<body><h1>A page without a title</h1><p>Nothing to see.</p></body></html>`;

type Envelope = { ok?: boolean; success?: boolean; data?: any; meta?: any; error?: any; code?: string };

/** These tests scan many times from one address, anonymously, and poll with one key. */
const HIGH_LIMITS = { RATE_LIMIT_ANONYMOUS: "100000", RATE_LIMIT_FREE: "100000" };
const body = (response: { body: unknown }) => response.body as Envelope;

describe("scan pipeline: gateway → queue → Chromium worker → Postgres", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let withKey: Record<string, string>;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/good": (req, res) => html(GOOD_PAGE.replace("PAGE_URL", `http://${req.headers.host}/good`))(req, res),
      "/no-title": html(NO_TITLE_PAGE),
      "/app": html(APP_SHELL_PAGE),
      "/hang": hang,
      "/broken": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SCAN_TIMEOUT_MS: "3000", SCAN_WAIT_MS: "20000", ...HIGH_LIMITS },
    });
    base = stack.gateway.url;
    withKey = { "x-api-key": (await createAccount(stack.db)).key };
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  const verdicts = (data: { checks: Array<{ id: string; status: string }> }) =>
    Object.fromEntries(data.checks.map((c) => [c.id, c.status]));

  it("scans a local page and answers the result in Form A", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: site.url("/good"), mode: "quick" } });
    expect(response.status).toBe(200);
    const { ok, success, data, meta } = body(response);
    expect(ok).toBe(true);
    expect(success).toBe(true);
    expect(meta.requestId).toEqual(expect.any(String));
    expect(data.url).toBe(site.url("/good"));
    expect(data.mode).toBe("quick");
    expect(data.scores).toEqual({
      seo: expect.any(Number),
      aeo: expect.any(Number),
      geo: expect.any(Number),
      overall: expect.any(Number),
      total: data.scores.overall,
    });
    expect(data.grade).toMatch(/^(A\+|A|B\+|B|C|D|F)$/);
    expect(Number.isNaN(Date.parse(data.scannedAt))).toBe(false);
    expect(data.duration).toEqual(expect.any(Number));
    const v = verdicts(data);
    expect(v.title).toBe("pass");
    for (const id of ["http-status", "meta-description", "h1", "canonical", "lang", "viewport", "indexable"]) {
      if (id in v) expect([id, v[id]]).toEqual([id, "pass"]);
    }
    for (const check of data.checks) {
      expect(check).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          category: expect.stringMatching(/^(seo|aeo|geo)$/),
          status: expect.stringMatching(/^(pass|warn|fail|skip)$/),
          score: expect.any(Number),
          maxScore: expect.any(Number),
          title: expect.any(String),
          description: expect.any(String),
          evidence: expect.objectContaining({
            grade: expect.stringMatching(/^(documented|peer_reviewed|industry_study|convention)$/),
          }),
        }),
      );
      expect(CheckEvidence.parse(check.evidence)).toEqual(CHECK_EVIDENCE[check.id]);
    }
    // the stored scores are the catalogue's weighing of these results: conventions count for nothing
    expect(scoreChecks(data.checks).scores).toEqual(data.scores);
  });

  it("fails the title check on a page without a title, and stores the scan", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: site.url("/no-title"), mode: "quick" } });
    expect(response.status).toBe(200);
    const { data } = body(response);
    expect(verdicts(data).title).toBe("fail");

    // an anonymous caller is told where the scan can be read again: a link with its access token
    const link = response.headers.get("content-location") as string;
    expect(link).toMatch(new RegExp(`^/api/v1/scan/${data.id}\\?access=[A-Za-z0-9_-]{43}$`));
    const stored = await api(base, link);
    expect(stored.status).toBe(200);
    const storedData = body(stored).data;
    expect(storedData).toEqual(
      expect.objectContaining({
        id: data.id,
        url: site.url("/no-title"),
        status: "completed",
        scores: {
          seo: data.scores.seo,
          aeo: data.scores.aeo,
          geo: data.scores.geo,
          overall: data.scores.overall,
          total: data.scores.overall,
        },
        duration_ms: expect.any(Number),
        created_at: expect.any(String),
      }),
    );
    expect(storedData.issues).toEqual({
      critical: expect.any(Number),
      warning: expect.any(Number),
      info: expect.any(Number),
    });
    expect(storedData.issues.critical).toBeGreaterThanOrEqual(1);
  });

  it("judges a server-rendered page on its served HTML in a quick scan, and renders it in a full scan", async () => {
    const quickResponse = await api(base, "/api/v1/scan", { body: { url: site.url("/good"), mode: "quick" } });
    const quick = body(quickResponse).data;
    expect(quick.rendered).toBe(false);
    const full = body(await api(base, "/api/v1/scan", { body: { url: site.url("/good"), mode: "full" } })).data;
    expect(full.rendered).toBe(true);
    const stored = body(await api(base, quickResponse.headers.get("content-location") as string)).data;
    expect(stored.rendered).toBe(false);
  });

  it("renders a client-rendered page in a quick scan and judges what its script built", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: site.url("/app"), mode: "quick" } });
    expect(response.status).toBe(200);
    const { data } = body(response);
    expect(data.rendered).toBe(true);
    expect(verdicts(data)).toEqual(expect.objectContaining({ title: "pass", h1: "pass" }));
  });

  it("round-trips Form B", async () => {
    const response = await api(base, "/api/v1/scan", {
      body: { url: site.url("/good"), mode: "quick" },
      headers: { "x-response-form": "b" },
    });
    expect(response.status).toBe(200);
    const envelope = body(response);
    expect(envelope.success).toBe(true);
    expect(envelope.ok).toBeUndefined();
    expect(envelope.meta).toBeUndefined();
    expect(envelope.data.grade).toEqual(expect.any(String));
    expect(envelope.data.scores.total).toBe(envelope.data.scores.overall);
    expect(envelope.data.duration).toEqual(expect.any(Number));
    for (const check of envelope.data.checks) {
      expect(Object.keys(check)).toEqual(
        expect.arrayContaining(["id", "category", "status", "score", "maxScore", "title", "description", "evidence"]),
      );
      expect(check.evidence.grade).toBe(CHECK_EVIDENCE[check.id]?.grade);
    }
  });

  it("runs the full catalogue by default", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: site.url("/good") } });
    expect(response.status).toBe(200);
    const { data } = body(response);
    expect(data.mode).toBe("full");
    expect(data.checks.length).toBeGreaterThanOrEqual(
      body(await api(base, "/api/v1/scan", { body: { url: site.url("/good"), mode: "quick" } })).data.checks.length,
    );
  });

  it("answers 502 upstream_failure for a target that never answers, not a 202 for a scan still waiting", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: site.url("/hang"), mode: "quick" } });
    expect(response.status).toBe(502);
    expect(body(response).error.code).toBe("upstream_failure");
    const failed = await stack.db.scan.findFirst({ where: { url: site.url("/hang") } });
    expect(failed?.status).toBe("failed");
    expect(failed?.errorMessage).toMatch(/did not answer/);
  });

  it("answers 502 in both forms for a target that answers 5xx", async () => {
    const a = await api(base, "/api/v1/scan", { body: { url: site.url("/broken"), mode: "quick" } });
    expect(a.status).toBe(502);
    expect(body(a).error).toEqual({
      code: "upstream_failure",
      message: expect.stringContaining("503"),
      hint: expect.any(String),
    });
    const b = await api(base, "/api/v1/scan", {
      body: { url: site.url("/broken"), mode: "quick" },
      headers: { "X-Response-Form": "B" },
    });
    expect(b.status).toBe(502);
    expect(body(b)).toEqual({ error: expect.stringContaining("503"), code: "UPSTREAM_FAILURE" });
  });

  it("refuses private targets that are not allowlisted", async () => {
    const response = await api(base, "/api/v1/scan", { body: { url: "http://127.0.0.1:1/", mode: "quick" } });
    expect(response.status).toBe(400);
    expect(body(response).error.code).toBe("invalid_request");
    const b = await api(base, "/api/v1/scan", {
      body: { url: "http://169.254.169.254/latest/meta-data/" },
      headers: { "x-response-form": "B" },
    });
    expect(body(b)).toEqual({ error: expect.stringMatching(/private or reserved/), code: "VALIDATION_ERROR" });
  });

  it("answers 404 not_found for an unknown scan and 400 for a non-UUID id", async () => {
    const missing = await api(base, "/api/v1/scan/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11", { headers: withKey });
    expect(missing.status).toBe(404);
    expect(body(missing).error.code).toBe("not_found");
    const missingB = await api(base, "/api/v1/scan/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11", {
      headers: { "x-response-form": "B", ...withKey },
    });
    expect(body(missingB)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
    const bad = await api(base, "/api/v1/scan/not-a-uuid", { headers: withKey });
    expect(bad.status).toBe(400);
    expect(body(bad).error.code).toBe("invalid_request");
  });

  describe("bad requests, in both forms", () => {
    it.each([
      ["A", { ok: false, error: { code: "invalid_request", message: expect.any(String), hint: expect.any(String) } }],
      ["B", { error: expect.any(String), code: "INVALID_JSON" }],
    ])("malformed JSON in Form %s", async (form, expected) => {
      const response = await api(base, "/api/v1/scan", {
        rawBody: '{"url": "https://exa',
        headers: { "x-response-form": form },
      });
      expect(response.status).toBe(400);
      expect(body(response)).toEqual(expected);
    });

    it.each([
      [{}, /url/],
      [{ url: 42 }, /url/],
      [{ url: "https://example.com", mode: "slow" }, /mode/],
      [{ url: "ftp://example.com/" }, /scheme/],
      [{ url: "https://example.com", extra: true }, /extra/],
    ])("invalid fields %j give 400 invalid_request / VALIDATION_ERROR", async (payload, message) => {
      const a = await api(base, "/api/v1/scan", { body: payload });
      expect(a.status).toBe(400);
      expect(body(a).error).toEqual({
        code: "invalid_request",
        message: expect.stringMatching(message),
        hint: expect.any(String),
      });
      const b = await api(base, "/api/v1/scan", { body: payload, headers: { "x-response-form": "B" } });
      expect(b.status).toBe(400);
      expect(body(b)).toEqual({
        error: expect.stringMatching(message),
        code: "VALIDATION_ERROR",
      });
    });

    it("takes a URL without a scheme in Form B only", async () => {
      const a = await api(base, "/api/v1/scan", { body: { url: `${site.hostPort}/good`, mode: "quick" } });
      expect(a.status).toBe(400);
      expect(body(a).error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/absolute/) });
      // no scheme means https; the fixture server speaks http, so the scan itself fails upstream
      const b = await api(base, "/api/v1/scan", {
        body: { url: `${site.hostPort}/good`, mode: "quick" },
        headers: { "x-response-form": "B" },
      });
      expect(b.status).toBe(502);
      expect(body(b).code).toBe("UPSTREAM_FAILURE");
      const stored = await stack.db.scan.findFirst({ where: { url: `https://${site.hostPort}/good` } });
      expect(stored?.status).toBe("failed");
    });

    it("a body that is not JSON at all is a 400", async () => {
      const response = await api(base, "/api/v1/scan", {
        rawBody: "url=https://example.com",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status).toBe(400);
      expect(body(response).error.code).toBe("invalid_request");
    });

    it("an oversize body is 413 in the selected envelope", async () => {
      const payload = JSON.stringify({ url: `https://example.com/${"a".repeat(200 * 1024)}` });
      const a = await api(base, "/api/v1/scan", { rawBody: payload });
      expect(a.status).toBe(413);
      expect(body(a).error.code).toBe("payload_too_large");
      const b = await api(base, "/api/v1/scan", { rawBody: payload, headers: { "x-response-form": "B" } });
      expect(b.status).toBe(413);
      expect(body(b)).toEqual({ error: expect.any(String), code: "PAYLOAD_TOO_LARGE" });
    });

    it("an unknown route is 404 and a wrong method 405, in the selected envelope", async () => {
      const unknown = await api(base, "/api/v1/nothing-here", { headers: withKey });
      expect(unknown.status).toBe(404);
      expect(body(unknown).error.code).toBe("not_found");
      const unknownB = await api(base, "/nope", { headers: { "x-response-form": "B" } });
      expect(body(unknownB)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
      const wrong = await api(base, "/api/v1/scan", { method: "GET" });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("POST");
      expect(body(wrong).error.code).toBe("method_not_allowed");
      const wrongB = await api(base, "/api/v1/scan/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11", {
        method: "DELETE",
        headers: { "x-response-form": "B", ...withKey },
      });
      expect(wrongB.status).toBe(405);
      expect(body(wrongB)).toEqual({ error: expect.any(String), code: "METHOD_NOT_ALLOWED" });
    });
  });

  it("a client that disconnects stops the wait, not the scan", async () => {
    const controller = new AbortController();
    const request = fetch(`${base}/api/v1/scan`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "disconnect-test", ...withKey },
      body: JSON.stringify({ url: site.url("/good"), mode: "quick" }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // abort once the scan row exists
    let row = null;
    for (let i = 0; i < 200 && !row; i++) {
      row = await stack.db.scan.findFirst({ where: { requestId: "disconnect-test" } });
      if (!row) await new Promise((r) => setTimeout(r, 10));
    }
    controller.abort();
    await request;
    expect(row).not.toBeNull();
    const done = await waitForTerminal(base, `/api/v1/scan/${row!.id}`, withKey);
    expect(done.status).toBe("completed");
  });
});

describe("scan pipeline: budget exhausted", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    site = await startFixtureServer({ "/page": html(GOOD_PAGE.replace("PAGE_URL", "http://127.0.0.1/page")) });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SCAN_WAIT_MS: "1", ...HIGH_LIMITS },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  it("answers 202 with Location when the wait budget runs out, and the scan still completes", async () => {
    const response = await api(stack.gateway.url, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } });
    expect(response.status).toBe(202);
    const { data } = body(response);
    expect(data).toEqual({
      id: expect.any(String),
      url: site.url("/page"),
      mode: "quick",
      status: expect.stringMatching(/^(queued|running)$/),
    });
    const location = response.headers.get("location") as string;
    expect(location).toMatch(new RegExp(`^/api/v1/scan/${data.id}\\?access=[A-Za-z0-9_-]{43}$`));
    const done = await waitForTerminal(stack.gateway.url, location, {});
    expect(done.status).toBe("completed");
    expect(done.scores.overall).toEqual(expect.any(Number));
  });
});

/** Polls the stored scan until it finishes; bounded, so a stuck scan fails the test. */
const waitForTerminal = async (base: string, path: string, headers: Record<string, string>): Promise<any> => {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const response = await api(base, path, { headers });
    const data = (response.body as Envelope).data;
    if (data.status === "completed" || data.status === "failed") return data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`scan ${path} did not finish`);
};
