import { generateApiKey } from "@scan/platform";
import { createAccount } from "./support/accounts";
import {
  type AccountsApi,
  body,
  type CallInit,
  expectRateHeaders,
  expectUnauthenticated,
  freshAddress,
  MISSING_SCAN,
  startAccountsApi,
} from "./support/accounts-api";
import { stopContainers } from "./support/services";
import type { ApiResponse, Stack } from "./support/stack";

/**
 * API keys on the endpoints (docs/spec/public-scanning-api.md §5): the two headers, refusals, anonymous access, the key's
 * default form; who owns a scan; the monthly scan quota (403 PLAN_LIMIT).
 */

const ENV = { SCAN_QUOTA_FREE: "3" };

// containers (when testcontainers provides the services) outlive every describe of the file
afterAll(() => stopContainers());

describe("authentication, ownership and quotas", () => {
  let ctx: AccountsApi;
  const call = (path: string, init?: CallInit) => ctx.call(path, init);
  const scanWith = (headers: Record<string, string>, from?: string) => ctx.scanWith(headers, from);
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startAccountsApi(ENV);
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  describe("API keys on the endpoints", () => {
    it("take the key in Authorization: Bearer or in X-API-Key", async () => {
      const account = await createAccount(stack.db);
      const bearer = await scanWith({ authorization: `Bearer ${account.key}` });
      expect(bearer.status).toBe(202);
      const id = body(bearer).data.id;
      const viaHeader = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": account.key } });
      expect(viaHeader.status).toBe(200);
      expect(body(viaHeader).data.id).toBe(id);
      const viaBearer = await call(`/api/v1/scan/${id}`, { headers: { authorization: `bearer ${account.key}` } });
      expect(viaBearer.status).toBe(200);
      const both = await call(`/api/v1/scan/${id}`, {
        headers: { authorization: `Bearer ${account.key}`, "x-api-key": account.key },
      });
      expect(both.status).toBe(200);
      // a proxy's own Basic credentials next to X-API-Key are not the key
      const proxied = await call(`/api/v1/scan/${id}`, {
        headers: { authorization: "Basic dXNlcjpwYXNz", "x-api-key": account.key },
      });
      expect(proxied.status).toBe(200);
    });

    it("refuse two different keys, and a key in the query string, with 401", async () => {
      const one = await createAccount(stack.db);
      const two = await createAccount(stack.db);
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, {
          headers: { authorization: `Bearer ${one.key}`, "x-api-key": two.key },
        }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, {
          headers: { authorization: `Bearer ${one.key}`, "x-api-key": two.key, "x-response-form": "B" },
        }),
        /Two different/,
      );
      // only the tool server reads ?key=; on the REST API a key in a URL authenticates nothing
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}?key=${one.key}`),
        await call(`/api/v1/scan/${MISSING_SCAN}?key=${one.key}`, { headers: { "x-response-form": "B" } }),
        /needs an API key/,
      );
    });

    it("answer 401 without a key everywhere but POST /api/v1/scan, in both forms", async () => {
      for (const [method, path] of [
        ["GET", `/api/v1/scan/${MISSING_SCAN}`],
        ["GET", "/api/v1/sites"],
        ["GET", "/api/v1/nothing-here"],
        ["POST", "/api/v1/aeo-2/evaluate"],
      ] as const) {
        expectUnauthenticated(
          await call(path, { method }),
          await call(path, { method, headers: { "x-response-form": "B" } }),
          /needs an API key/,
        );
      }
      const anonymous = await scanWith({});
      expect(anonymous.status).toBe(202);
    });

    it("tell a mistyped key from an unknown one without letting either in", async () => {
      const { key } = await createAccount(stack.db);
      const typo = `${key.slice(0, 20)}${key[20] === "x" ? "y" : "x"}${key.slice(21)}`;
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": typo } }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": typo, "x-response-form": "B" } }),
        /checksum/,
      );
      // well formed, right checksum, never issued
      const unknown = generateApiKey().key;
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": unknown } }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": unknown, "x-response-form": "B" } }),
        /not valid/,
      );
      expectUnauthenticated(
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": "sk_live_123" } }),
        await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": "sk_live_123", "x-response-form": "B" } }),
        /malformed/,
      );
      // a bad key on the open endpoint is refused too, not treated as anonymous
      const scan = await scanWith({ "x-api-key": unknown });
      expect(scan.status).toBe(401);
    });

    it("answer in the key's default form unless X-Response-Form says otherwise, errors included", async () => {
      const account = await createAccount(stack.db);
      const created = await call("/api/v1/keys", {
        body: { default_form: "B" },
        headers: { authorization: `Bearer ${account.token}` },
      });
      const key = body(created).data.key as string;
      const scan = await scanWith({ "x-api-key": key });
      expect(scan.status).toBe(202);
      expect(body(scan)).toEqual({ success: true, data: expect.objectContaining({ status: "queued" }) });
      const missing = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": key } });
      expect(body(missing)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
      const asked = await call(`/api/v1/scan/${MISSING_SCAN}`, {
        headers: { "x-api-key": key, "x-response-form": "a" },
      });
      expect(body(asked).ok).toBe(false);
      expect(body(asked).error.code).toBe("not_found");
      const invalid = await call("/api/v1/scan", { body: { url: 42 }, headers: { "x-api-key": key } });
      expect(body(invalid)).toEqual({ error: expect.any(String), code: "VALIDATION_ERROR" });
    });

    it("advance last_used_at when a key is used", async () => {
      const account = await createAccount(stack.db);
      const before = await stack.db.apiKey.findUniqueOrThrow({ where: { id: account.keyId } });
      expect(before.lastUsedAt).toBeNull();
      await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": account.key } });
      const after = await stack.db.apiKey.findUniqueOrThrow({ where: { id: account.keyId } });
      expect(after.lastUsedAt).toBeInstanceOf(Date);
      const list = await call("/api/v1/keys", { headers: { authorization: `Bearer ${account.token}` } });
      expect(body(list).data[0].last_used_at).toBe(after.lastUsedAt?.toISOString());
    });
  });

  describe("ownership", () => {
    it("scans made with a key belong to its user; another user's scan is 404, as if missing", async () => {
      const owner = await createAccount(stack.db, "starter");
      const stranger = await createAccount(stack.db, "starter");
      const made = await scanWith({ "x-api-key": owner.key });
      expect(made.status).toBe(202);
      const id = body(made).data.id;
      const row = await stack.db.scan.findUniqueOrThrow({ where: { id } });
      expect(row.userId).toBe(owner.user.id);
      expect(row.apiKeyId).toBe(owner.keyId);

      const mine = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": owner.key } });
      expect(mine.status).toBe(200);
      // another key of the same user sees it too: scans belong to users, not keys
      const second = await call("/api/v1/keys", { body: {}, headers: { authorization: `Bearer ${owner.token}` } });
      const viaSecond = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": body(second).data.key } });
      expect(viaSecond.status).toBe(200);

      const theirs = await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": stranger.key } });
      const missing = await call(`/api/v1/scan/${MISSING_SCAN}`, { headers: { "x-api-key": stranger.key } });
      expect(theirs.status).toBe(404);
      expect(body(theirs).error.code).toBe("not_found");
      expect(body(theirs).error.message.replace(id, "ID")).toBe(
        body(missing).error.message.replace(MISSING_SCAN, "ID"),
      );
      const theirsB = await call(`/api/v1/scan/${id}`, {
        headers: { "x-api-key": stranger.key, "x-response-form": "B" },
      });
      expect(body(theirsB)).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
    });

    it("an anonymous scan is owned by nobody, and is read by its Location's link, not by a key", async () => {
      const anonymous = await scanWith({});
      expect(anonymous.status).toBe(202);
      const location = anonymous.headers.get("location") as string;
      const id = body(anonymous).data.id;
      expect(location).toMatch(new RegExp(`^/api/v1/scan/${id}\\?access=[A-Za-z0-9_-]{43}$`));
      expect((await stack.db.scan.findUniqueOrThrow({ where: { id } })).userId).toBeNull();
      const polled = await call(location);
      expect(polled.status).toBe(200);
      expect(body(polled).data).toEqual(expect.objectContaining({ id, status: "queued" }));
      const { key } = await createAccount(stack.db);
      expect((await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": key } })).status).toBe(404);
      expect((await call(`/api/v1/scan/${id}`)).status).toBe(401);
    });
  });

  describe("monthly scan quota", () => {
    it("answers 403 PLAN_LIMIT once the plan's scans are used, exactly, under concurrency", async () => {
      const account = await createAccount(stack.db, "free");
      const from = freshAddress();
      const results = await Promise.all(Array.from({ length: 6 }, () => scanWith({ "x-api-key": account.key }, from)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([202, 202, 202, 403, 403, 403]);
      const refused = results.find((r) => r.status === 403) as ApiResponse;
      expect(body(refused).error).toEqual({
        code: "forbidden",
        message: expect.stringMatching(/free plan's quota of 3 scans/),
        hint: expect.stringMatching(/resets at \d{4}-\d{2}-01T00:00:00.000Z/),
      });
      expectRateHeaders(refused, 10);
      const b = await scanWith({ "x-api-key": account.key, "x-response-form": "B" }, from);
      expect(b.status).toBe(403);
      expect(body(b)).toEqual({ error: expect.any(String), code: "PLAN_LIMIT" });
      expect(await stack.db.scan.count({ where: { userId: account.user.id } })).toBe(3);
      // reading is not scanning: the quota leaves GET alone
      const id = body(results.find((r) => r.status === 202) as ApiResponse).data.id;
      expect((await call(`/api/v1/scan/${id}`, { headers: { "x-api-key": account.key } })).status).toBe(200);
    });

    it("counts this calendar month only, and the user's scans from every key", async () => {
      const account = await createAccount(stack.db, "free");
      const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - 1);
      await stack.db.scan.createMany({
        data: Array.from({ length: 5 }, () => ({
          url: ctx.site.url("/page"),
          mode: "quick" as const,
          userId: account.user.id,
          createdAt: lastMonth,
        })),
      });
      expect((await scanWith({ "x-api-key": account.key })).status).toBe(202);
      const second = await call("/api/v1/keys", { body: {}, headers: { authorization: `Bearer ${account.token}` } });
      const otherKey = body(second).data.key;
      expect((await scanWith({ "x-api-key": otherKey })).status).toBe(202);
      expect((await scanWith({ "x-api-key": otherKey })).status).toBe(202);
      expect((await scanWith({ "x-api-key": account.key })).status).toBe(403);
    });
  });
});
