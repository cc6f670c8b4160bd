import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { createOneTimeLinks, createUserService } from "@scan/gateway";
import { createLogger, SECRET_PARAMS } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { body, MISSING_SCAN } from "./support/accounts-api";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { gatewayRoutes } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * No password, session secret, CSRF token, API key, JWT or one-time link token reaches a log
 * line or an error body, whatever a sign-up, sign-in, token, key and reset flow goes through,
 * refusals included, with the gateway logging at debug.
 */

afterAll(() => stopContainers());

describe("secrets stay out of logs and error bodies", () => {
  let database: TestDatabase;
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: { SIGN_UP: "open", TRUST_PROXY: "1" },
      log: createLogger(
        { service: "test", level: "debug" },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(...String(chunk).split("\n").filter(Boolean));
            done();
          },
        }),
      ),
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("through sign-up, sign-in, tokens, keys, refusals, an invitation and a reset", async () => {
    const base = stack.gateway.url;
    const secrets: string[] = [];
    const errors: ApiResponse[] = [];
    const seen = (response: ApiResponse) => {
      if (response.status >= 400) errors.push(response);
      return response;
    };
    const email = freshEmail("careful");
    const newPassword = "the second passphrase here";
    secrets.push(PASSWORD, newPassword, "a wrong password guessed");

    const browser = new Browser(base);
    seen(await browser.signUp(email, PASSWORD));
    secrets.push(browser.cookie as string, browser.csrfToken as string);
    seen(await browser.signIn(email, "a wrong password guessed"));
    seen(await browser.signIn(email, PASSWORD));
    secrets.push(browser.cookie as string, browser.csrfToken as string);
    seen(await browser.send("/auth/session"));
    const token = await browser.token();
    secrets.push(token);
    const auth = { authorization: `Bearer ${token}` };
    const created = seen(await api(base, "/api/v1/keys", { headers: auth, body: { name: "ci" } }));
    const key = body(created).data.key as string;
    secrets.push(key);
    seen(await api(base, "/api/v1/keys", { headers: auth }));
    seen(await api(base, "/api/v1/account", { headers: { "x-api-key": key } }));
    seen(await api(base, "/api/v1/account", { headers: { authorization: `Bearer ${key}x` } }));
    seen(await api(base, "/api/v1/keys", { headers: { authorization: `Bearer ${token.slice(0, -2)}xx` } }));
    seen(await api(base, "/api/v1/operations", { headers: auth }));
    seen(await browser.send("/auth/token", { method: "POST", csrf: false }));
    seen(await browser.send("/auth/token", { method: "POST", origin: "https://evil.example" }));
    seen(await browser.send("/auth/password", { body: { currentPassword: "a wrong password guessed", newPassword } }));
    seen(await browser.send("/auth/password", { body: { currentPassword: PASSWORD, newPassword } }));
    // a new session: its CSRF token is read again, as the dashboard does
    seen(await browser.send("/auth/session"));
    secrets.push(browser.cookie as string, browser.csrfToken as string);
    seen(await api(base, "/api/v1/keys", { headers: auth }));
    seen(await browser.send("/auth/sign-out", { method: "POST" }));

    // the operator's one-time links, used through the endpoints
    const links = createOneTimeLinks({ db: stack.db, publicUrl: base });
    const invited = freshEmail("invited");
    const invitation = await links.invite(invited, { plan: "free", role: "member", lifetimeS: 600 });
    secrets.push(invitation.token);
    seen(await api(base, `/auth/invitations/${invitation.token}`));
    seen(await api(base, `/auth/invitations/${invitation.token.slice(0, -3)}abc`));
    seen(await new Browser(base).signUp(invited, PASSWORD, invitation.token));
    const user = await createUserService(stack.db).byEmail(email);
    const reset = await links.passwordReset(user, 600);
    secrets.push(reset.token);
    seen(await new Browser(base).send("/auth/password-reset", { body: { token: reset.token, password: "short" } }));
    seen(await new Browser(base).send("/auth/password-reset", { body: { token: reset.token, password: PASSWORD } }));
    seen(await new Browser(base).send("/auth/password-reset", { body: { token: reset.token, password: PASSWORD } }));

    // the refusals above all happened, and were answered with errors
    expect(errors.map((response) => response.status).sort()).toEqual([
      400, 400, 400, 401, 401, 401, 401, 403, 403, 403, 404,
    ]);
    // every request was logged, and nothing secret with it
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.filter((line) => JSON.parse(line).msg === "request").length).toBe(24);
    expect(lines.join("\n")).toContain("/auth/invitations/:token");
    const fragments = secrets.flatMap((secret) => [secret, secret.slice(4, 20), secret.slice(-16)]);
    const logged = lines.join("\n");
    expect(fragments.filter((fragment) => logged.includes(fragment))).toEqual([]);
    const answered = errors.map((response) => JSON.stringify(response.body)).join("\n");
    expect(fragments.filter((fragment) => answered.includes(fragment))).toEqual([]);
  }, 300_000);
});

/**
 * Every route the gateway mounts, called with every secret-bearing query parameter of the one
 * list (packages/platform/src/redact.ts) and every credential header, with made-up values and
 * with real ones; and the worker's lines about a scan whose target and callback URLs carry
 * the site's own tokens. No value reaches a log line.
 */
describe("secret query parameters and headers stay out of every log line", () => {
  let database: TestDatabase;
  let stack: Stack;
  let site: FixtureServer;
  let received: () => void;
  const hookReceived = new Promise<void>((resolve) => {
    received = resolve;
  });
  const lines: string[] = [];
  const waiting: Array<{ test: (line: string) => boolean; resolve: () => void }> = [];
  /** resolves when a line that passes `test` has been logged */
  const untilLogged = (test: (line: string) => boolean): Promise<void> =>
    lines.some(test) ? Promise.resolve() : new Promise((resolve) => waiting.push({ test, resolve }));

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": html(
        "<!doctype html><html lang=en><head><title>A page with a secret link</title></head><body></body></html>",
      ),
      "/broken": html("down", 500),
      "/hook": (req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(204).end();
          received();
        });
      },
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: {
        WEBHOOK_SECRET: "whsec-test-only-0123456789abcdef0123",
        RATE_LIMIT_ANONYMOUS: "1000000",
        RATE_LIMIT_AGENCY: "1000000",
        SCAN_WAIT_MS: "1",
      },
      log: createLogger(
        { service: "test", level: "debug" },
        new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split("\n").filter(Boolean)) {
              lines.push(line);
              for (const waiter of waiting.filter((w) => w.test(line))) {
                waiting.splice(waiting.indexOf(waiter), 1);
                waiter.resolve();
              }
            }
            done();
          },
        }),
      ),
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await site?.close();
  });

  let counter = 0;
  /** a made-up secret, unique in the run and unlike anything the service writes itself */
  const made = (label: string) =>
    `S3cr3t${label.replace(/[^a-z]/gi, "")}${++counter}q${randomBytes(9).toString("hex")}`;

  it("through every mounted route, with made-up and real credentials", async () => {
    const base = stack.gateway.url;
    const routes = gatewayRoutes(stack.gateway.server);
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const account = await createAccount(stack.db, "agency");
    const secrets: string[] = [account.key, account.token];

    // an anonymous scan's access link, used as its POST answered it
    const posted = await api(base, "/api/v1/scan", { body: { url: site.url("/page"), mode: "quick" } });
    expect(posted.status).toBe(202);
    const location = posted.headers.get("location") as string;
    const access = new URL(location, base).searchParams.get("access") as string;
    expect(access).toMatch(/^[A-Za-z0-9_-]{43}$/);
    secrets.push(access);
    expect((await api(base, location)).status).toBe(200);

    const credentialSets: Array<{ query: (name: string) => string; headers: () => Record<string, string> }> = [
      {
        query: (name) => made(name),
        headers: () => ({
          authorization: `Bearer ${made("bearer")}`,
          "proxy-authorization": `Basic ${made("proxy")}`,
          cookie: `scan_session=${made("cookie")}`,
          "x-api-key": made("apikey"),
          "x-csrf-token": made("csrf"),
        }),
      },
      {
        query: (name) => (name === "access" ? access : name === "token" ? account.token : account.key),
        headers: () => ({ authorization: `Bearer ${account.token}`, "x-api-key": account.key }),
      },
    ];
    let calls = 0;
    const failures: string[] = [];
    for (const credentials of credentialSets) {
      for (const route of routes) {
        const query = SECRET_PARAMS.map((name) => {
          const value = credentials.query(name);
          secrets.push(value);
          return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
        }).join("&");
        const headers = credentials.headers();
        for (const value of Object.values(headers)) secrets.push(value.replace(/^(Bearer|Basic) |^scan_session=/, ""));
        const pathToken = made("path");
        secrets.push(pathToken);
        const path = route.path.replace(/:token\b/g, pathToken).replace(/:[a-z]+/gi, MISSING_SCAN);
        const controller = new AbortController();
        const response = await fetch(`${base}${path}?${query}`, {
          method: route.method,
          headers: { ...headers, "content-type": "application/json", "idempotency-key": `k-${counter}` },
          body: route.method === "GET" || route.method === "HEAD" ? undefined : "{}",
          signal: controller.signal,
        });
        // an event stream (the tool server's SSE transport) stays open by design
        if (response.headers.get("content-type")?.startsWith("text/event-stream")) controller.abort();
        else await response.arrayBuffer();
        // 503 is POST /auth/token's answer when no RS256 key is configured
        if (response.status >= 500 && response.status !== 503)
          failures.push(`${route.method} ${route.path}: ${response.status}`);
        calls += 1;
      }
    }

    expect(failures).toEqual([]);

    // the worker's lines: a target that fails quoting its URL, and a callback URL with its own token
    const siteToken = made("site");
    const hookToken = made("hook");
    secrets.push(siteToken, hookToken);
    const broken = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": account.key },
      body: { url: site.url(`/broken?token=${siteToken}&X-Amz-Signature=${siteToken}`), mode: "quick" },
    });
    const hooked = await api(base, "/api/v1/scan", {
      headers: { "x-api-key": account.key },
      body: { url: site.url(`/page?session_id=${siteToken}`), callback_url: site.url(`/hook?token=${hookToken}`) },
    });
    expect([broken.status, hooked.status]).toEqual([202, 202]);
    await untilLogged((line) => line.includes("scan failed: target unreachable"));
    await hookReceived;
    await untilLogged((line) => line.includes("callback delivered"));
    // every request is logged: the routes, the anonymous POST and its read, the two scans
    await untilLogged(() => lines.filter((l) => JSON.parse(l).msg === "request").length >= calls + 4);

    const logged = lines.join("\n");
    // the lines that quote the URLs are there, with their secrets censored
    expect(logged).toContain("/api/v1/scan/");
    expect(logged).toMatch(/\?access=\[REDACTED\]/);
    expect(logged).toMatch(/answered 500/);
    expect(logged).toMatch(/\/broken\?token=\[REDACTED\]/);
    expect(logged).toMatch(/\/hook\?token=\[REDACTED\]/);
    const leaked = [...new Set(secrets)].filter(
      (secret) => logged.includes(secret) || logged.includes(secret.slice(-16)),
    );
    expect(leaked).toEqual([]);
  }, 120_000);
});
