import type { IncomingHttpHeaders } from "node:http";
import { Writable } from "node:stream";
import { createLogger, newSecretKey } from "@scan/platform";
import { createSiteAccessReader, SiteAccessError } from "@scan/worker";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * Sites behind a login (docs/sites-and-lists.md, "Sites behind a login"): credentials set
 * through the API are sealed at rest, shown by name only, sent by the worker to the site's own
 * origin and to nothing else (not a redirect's other origin, not another origin's subresource,
 * not another user's or an anonymous scan), and never written to a log.
 */

type Envelope = { ok?: boolean; success?: boolean; data?: any; error?: any; code?: string };
const body = (response: ApiResponse) => response.body as Envelope;

const TOKEN = "stg-9f1c2e7a5b3d4f60";
const SESSION = "sess-0c7d1e9b2a4f6e8d";
const PASSWORD = "pw-7a1b3c5d7e9f";
const SECRETS = [TOKEN, SESSION, PASSWORD, Buffer.from(`staff:${PASSWORD}`).toString("base64")];
const CREDENTIALS = {
  headers: { "X-Staging-Token": TOKEN },
  cookies: { session: SESSION },
  basic: { username: "staff", password: PASSWORD },
};

afterAll(() => stopContainers());

describe("sites behind a login", () => {
  let site: FixtureServer;
  let other: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let siteId: string;
  const lines: string[] = [];
  /** every request each origin received: its path and headers */
  const seen: { site: Array<[string, IncomingHttpHeaders]>; other: Array<[string, IncomingHttpHeaders]> } = {
    site: [],
    other: [],
  };

  const loggedIn = (headers: IncomingHttpHeaders) =>
    headers["x-staging-token"] === TOKEN &&
    (headers.cookie ?? "").includes(`session=${SESSION}`) &&
    headers.authorization === `Basic ${Buffer.from(`staff:${PASSWORD}`).toString("base64")}`;
  const carriesAny = (headers: IncomingHttpHeaders) =>
    SECRETS.some((secret) => JSON.stringify(headers).includes(secret));

  beforeAll(async () => {
    other = await startFixtureServer({}, (req, res) => {
      seen.other.push([req.url ?? "", req.headers]);
      res.writeHead(200, { "content-type": "application/javascript" }).end("/* another origin */");
    });
    const page = (title: string) =>
      html(`<!doctype html><html lang="en"><head><title>${title}</title>
        <script src="${other.url("/widget.js")}"></script></head>
        <body><h1>${title}</h1><script src="/app.js"></script><script src="/bounce.js"></script><p>Members only.</p></body></html>`);
    const wall = html("<!doctype html><title>Sign in</title><h1>Sign in</h1>", 401);
    site = await startFixtureServer({}, (req, res) => {
      seen.site.push([req.url ?? "", req.headers]);
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/bounce.js") {
        res.writeHead(302, { location: other.url("/bounced.js") }).end();
        return;
      }
      if (path === "/leave") {
        res.writeHead(302, { location: other.url("/landing") }).end();
        return;
      }
      if (!loggedIn(req.headers)) return wall(req, res);
      if (path === "/robots.txt") return text("User-agent: *\nAllow: /\n")(req, res);
      if (path === "/app.js") {
        res.writeHead(200, { "content-type": "application/javascript" }).end("document.title += '';");
        return;
      }
      return page("Members' area")(req, res);
    });
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, other.hostPort],
      env: { SITE_SECRETS_KEY: newSecretKey(), SCAN_WAIT_MS: "25000", RATE_LIMIT_FREE: "1000" },
      log: createLogger({ service: "test", level: "debug" }, sink),
    });
    owner = await createAccount(stack.db);
    const created = await call("/api/v1/sites", owner, { body: { url: site.url("/") } });
    expect(created.status).toBe(201);
    siteId = body(created).data.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await other?.close();
    await database?.drop();
  });

  const call = (
    path: string,
    account: TestAccount | null,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    api(stack.gateway.url, path, {
      ...init,
      headers: { ...(account ? { "x-api-key": account.key } : {}), ...init.headers },
    });

  const scan = async (account: TestAccount | null, path: string, mode: "quick" | "full" = "full") => {
    seen.site.length = 0;
    seen.other.length = 0;
    const response = await call("/api/v1/scan", account, { body: { url: site.url(path), mode } });
    expect(response.status).toBe(200);
    return body(response).data;
  };

  it("stores the credentials sealed, and shows their names, never a value", async () => {
    const set = await call(`/api/v1/sites/${siteId}/credentials`, owner, { method: "PUT", body: CREDENTIALS });
    expect(set.status).toBe(200);
    expect(set.headers.get("cache-control")).toBe("no-store");
    expect(body(set)).toEqual({
      ok: true,
      data: { headers: ["X-Staging-Token"], cookies: ["session"], basic: true, updated_at: expect.any(String) },
      meta: expect.any(Object),
    });
    const shown = await call(`/api/v1/sites/${siteId}/credentials`, owner, { headers: { "x-response-form": "B" } });
    expect(body(shown)).toEqual({ success: true, data: body(set).data });
    const row = await stack.db.site.findUniqueOrThrow({ where: { id: siteId } });
    expect(row.credentialsSealed).toMatch(/^v1\.[0-9a-f]{16}\./);
    // names and values alike are sealed; the answers name what is set, and hold no value
    for (const secret of [...SECRETS, "staff", "X-Staging-Token"]) expect(row.credentialsSealed).not.toContain(secret);
    for (const secret of [...SECRETS, "staff"]) expect(JSON.stringify([body(set), body(shown)])).not.toContain(secret);
    // another user's key finds no such site
    const stranger = await createAccount(stack.db);
    const theirs = await call(`/api/v1/sites/${siteId}/credentials`, stranger);
    expect(theirs.status).toBe(404);
    expect(
      (await call(`/api/v1/sites/${siteId}/credentials`, stranger, { method: "PUT", body: CREDENTIALS })).status,
    ).toBe(404);
  });

  it("sends them with every request of the site's own origin, the render's subresources included", async () => {
    const result = await scan(owner, "/");
    expect(result.checks.find((check: { id: string }) => check.id === "http-status")?.status).toBe("pass");
    const paths = seen.site.map(([path]) => path);
    expect(paths).toEqual(expect.arrayContaining(["/", "/robots.txt", "/llms.txt", "/sitemap.xml", "/app.js"]));
    for (const [path, headers] of seen.site) {
      expect([path, loggedIn(headers)]).toEqual([path, true]);
    }
    // the script of another origin was fetched without them, and so was the target of a
    // same-origin script's redirect to another origin
    expect(seen.other.map(([path]) => path)).toEqual(expect.arrayContaining(["/widget.js", "/bounced.js"]));
    for (const [, headers] of seen.other) expect(carriesAny(headers)).toBe(false);
  });

  it("does not follow a redirect to another origin with them", async () => {
    const result = await scan(owner, "/leave", "quick");
    expect(result.finalUrl).toBe(other.url("/landing"));
    expect(seen.site.map(([path, headers]) => [path, loggedIn(headers)])).toContainEqual(["/leave", true]);
    expect(seen.other.length).toBeGreaterThan(0);
    for (const [, headers] of seen.other) expect(carriesAny(headers)).toBe(false);
  });

  it("sends nothing for an anonymous scan or another user's scan of the same site", async () => {
    await scan(null, "/", "quick");
    expect(seen.site.length).toBeGreaterThan(0);
    for (const [, headers] of seen.site) expect(carriesAny(headers)).toBe(false);
    const stranger = await createAccount(stack.db);
    const theirs = await scan(stranger, "/", "quick");
    expect(theirs.checks.find((check: { id: string }) => check.id === "http-status")?.status).toBe("fail");
    for (const [, headers] of seen.site) expect(carriesAny(headers)).toBe(false);
  });

  it("refuses credentials that could inject or impersonate, naming the field but never echoing a value", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ headers: { Host: "evil.example" } }, /Host cannot be set: the host is the site's/],
      [{ headers: { "User-Agent": "x" } }, /User-Agent cannot be set/],
      [{ headers: { Authorization: `Bearer ${TOKEN}` } }, /Authorization cannot be set/],
      [{ headers: { "X-A": `a\r\nX-Injected: ${TOKEN}` } }, /headers\.X-A: header values are visible ASCII/],
      [{ headers: { "Bad Name": "x" } }, /header names are RFC 9110 tokens/],
      [{ cookies: { session: `${SESSION}; other=1` } }, /cookies\.session: cookie values are RFC 6265 cookie-octets/],
      [{ basic: { username: "a:b", password: PASSWORD } }, /basic\.username: has no colon/],
      [{}, /give at least one of headers, cookies or basic/],
      [{ headers: {}, token: TOKEN }, /unknown field "token"/],
    ];
    for (const [input, message] of cases) {
      const a = await call(`/api/v1/sites/${siteId}/credentials`, owner, { method: "PUT", body: input });
      expect([JSON.stringify(input), a.status]).toEqual([JSON.stringify(input), 400]);
      expect(body(a).error.message).toMatch(message);
      for (const secret of SECRETS) expect(JSON.stringify(body(a))).not.toContain(secret);
      const b = await call(`/api/v1/sites/${siteId}/credentials`, owner, {
        method: "PUT",
        body: input,
        headers: { "x-response-form": "B" },
      });
      expect(body(b)).toEqual({ error: expect.stringMatching(message), code: "VALIDATION_ERROR" });
    }
    // the stored credentials are untouched by refused changes
    const shown = await call(`/api/v1/sites/${siteId}/credentials`, owner);
    expect(body(shown).data).toEqual(expect.objectContaining({ headers: ["X-Staging-Token"], basic: true }));
  });

  it("fails a scan whose worker cannot open them rather than scan the login wall", async () => {
    const made = await call("/api/v1/scan", owner, {
      body: { url: site.url("/"), mode: "quick" },
      headers: { prefer: "respond-async" },
    });
    const id = body(made).data.id;
    const reader = createSiteAccessReader({ db: stack.db, box: null }).forScan;
    await expect(reader(id)).rejects.toThrow(SiteAccessError);
    await expect(reader(id)).rejects.toThrow(/cannot read them \(SITE_SECRETS_KEY is not set on the worker\)/);
    // this worker has the key: the scan completes, before the next test counts requests
    for (let i = 0; i < 400; i++) {
      const row = await stack.db.scan.findUniqueOrThrow({ where: { id } });
      if (row.status === "completed" || row.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });

  it("never writes a credential to a log line", () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of SECRETS) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it("removes them: later scans send none, and reading them is 404", async () => {
    const removed = await call(`/api/v1/sites/${siteId}/credentials`, owner, { method: "DELETE" });
    expect(body(removed)).toEqual({ ok: true, data: { id: siteId, deleted: true }, meta: expect.any(Object) });
    expect((await stack.db.site.findUniqueOrThrow({ where: { id: siteId } })).credentialsSealed).toBeNull();
    const shown = await call(`/api/v1/sites/${siteId}/credentials`, owner);
    expect(shown.status).toBe(404);
    expect(body(shown).error.message).toBe(`Site ${siteId} has no credentials`);
    await scan(owner, "/", "quick");
    for (const [, headers] of seen.site) expect(carriesAny(headers)).toBe(false);
    expect((await call(`/api/v1/sites/${siteId}/credentials`, owner, { method: "DELETE" })).status).toBe(404);
  });
});

describe("a service without SITE_SECRETS_KEY", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["127.0.0.1:9"],
      worker: false,
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("answers 503 naming the setting, in both forms", async () => {
    const account = await createAccount(stack.db);
    const created = await api(stack.gateway.url, "/api/v1/sites", {
      body: { url: "http://127.0.0.1:9/" },
      headers: { "x-api-key": account.key },
    });
    const id = body(created).data.id;
    const a = await api(stack.gateway.url, `/api/v1/sites/${id}/credentials`, {
      method: "PUT",
      body: CREDENTIALS,
      headers: { "x-api-key": account.key },
    });
    expect(a.status).toBe(503);
    expect(body(a).error).toEqual(
      expect.objectContaining({ code: "service_unavailable", hint: expect.stringMatching(/SITE_SECRETS_KEY/) }),
    );
    const b = await api(stack.gateway.url, `/api/v1/sites/${id}/credentials`, {
      method: "PUT",
      body: CREDENTIALS,
      headers: { "x-api-key": account.key, "x-response-form": "B" },
    });
    expect(b.status).toBe(503);
    expect(body(b).code).toBe("SERVICE_UNAVAILABLE");
  });
});
