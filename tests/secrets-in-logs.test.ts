import { Writable } from "node:stream";
import { createOneTimeLinks, createUserService } from "@scan/gateway";
import { createLogger } from "@scan/platform";
import { body } from "./support/accounts-api";
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
