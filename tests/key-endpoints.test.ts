import { createHash } from "node:crypto";
import { issueUserToken } from "@scan/gateway";
import { Client } from "pg";
import { createAccount, TEST_JWT_SECRET, type TestAccount, tokenFor } from "./support/accounts";
import {
  type AccountsApi,
  b64url,
  body,
  type CallInit,
  expectRateHeaders,
  expectUnauthenticated,
  forgeToken,
  hmac,
  MISSING_SCAN,
  nowS,
  rsaKeys,
  startAccountsApi,
  UUID,
} from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The key endpoints (docs/spec/public-scanning-api.md §4.7) with a JWT, in both forms: create, list, revoke, another user's
 * key, the per-user cap, bad bodies, bad tokens; RS256; what the database keeps of
 * a key; the accounts CLI.
 */

const ENV = { MAX_KEYS_PER_USER: "3" };
const rsa = rsaKeys();

// containers (when testcontainers provides the services) outlive every describe of the file
afterAll(() => stopContainers());

describe("key endpoints", () => {
  let ctx: AccountsApi;
  let stack: Stack;
  let pg: Client;
  const call = (path: string, init?: CallInit) => ctx.call(path, init);

  beforeAll(async () => {
    ctx = await startAccountsApi(ENV);
    stack = ctx.stack;
    pg = new Client({ connectionString: ctx.database.url });
    await pg.connect();
  }, 300_000);

  afterAll(async () => {
    await pg?.end();
    await ctx?.close();
  });

  describe("key endpoints, with a JWT", () => {
    it("create, list and revoke keys in both forms; the full key only in the create response", async () => {
      const account = await createAccount(stack.db, "pro");
      const auth = { authorization: `Bearer ${account.token}` };

      const created = await call("/api/v1/keys", { body: { name: "ci", default_form: "b" }, headers: auth });
      expect(created.status).toBe(201);
      expect(created.headers.get("cache-control")).toBe("no-store");
      const key = body(created).data;
      expect(body(created)).toEqual({
        ok: true,
        data: {
          id: expect.stringMatching(UUID),
          name: "ci",
          prefix: key.key.slice(0, 15),
          key: expect.stringMatching(/^aeo_live_[0-9A-Za-z]{36}$/),
          plan: "pro",
          default_form: "B",
          created_at: expect.any(String),
          last_used_at: null,
          revoked_at: null,
          client_id: null,
          read_only: false,
        },
        meta: { requestId: expect.any(String) },
      });

      const createdB = await call("/api/v1/keys", { method: "POST", headers: { ...auth, "x-response-form": "B" } });
      expect(createdB.status).toBe(201);
      expect(body(createdB)).toEqual({
        success: true,
        data: expect.objectContaining({ name: null, default_form: null, plan: "pro", key: expect.any(String) }),
      });

      // the new key works at once
      const used = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key.key } });
      expect(used.status).toBe(404);

      const list = await call("/api/v1/keys", { headers: auth });
      expect(list.status).toBe(200);
      expect(body(list).ok).toBe(true);
      expect(body(list).meta).toEqual({ page: 1, limit: 20, total: 3, hasMore: false, requestId: expect.any(String) });
      expect(
        body(list)
          .data.map((k: any) => k.id)
          .sort(),
      ).toEqual([account.keyId, key.id, body(createdB).data.id].sort());
      for (const listed of body(list).data) expect(listed.key).toBeUndefined();
      const listB = await call("/api/v1/keys?limit=2&page=1", { headers: { ...auth, "x-response-form": "B" } });
      expect(body(listB)).toEqual({
        success: true,
        data: [expect.any(Object), expect.any(Object)],
        meta: { page: 1, limit: 2, total: 3, hasMore: true },
      });

      const revoked = await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: auth });
      expect(revoked.status).toBe(200);
      expect(body(revoked).data).toEqual(expect.objectContaining({ id: key.id, revoked_at: expect.any(String) }));
      expect(body(revoked).data.key).toBeUndefined();

      // a revoked key is 401 in both forms
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key.key } }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key.key, "x-response-form": "B" } }),
        /revoked/,
      );
      const after = await call("/api/v1/keys", { headers: auth });
      expect(body(after).meta.total).toBe(2);
      expect(body(after).data.map((k: any) => k.id)).not.toContain(key.id);

      const again = await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: auth });
      expect(again.status).toBe(404);
      expect(body(again).error.code).toBe("not_found");
    });

    it("another user's key id is 404 in both forms, and that key keeps working", async () => {
      const owner = await createAccount(stack.db);
      const other = await createAccount(stack.db);
      const a = await call(`/api/v1/keys/${owner.keyId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${other.token}` },
      });
      expect(a.status).toBe(404);
      expect(body(a).error.code).toBe("not_found");
      const b = await call(`/api/v1/keys/${owner.keyId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${other.token}`, "x-response-form": "B" },
      });
      expect(b.status).toBe(404);
      expect(body(b)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
      const stillWorks = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": owner.key } });
      expect(stillWorks.status).toBe(404);
      expect(body(stillWorks).error.code).toBe("not_found");
      const list = await call("/api/v1/keys", { headers: { authorization: `Bearer ${other.token}` } });
      expect(body(list).data.map((k: any) => k.id)).toEqual([other.keyId]);
    });

    it("caps a user's active keys with 403 forbidden in both forms", async () => {
      const account = await createAccount(stack.db);
      const auth = { authorization: `Bearer ${account.token}` };
      for (let i = 0; i < 2; i++) expect((await call("/api/v1/keys", { body: {}, headers: auth })).status).toBe(201);
      const a = await call("/api/v1/keys", { body: {}, headers: auth });
      expect(a.status).toBe(403);
      expect(body(a).error).toEqual({
        code: "forbidden",
        message: expect.stringMatching(/3 active API keys/),
        hint: expect.any(String),
      });
      const b = await call("/api/v1/keys", { body: {}, headers: { ...auth, "x-response-form": "B" } });
      expect(b.status).toBe(403);
      expect(body(b)).toEqual({ error: expect.any(String), code: "FORBIDDEN" });
      await call(`/api/v1/keys/${account.keyId}`, { method: "DELETE", headers: auth });
      expect((await call("/api/v1/keys", { body: {}, headers: auth })).status).toBe(201);
    });

    it.each([
      [{ name: "" }, /name must not be empty/],
      [{ name: "   " }, /name must not be empty/],
      [{ name: "x".repeat(101) }, /name must be at most 100 characters/],
      [{ name: 42 }, /name must be a string/],
      [{ default_form: "C" }, /default_form/],
      [{ scopes: ["all"] }, /scopes/],
    ])("refuses the create body %j with 400 in both forms", async (payload, message) => {
      const { token } = await createAccount(stack.db);
      const a = await call("/api/v1/keys", { body: payload, headers: { authorization: `Bearer ${token}` } });
      expect(a.status).toBe(400);
      expect(body(a).error).toEqual({
        code: "invalid_request",
        message: expect.stringMatching(message),
        hint: expect.any(String),
      });
      const b = await call("/api/v1/keys", {
        body: payload,
        headers: { authorization: `Bearer ${token}`, "x-response-form": "B" },
      });
      expect(body(b)).toEqual({ error: expect.stringMatching(message), code: "VALIDATION_ERROR" });
    });

    it("refuses a bad list query, a non-UUID key id and malformed JSON with 400", async () => {
      const { token } = await createAccount(stack.db);
      const auth = { authorization: `Bearer ${token}` };
      expect((await call("/api/v1/keys?limit=101", { headers: auth })).status).toBe(400);
      expect((await call("/api/v1/keys?page=0", { headers: auth })).status).toBe(400);
      expect((await call("/api/v1/keys/not-a-uuid", { method: "DELETE", headers: auth })).status).toBe(400);
      const json = await call("/api/v1/keys", { rawBody: '{"name": ', headers: { ...auth, "x-response-form": "B" } });
      expect(json.status).toBe(400);
      expect(body(json)).toEqual({ error: expect.any(String), code: "INVALID_JSON" });
    });

    describe("refuses tokens that are not good, with 401 in both forms", () => {
      let account: TestAccount;
      beforeAll(async () => {
        account = await createAccount(stack.db);
      });
      const claims = () => ({ sub: account.user.id, exp: nowS() + 600 });
      const cases: Array<[string, () => Record<string, string>, RegExp]> = [
        ["no Authorization header", () => ({}), /need a JWT/],
        ["another scheme", () => ({ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }), /Bearer/],
        [
          "alg none",
          () => ({ authorization: `Bearer ${forgeToken({ alg: "none", typ: "JWT" }, claims(), () => "")}` }),
          /not valid/,
        ],
        [
          "RS256 where HS256 is configured",
          () => ({
            authorization: `Bearer ${issueUserToken({ algorithm: "RS256", privateKey: rsa.privateKey }, account.user, 600)}`,
          }),
          /not valid/,
        ],
        [
          "HS256 signed with the RSA public key as secret",
          () => ({
            authorization: `Bearer ${forgeToken({ alg: "HS256", typ: "JWT" }, claims(), hmac(rsa.publicKey))}`,
          }),
          /not valid/,
        ],
        [
          "another secret",
          () => ({ authorization: `Bearer ${forgeToken({ alg: "HS256" }, claims(), hmac(`${TEST_JWT_SECRET}x`))}` }),
          /not valid/,
        ],
        [
          "an expired token",
          () => ({
            authorization: `Bearer ${forgeToken({ alg: "HS256" }, { sub: account.user.id, exp: nowS() - 60 }, hmac(TEST_JWT_SECRET))}`,
          }),
          /expired/,
        ],
        [
          "no exp",
          () => ({
            authorization: `Bearer ${forgeToken({ alg: "HS256" }, { sub: account.user.id }, hmac(TEST_JWT_SECRET))}`,
          }),
          /exp/,
        ],
        [
          "a tampered payload",
          () => {
            const [header, , signature] = tokenFor(account.user).split(".");
            const other = "2f1d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b";
            return { authorization: `Bearer ${header}.${b64url({ sub: other, exp: nowS() + 600 })}.${signature}` };
          },
          /not valid/,
        ],
        [
          "a user who does not exist",
          () => ({
            authorization: `Bearer ${tokenFor({ id: "2f1d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b", email: "x@y.z" })}`,
          }),
          /not a user/,
        ],
        [
          "a subject that is not a user id",
          () => ({
            authorization: `Bearer ${forgeToken({ alg: "HS256" }, { sub: "admin", exp: nowS() + 60 }, hmac(TEST_JWT_SECRET))}`,
          }),
          /not a user/,
        ],
        ["an API key instead of a JWT", () => ({ authorization: `Bearer ${account.key}` }), /not an API key/],
      ];
      it.each(cases)("%s", async (_name, headers, message) => {
        const a = await call("/api/v1/keys", { headers: headers() });
        const b = await call("/api/v1/keys", { headers: { ...headers(), "x-response-form": "B" } });
        expectUnauthenticated(a, b, message);
        expectRateHeaders(a, 10);
      });
    });

    it("a JWT is not an API key: the scan endpoints refuse it with 401", async () => {
      const { token } = await createAccount(stack.db);
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { authorization: `Bearer ${token}` } }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, {
          headers: { authorization: `Bearer ${token}`, "x-response-form": "B" },
        }),
        /not a JWT/,
      );
    });
  });

  describe("stored keys", () => {
    it("cannot be recovered from the database: only a SHA-256 and a short prefix are kept", async () => {
      const account = await createAccount(stack.db);
      const created = await call("/api/v1/keys", {
        body: { name: "secret-test" },
        headers: { authorization: `Bearer ${account.token}` },
      });
      const key = body(created).data.key as string;
      const secretPart = key.slice(15);
      const { rows } = await pg.query("SELECT * FROM api_keys WHERE id = $1", [body(created).data.id]);
      expect(rows).toHaveLength(1);
      const row = rows[0];
      expect(row.hash).toBe(createHash("sha256").update(key).digest("hex"));
      expect(row.prefix).toBe(key.slice(0, 15));
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(secretPart.slice(0, 12));
      expect(stored).not.toContain(secretPart.slice(-12));
      // nowhere else either
      for (const table of ["api_keys", "users", "scans"]) {
        const { rows: dump } = await pg.query(`SELECT coalesce(string_agg(t::text, ' '), '') AS text FROM ${table} t`);
        expect([table, dump[0].text.includes(secretPart.slice(0, 12))]).toEqual([table, false]);
      }
    });
  });

  describe("accounts CLI", () => {
    it("creates a user with a plan, issues a JWT the key endpoints accept, changes the plan and creates a key", async () => {
      const { execFile } = await import("node:child_process");
      const { resolve } = await import("node:path");
      const run = (...args: string[]) =>
        new Promise<string>((done, fail) =>
          execFile(
            resolve(__dirname, "../node_modules/.bin/tsx"),
            [resolve(__dirname, "../services/gateway/src/accounts-cli.ts"), ...args],
            { env: { ...process.env, DATABASE_URL: ctx.database.url, JWT_SECRET: TEST_JWT_SECRET } },
            (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)),
          ),
        );
      const created = JSON.parse(await run("create-user", "--email", " CLI@Example.com ", "--plan", "pro"));
      expect(created).toEqual({
        id: expect.stringMatching(UUID),
        email: "cli@example.com",
        plan: "pro",
        role: "member",
      });
      await expect(run("create-user", "--email", "cli@example.com")).rejects.toThrow(/already exists/);

      const token = (await run("token", "--email", "cli@example.com", "--ttl", "5m")).trim();
      const decoded = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString());
      expect(decoded.sub).toBe(created.id);
      expect(decoded.exp - decoded.iat).toBe(300);
      const made = await call("/api/v1/keys", {
        body: { name: "from-cli" },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(made.status).toBe(201);
      expect(body(made).data.plan).toBe("pro");

      expect(JSON.parse(await run("set-plan", "--email", "cli@example.com", "--plan", "agency")).plan).toBe("agency");
      const key = JSON.parse(await run("create-key", "--email", "cli@example.com", "--name", "ops", "--form", "b"));
      expect(key).toEqual(
        expect.objectContaining({ name: "ops", default_form: "B", plan: "agency", key: expect.any(String) }),
      );
      const used = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key.key } });
      expect(used.status).toBe(404);
      expect(used.headers.get("x-ratelimit-limit")).toBe("10000");
      expect(body(used).code).toBe("NOT_FOUND");
    }, 300_000);
  });
});

describe("key endpoints with RS256", () => {
  let database: TestDatabase;
  let rs: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    const common = { databaseUrl: database.url, redisUrl: await testRedisUrl(), allowlist: [], worker: false };
    rs = await startStack({
      ...common,
      env: {
        JWT_ALGORITHM: "RS256",
        JWT_PUBLIC_KEY: rsa.publicKey.replaceAll("\n", "\\n"),
        JWT_SECRET: "",
        JWT_ISSUER: "https://id.example.com",
        JWT_AUDIENCE: "aeo-scan",
      },
    });
  }, 300_000);

  afterAll(async () => {
    await rs?.close();
    await database?.drop();
  });

  it("accepts an RS256 token with the configured issuer and audience, and refuses HS/RS confusion", async () => {
    const account = await createAccount(rs.db);
    const signer = { algorithm: "RS256" as const, privateKey: rsa.privateKey };
    const good = issueUserToken(
      { ...signer, issuer: "https://id.example.com", audience: "aeo-scan" },
      account.user,
      60,
    );
    const ok = await api(rs.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${good}` } });
    expect(ok.status).toBe(200);
    expect(body(ok).data).toHaveLength(1);

    const claims = { sub: account.user.id, exp: nowS() + 60, iss: "https://id.example.com", aud: "aeo-scan" };
    const refusals = {
      confusion: forgeToken({ alg: "HS256", typ: "JWT" }, claims, hmac(rsa.publicKey)),
      none: forgeToken({ alg: "none", typ: "JWT" }, claims, () => ""),
      wrongAudience: issueUserToken(
        { ...signer, issuer: "https://id.example.com", audience: "other" },
        account.user,
        60,
      ),
      noIssuer: issueUserToken({ ...signer, audience: "aeo-scan" }, account.user, 60),
      hs256: tokenFor(account.user),
    };
    for (const [name, token] of Object.entries(refusals)) {
      const a = await api(rs.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${token}` } });
      const b = await api(rs.gateway.url, "/api/v1/keys", {
        headers: { authorization: `Bearer ${token}`, "x-response-form": "B" },
      });
      expect([name, a.status, b.status]).toEqual([name, 401, 401]);
      expectUnauthenticated(a, b, /not valid/);
    }
  });
});
