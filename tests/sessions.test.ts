import { Client } from "pg";
import { createAccount } from "./support/accounts";
import { type AccountsApi, body, expectRateHeaders, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";
import { Browser, freshEmail, invitationToken, PASSWORD, SESSION_COOKIE, setCookies } from "./support/sessions";
import type { ApiResponse } from "./support/stack";

/**
 * The dashboard's sessions (docs/authentication.md, Dashboard sign-in and sessions): open
 * sign-up, sign-in and its one answer for every wrong pair, the cookie's flags, rotation,
 * sign-out, the session's JWTs on /api/v1 and their death with the session, password change,
 * idle and absolute ends, the CSRF defence, and what is stored of a password.
 */

// containers (when testcontainers provides the services) outlive every describe of the file
afterAll(() => stopContainers());

const ENV = {
  SIGN_UP: "open",
  SESSION_IDLE_S: "3600",
  SESSION_MAX_S: "86400",
  SIGN_IN_LIMIT_ACCOUNT: "3",
  SIGN_IN_LIMIT_ADDRESS: "5",
  SIGN_IN_WINDOW_S: "600",
};

const sessionCookie = (response: ApiResponse) => setCookies(response).find((cookie) => cookie.name === SESSION_COOKIE);

describe("dashboard sessions", () => {
  let ctx: AccountsApi;
  let pg: Client;
  let base: string;
  const browser = () => new Browser(base);

  /** A browser signed up with a fresh email, and that email. */
  const signedUp = async () => {
    const user = browser();
    const email = freshEmail();
    const response = await user.signUp(email, PASSWORD);
    expect(response.status).toBe(201);
    return { user, email, response };
  };

  beforeAll(async () => {
    ctx = await startAccountsApi(ENV);
    base = ctx.stack.gateway.url;
    pg = new Client({ connectionString: ctx.database.url });
    await pg.connect();
  }, 300_000);

  afterAll(async () => {
    await pg?.end();
    await ctx?.close();
  });

  describe("sign-up, open", () => {
    it("makes the account, signs it in and answers the session; the password is kept as argon2id", async () => {
      const { user, email, response } = await signedUp();
      expect(body(response)).toEqual({
        ok: true,
        data: {
          user: { id: expect.any(String), email, role: "member", plan: "free" },
          csrfToken: expect.any(String),
          expiresAt: expect.any(String),
        },
        meta: { requestId: expect.any(String) },
      });
      expect(response.headers.get("cache-control")).toBe("no-store");
      const session = await user.send("/auth/session");
      expect(session.status).toBe(200);
      expect(body(session).data.user.email).toBe(email);
      expect(body(session).data.csrfToken).toBe(body(response).data.csrfToken);

      const { rows } = await pg.query("SELECT password_hash FROM users WHERE email = $1", [email]);
      expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
      expect(rows[0].password_hash).not.toContain(PASSWORD);
      // the cookie's secret is kept only as its SHA-256
      const stored = await pg.query(
        "SELECT token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1",
        [email],
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.rows[0].token_hash).not.toContain(user.cookie);
    });

    it("refuses a short password, and an email that already has an account without saying more", async () => {
      const short = await browser().signUp(freshEmail(), "too short");
      expect(short.status).toBe(400);
      expect(body(short).error).toEqual({
        code: "invalid_request",
        message: "password: password must be at least 12 characters",
        hint: expect.any(String),
      });
      const { email } = await signedUp();
      const again = await browser().signUp(email.toUpperCase(), `${PASSWORD} again`);
      expect(again.status).toBe(400);
      expect(body(again).error.message).toBe("An account cannot be made with this email address");
      expect(sessionCookie(again)).toBeUndefined();
    });
  });

  describe("the cookie", () => {
    it("is HttpOnly, SameSite=Lax and Path=/, without Secure on loopback, ending with the session", async () => {
      const { response } = await signedUp();
      const cookie = sessionCookie(response);
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie?.attributes.has("httponly")).toBe(true);
      expect(cookie?.attributes.get("samesite")).toBe("Lax");
      expect(cookie?.attributes.get("path")).toBe("/");
      expect(cookie?.attributes.has("secure")).toBe(false);
      const expires = Date.parse(cookie?.attributes.get("expires") ?? "");
      expect(expires).toBeGreaterThan(Date.now() + 86_400_000 - 120_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1_000);
    });

    it("is Secure when the browser reached the gateway by another name or over HTTPS (through the trusted proxy)", async () => {
      const email = freshEmail();
      await browser().signUp(email, PASSWORD);
      for (const headers of <Array<Record<string, string>>>[
        { "x-forwarded-host": "scan.example.com", origin: "http://scan.example.com" },
        { "x-forwarded-proto": "https", origin: `https://${new URL(base).host}` },
      ]) {
        const response = await browser().send("/auth/sign-in", { body: { email, password: PASSWORD }, headers });
        expect(response.status).toBe(200);
        expect(sessionCookie(response)?.attributes.has("secure")).toBe(true);
        expect(sessionCookie(response)?.attributes.has("httponly")).toBe(true);
      }
    });
  });

  describe("sign-in", () => {
    it("starts a new session at every sign-in and ends the one the browser held (rotation)", async () => {
      const { user, email } = await signedUp();
      const before = user.cookie;
      const csrfBefore = user.csrfToken;
      const again = await user.signIn(email, PASSWORD);
      expect(again.status).toBe(200);
      expect(body(again).data.user.email).toBe(email);
      expect(user.cookie).not.toBe(before);
      expect(user.csrfToken).not.toBe(csrfBefore);
      expect((await user.send("/auth/session")).status).toBe(200);
      const old = new Browser(base);
      old.cookie = before;
      const refused = await old.send("/auth/session");
      expect(refused.status).toBe(401);
      expect(body(refused).error.code).toBe("unauthenticated");
    });

    it("answers a wrong password and an unknown email alike, with 401", async () => {
      const { email } = await signedUp();
      const wrong = await browser().signIn(email, `${PASSWORD}!`);
      const unknown = await browser().signIn(freshEmail("nobody"), PASSWORD);
      for (const response of [wrong, unknown]) {
        expect(response.status).toBe(401);
        expect(sessionCookie(response)).toBeUndefined();
      }
      expect(body(wrong)).toEqual(body(unknown));
      expect(body(wrong).error).toEqual({
        code: "unauthenticated",
        message: "The email or password is not right",
        hint: expect.any(String),
      });
    });

    it("is throttled per account, from any address, with the API's headers; a success clears the count", async () => {
      const { email } = await signedUp();
      const attempt = (password: string) => browser().signIn(email, password);
      const first = await attempt("wrong password 1");
      expect(first.status).toBe(401);
      expect(first.headers.get("x-ratelimit-limit")).toBe("3");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
      // the right password clears the failures
      expect((await attempt(PASSWORD)).status).toBe(200);
      for (const n of [1, 2, 3]) expect([n, (await attempt(`wrong password ${n}`)).status]).toEqual([n, 401]);
      const refused = await attempt(PASSWORD);
      expect(refused.status).toBe(429);
      expect(body(refused).error).toEqual({
        code: "rate_limited",
        message: "Too many sign-in attempts for this account",
        hint: expect.stringMatching(/^Try again in about \d+ minutes\.$/),
      });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      expect(sessionCookie(refused)).toBeUndefined();
      // another account is not held back
      const other = await signedUp();
      expect((await browser().signIn(other.email, PASSWORD)).status).toBe(200);
    });

    it("is throttled per address, whatever the accounts tried", async () => {
      const from = browser();
      for (let n = 1; n <= 5; n += 1) {
        const response = await from.signIn(freshEmail("guess"), PASSWORD);
        expect([n, response.status]).toEqual([n, 401]);
        // the stricter of the two counters shows: each fresh account has 2 attempts left after this one
        expect(response.headers.get("x-ratelimit-remaining")).toBe(String(Math.min(5 - n, 2)));
      }
      const refused = await from.signIn(freshEmail("guess"), PASSWORD);
      expect(refused.status).toBe(429);
      expect(body(refused).error.message).toBe("Too many attempts from this address");
      expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // sign-up and resets from that address wait too
      expect((await from.signUp(freshEmail(), PASSWORD)).status).toBe(429);
    });

    it("lets a user made by the accounts CLI in only once a password is set", async () => {
      const account = await createAccount(ctx.stack.db);
      const refused = await browser().signIn(account.user.email, PASSWORD);
      expect(refused.status).toBe(401);
      expect(body(refused).error.message).toBe("The email or password is not right");
    });
  });

  describe("sign-out", () => {
    it("ends the session, clears the cookie, and the session's JWTs are refused from then on", async () => {
      const { user } = await signedUp();
      const token = await user.token();
      const held = user.cookie;
      expect((await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const out = await user.send("/auth/sign-out", { method: "POST" });
      expect(out.status).toBe(204);
      const cleared = sessionCookie(out);
      expect(cleared?.value).toBe("");
      expect(cleared?.attributes.get("max-age")).toBe("0");
      const old = new Browser(base);
      old.cookie = held;
      expect((await old.send("/auth/session")).status).toBe(401);
      const refused = await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(401);
      expect(body(refused).error.message).toBe("The session this token was issued for has ended");
      const keys = await ctx.call("/api/v1/keys", { headers: { authorization: `Bearer ${token}` } });
      expect(keys.status).toBe(401);
    });

    it("without a live session is still 204 and clears the cookie", async () => {
      const response = await browser().send("/auth/sign-out", { method: "POST" });
      expect(response.status).toBe(204);
      expect(sessionCookie(response)?.attributes.get("max-age")).toBe("0");
    });
  });

  describe("the session's JWT", () => {
    it("is short-lived, carries the session's id, and works on every /api/v1 endpoint as the user", async () => {
      const { user, email } = await signedUp();
      const response = await user.send("/auth/token", { method: "POST" });
      expect(response.status).toBe(200);
      const { token, expiresAt } = body(response).data;
      const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
      const { rows } = await pg.query(
        "SELECT s.id, s.user_id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.revoked_at IS NULL",
        [email],
      );
      expect(claims).toEqual(
        expect.objectContaining({ sub: rows[0].user_id, sid: rows[0].id, email, exp: expect.any(Number) }),
      );
      expect(claims.exp - claims.iat).toBe(300);
      expect(Date.parse(expiresAt)).toBe(claims.exp * 1000);
      expect(JSON.stringify(claims)).not.toContain(user.cookie);

      const auth = { authorization: `Bearer ${token}` };
      const account = await ctx.call("/api/v1/account", { headers: auth });
      expect(account.status).toBe(200);
      // a read is counted on the session's own budget; the account shows the plan's window
      expectRateHeaders(account, 3_600);
      expect(body(account).data.rateLimit).toMatchObject({ limit: 10, remaining: 10 });
      const created = await ctx.call("/api/v1/keys", { headers: auth, body: { name: "from the dashboard" } });
      expect(created.status).toBe(201);
      // a change is counted per user, at the user's plan's limit
      expectRateHeaders(created, 10);
      expect(created.headers.get("x-ratelimit-remaining")).toBe("9");
      const scans = await ctx.call("/api/v1/scans", { headers: auth });
      expect(scans.status).toBe(200);
      const scan = await ctx.scanWith(auth);
      expect(scan.status).toBe(202);
      const row = await ctx.stack.db.scan.findUniqueOrThrow({ where: { id: body(scan).data.id } });
      expect(row.userId).toBe(rows[0].user_id);
      expect(row.apiKeyId).toBeNull();
    });

    it("is refused where it is not the user's: the accounts CLI's JWTs still open only the key endpoints", async () => {
      const account = await createAccount(ctx.stack.db);
      const refused = await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${account.token}` } });
      expect(refused.status).toBe(401);
      expect(body(refused).error.message).toMatch(/not a JWT/);
      const keys = await ctx.call("/api/v1/keys", { headers: { authorization: `Bearer ${account.token}` } });
      expect(keys.status).toBe(200);
    });
  });

  describe("password change", () => {
    it("needs the current password, rotates this session and ends every other one", async () => {
      const { user, email } = await signedUp();
      const other = browser();
      expect((await other.signIn(email, PASSWORD)).status).toBe(200);
      const otherToken = await other.token();
      const wrong = await user.send("/auth/password", {
        body: { currentPassword: "not the password", newPassword: "a new password of some length" },
      });
      expect(wrong.status).toBe(400);
      expect(body(wrong).error.message).toBe("currentPassword is not right");

      const before = user.cookie;
      const changed = await user.send("/auth/password", {
        body: { currentPassword: PASSWORD, newPassword: "a new password of some length" },
      });
      expect(changed.status).toBe(204);
      expect(user.cookie).not.toBe(before);
      // this browser goes on with its new session (and reads its new CSRF token)
      expect((await user.send("/auth/session")).status).toBe(200);
      expect((await other.send("/auth/session")).status).toBe(401);
      const refused = await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${otherToken}` } });
      expect(refused.status).toBe(401);
      expect((await browser().signIn(email, PASSWORD)).status).toBe(401);
      expect((await browser().signIn(email, "a new password of some length")).status).toBe(200);
    });
  });

  describe("lifetimes", () => {
    it("ends a session unused for the idle lifetime, with its JWTs", async () => {
      const { user, email } = await signedUp();
      const token = await user.token();
      await pg.query(
        "UPDATE sessions SET last_seen_at = now() - interval '3601 seconds' WHERE user_id = (SELECT id FROM users WHERE email = $1)",
        [email],
      );
      expect((await user.send("/auth/session")).status).toBe(401);
      expect((await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    });

    it("ends a session at its absolute end however much it is used", async () => {
      const { user, email } = await signedUp();
      const token = await user.token();
      expect((await user.send("/auth/session")).status).toBe(200);
      await pg.query(
        "UPDATE sessions SET expires_at = now() - interval '1 second', last_seen_at = now() WHERE user_id = (SELECT id FROM users WHERE email = $1)",
        [email],
      );
      expect((await user.send("/auth/session")).status).toBe(401);
      expect((await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    });

    it("drops the user's sessions long over when a new one starts", async () => {
      const { email } = await signedUp();
      await browser().signIn(email, PASSWORD);
      const userOf = "(SELECT id FROM users WHERE email = $1)";
      await pg.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${userOf}`, [email]);
      expect((await browser().signIn(email, PASSWORD)).status).toBe(200);
      const { rows } = await pg.query(`SELECT expires_at > now() AS live FROM sessions WHERE user_id = ${userOf}`, [
        email,
      ]);
      expect(rows).toEqual([{ live: true }]);
    });

    it("records a session's use, so an active session lives on", async () => {
      const { user, email } = await signedUp();
      await pg.query(
        "UPDATE sessions SET last_seen_at = now() - interval '3000 seconds' WHERE user_id = (SELECT id FROM users WHERE email = $1)",
        [email],
      );
      const session = await user.send("/auth/session");
      expect(session.status).toBe(200);
      // the idle end moved on from the use just made
      expect(Date.parse(body(session).data.expiresAt)).toBeGreaterThan(Date.now() + 3_500_000);
    });
  });

  describe("CSRF", () => {
    it("refuses a change made with the session without the X-CSRF-Token header, naming it", async () => {
      const { user } = await signedUp();
      for (const path of ["/auth/token", "/auth/sign-out"]) {
        const refused = await user.send(path, { method: "POST", csrf: false });
        expect([path, refused.status]).toEqual([path, 403]);
        expect(body(refused).error).toEqual({
          code: "forbidden",
          message: "The X-CSRF-Token header is missing",
          hint: expect.any(String),
        });
      }
      const wrong = await user.send("/auth/token", { method: "POST", headers: { "x-csrf-token": "x".repeat(43) } });
      expect(wrong.status).toBe(403);
      expect(body(wrong).error.message).toBe("The X-CSRF-Token header does not match this session");
      // the session lives on
      expect((await user.send("/auth/session")).status).toBe(200);
    });

    it("refuses a change from another origin, or naming none, even with the token", async () => {
      const { user } = await signedUp();
      const foreign = await user.send("/auth/token", { method: "POST", origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expect(body(foreign).error.code).toBe("forbidden");
      expect(body(foreign).error.message).toMatch(/another origin/);
      const none = await user.send("/auth/password", {
        origin: false,
        body: { currentPassword: PASSWORD, newPassword: "whatever it would be" },
      });
      expect(none.status).toBe(403);
      expect(body(none).error.message).toMatch(/no Origin or Referer/);
      const referred = await user.send("/auth/token", {
        method: "POST",
        origin: false,
        headers: { referer: `${base}/app/settings` },
      });
      expect(referred.status).toBe(200);
      const foreignSignIn = await browser().send("/auth/sign-in", {
        body: { email: freshEmail(), password: PASSWORD },
        origin: "https://evil.example",
      });
      expect(foreignSignIn.status).toBe(403);
    });
  });

  describe("roles", () => {
    it("a member is refused GET /api/v1/operations with 403; an operator reads it", async () => {
      const { user } = await signedUp();
      const member = await ctx.call("/api/v1/operations", {
        headers: { authorization: `Bearer ${await user.token()}` },
      });
      expect(member.status).toBe(403);
      expect(body(member).error.code).toBe("forbidden");
      const memberB = await ctx.call("/api/v1/operations", {
        headers: { authorization: `Bearer ${await user.token()}`, "x-response-form": "B" },
      });
      expect(body(memberB)).toEqual({ error: expect.any(String), code: "FORBIDDEN" });

      const email = freshEmail("operator");
      const operator = browser();
      expect(
        (await operator.signUp(email, PASSWORD, await invitationToken(ctx.stack.db, email, "operator"))).status,
      ).toBe(201);
      const allowed = await ctx.call("/api/v1/operations", {
        headers: { authorization: `Bearer ${await operator.token()}` },
      });
      expect(allowed.status).toBe(200);
      expect(body(allowed).data.queue).toEqual(expect.objectContaining({ waiting: expect.any(Number) }));
      // an API key is not a signed-in user
      const key = (await createAccount(ctx.stack.db)).key;
      expect((await ctx.call("/api/v1/operations", { headers: { "x-api-key": key } })).status).toBe(401);
    });
  });
});
