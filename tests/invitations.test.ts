import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";

/**
 * Invite-only sign-up and the operator's accounts CLI for the dashboard: invitation links,
 * password reset links, a password for a user the CLI made, and the operator role.
 */

afterAll(() => stopContainers());

const PUBLIC_URL = "https://scan.example.com";

describe("invitations, resets and the accounts CLI", () => {
  let ctx: AccountsApi;
  let base: string;
  const browser = () => new Browser(base);

  /** The accounts CLI, as an operator runs it; `input` is its standard input. */
  const cli = (args: string[], input?: string) =>
    new Promise<{ stdout: string; stderr: string }>((done, fail) => {
      const child = execFile(
        resolve(__dirname, "../node_modules/.bin/tsx"),
        [resolve(__dirname, "../services/gateway/src/accounts-cli.ts"), ...args],
        { env: { ...process.env, DATABASE_URL: ctx.database.url, PUBLIC_URL, NODE_ENV: "production" } },
        (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done({ stdout, stderr })),
      );
      child.stdin?.end(input ?? "");
    });

  /** The token of a link the CLI printed: it travels in the fragment. */
  const tokenOf = (link: string, path: string) => {
    const url = new URL(link.trim());
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}${path}`);
    expect(url.search).toBe("");
    const token = new URLSearchParams(url.hash.slice(1)).get("token");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return token as string;
  };

  beforeAll(async () => {
    ctx = await startAccountsApi({ SIGN_UP: "invite" });
    base = ctx.stack.gateway.url;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("refuses sign-up without an invitation when sign-up is by invitation", async () => {
    const response = await browser().signUp(freshEmail(), PASSWORD);
    expect(response.status).toBe(403);
    expect(body(response).error).toEqual({
      code: "forbidden",
      message: "Sign-up is by invitation only",
      hint: expect.any(String),
    });
  });

  it("an invitation link from the CLI: its email, a sign-up with it once, with its role and plan", async () => {
    const email = freshEmail("invited");
    const { stdout, stderr } = await cli(["invite", "--email", email, "--role", "operator", "--plan", "pro"]);
    expect(stderr).toMatch(new RegExp(`an invitation for ${email}, valid until \\S+`));
    const token = tokenOf(stdout, "/app/invitation");

    const shown = await browser().send(`/auth/invitations/${token}`);
    expect(shown.status).toBe(200);
    expect(body(shown).data).toEqual({ email });

    const other = await browser().signUp(freshEmail("someone-else"), PASSWORD, token);
    expect(other.status).toBe(400);
    expect(body(other).error.message).toBe("The invitation is for another email address");

    const invited = browser();
    const made = await invited.signUp(email, PASSWORD, token);
    expect(made.status).toBe(201);
    expect(body(made).data.user).toEqual({ id: expect.any(String), email, role: "operator", plan: "pro" });
    const operations = await ctx.call("/api/v1/operations", {
      headers: { authorization: `Bearer ${await invited.token()}` },
    });
    expect(operations.status).toBe(200);

    // used once
    const again = await browser().signUp(email, PASSWORD, token);
    expect(again.status).toBe(400);
    expect(body(again).error.message).toMatch(/not valid: it is unknown, already used or expired/);
    const gone = await browser().send(`/auth/invitations/${token}`);
    expect(gone.status).toBe(404);
    expect(body(gone).error.code).toBe("not_found");
    await expect(cli(["invite", "--email", email])).rejects.toThrow(/already exists/);
  }, 300_000);

  it("an expired invitation is refused", async () => {
    const email = freshEmail("late");
    const token = tokenOf((await cli(["invite", "--email", email, "--ttl", "1h"])).stdout, "/app/invitation");
    await ctx.stack.db.invitation.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await browser().send(`/auth/invitations/${token}`)).status).toBe(404);
    expect((await browser().signUp(email, PASSWORD, token)).status).toBe(400);
  }, 300_000);

  it("a user the CLI made gets a password with set-password (read from standard input), and a role with set-role", async () => {
    const email = freshEmail("cli");
    await cli(["create-user", "--email", email]);
    expect((await browser().signIn(email, PASSWORD)).status).toBe(401);
    const { stderr } = await cli(["set-password", "--email", email], `${PASSWORD}\n`);
    expect(stderr).toMatch(/password set/);
    const user = browser();
    expect((await user.signIn(email, PASSWORD)).status).toBe(200);
    const stored = await ctx.stack.db.user.findUniqueOrThrow({ where: { email } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    await expect(cli(["set-password", "--email", email], "short\n")).rejects.toThrow(/at least 12 characters/);

    const member = await ctx.call("/api/v1/operations", { headers: { authorization: `Bearer ${await user.token()}` } });
    expect(member.status).toBe(403);
    expect(JSON.parse((await cli(["set-role", "--email", email, "--role", "operator"])).stdout).role).toBe("operator");
    // the role is read at each request: the same session's next token opens operations
    const operator = await ctx.call("/api/v1/operations", {
      headers: { authorization: `Bearer ${await user.token()}` },
    });
    expect(operator.status).toBe(200);
    // setting a password ends the user's sessions
    await cli(["set-password", "--email", email], "yet another long password\n");
    expect((await user.send("/auth/session")).status).toBe(401);
  }, 300_000);

  it("a reset link from the CLI sets a new password once and ends every session", async () => {
    const email = freshEmail("forgetful");
    await cli(["create-user", "--email", email]);
    await cli(["set-password", "--email", email], `${PASSWORD}\n`);
    const signedIn = browser();
    expect((await signedIn.signIn(email, PASSWORD)).status).toBe(200);
    const token = await signedIn.token();

    const { stdout } = await cli(["reset-link", "--email", email]);
    const reset = tokenOf(stdout, "/app/reset-password");
    const weak = await browser().send("/auth/password-reset", { body: { token: reset, password: "short" } });
    expect(weak.status).toBe(400);
    const done = await browser().send("/auth/password-reset", {
      body: { token: reset, password: "a brand new passphrase" },
    });
    expect(done.status).toBe(204);
    expect((await signedIn.send("/auth/session")).status).toBe(401);
    expect((await ctx.call("/api/v1/account", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await browser().signIn(email, PASSWORD)).status).toBe(401);
    expect((await browser().signIn(email, "a brand new passphrase")).status).toBe(200);

    const twice = await browser().send("/auth/password-reset", {
      body: { token: reset, password: "and once more, again" },
    });
    expect(twice.status).toBe(400);
    expect(body(twice).error.message).toMatch(/reset link is not valid/);
    await expect(cli(["reset-link", "--email", freshEmail("nobody")])).rejects.toThrow(/No user/);
  }, 300_000);
});
