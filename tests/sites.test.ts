import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, expectUnauthenticated, UUID } from "./support/accounts-api";
import {
  expectInvalid,
  expectNewestFirst,
  expectPage,
  expectPageParamRules,
  listGetter,
  pageThrough,
  startListsApi,
} from "./support/lists";
import { stopContainers } from "./support/services";
import type { Stack } from "./support/stack";

/**
 * GET /api/v1/sites (docs/spec/public-scanning-api.md §4.4) and POST /api/v1/sites: paging, ordering, limits, the literal
 * case-insensitive q, ownership, both forms; one site per origin.
 */

afterAll(() => stopContainers());

describe("sites", () => {
  let ctx: AccountsApi;
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startListsApi();
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const sitesOf = (account: TestAccount) => listGetter(ctx, "/api/v1/sites", account.key);

  /** `count` sites for the account, three batches sharing a creation time each, so ties are the rule. */
  const insertSites = async (account: TestAccount, count: number, host = (i: number) => `site-${i}.example`) => {
    const base = Date.now() - 3_600_000;
    await stack.db.site.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        userId: account.user.id,
        url: `https://${host(i)}`,
        domain: host(i),
        name: `Site ${i}`,
        createdAt: new Date(base + Math.floor(i / 15) * 60_000),
      })),
    });
  };

  const create = (account: TestAccount, payload: unknown, form: "A" | "B" = "A") =>
    ctx.call("/api/v1/sites", {
      method: "POST",
      body: payload,
      headers: { "x-api-key": account.key, ...(form === "B" ? { "x-response-form": "B" } : {}) },
    });

  describe("GET /api/v1/sites", () => {
    it("answers an empty first page by default, in both forms", async () => {
      const account = await createAccount(stack.db);
      expect(expectPage(await sitesOf(account)(), { page: 1, limit: 20, total: 0, hasMore: false })).toEqual([]);
      expect(
        expectPage(await sitesOf(account)({}, "B"), { page: 1, limit: 20, total: 0, hasMore: false }, "B"),
      ).toEqual([]);
    });

    it("shows a site with the spec's fields", async () => {
      const account = await createAccount(stack.db);
      const created = await create(account, { url: "https://shape.example/some/page", name: "Shape" });
      const [site] = expectPage(await sitesOf(account)(), { page: 1, limit: 20, total: 1, hasMore: false });
      expect(site).toEqual({
        id: expect.stringMatching(UUID),
        url: "https://shape.example",
        domain: "shape.example",
        name: "Shape",
        is_verified: false,
        latest_scores: null,
        latest_scores_scan: null,
        latest_scores_audit: null,
        last_scan_at: null,
        client_id: null,
        created_at: expect.any(String),
      });
      expect(site.id).toBe(body(created).data.id);
    });

    it("pages through 45 sites 20 at a time: 3 pages, hasMore right, none repeated or skipped, newest first", async () => {
      const account = await createAccount(stack.db);
      await insertSites(account, 45);
      for (const form of ["A", "B"] as const) {
        const all = await pageThrough(sitesOf(account), {}, 45, 20, form);
        expect(all.map((site) => site.domain).sort()).toEqual(
          Array.from({ length: 45 }, (_, i) => `site-${i}.example`).sort(),
        );
        expectNewestFirst(all, "created_at");
        // the newest batch (sites 30 to 44) fills the first 15 places
        expect(all.slice(0, 15).every((site) => Number(site.name.split(" ")[1]) >= 30)).toBe(true);
      }
      // asking again gives the same page
      const again = expectPage(await sitesOf(account)({ page: 2 }), { page: 2, limit: 20, total: 45, hasMore: true });
      const before = expectPage(await sitesOf(account)({ page: 2 }), { page: 2, limit: 20, total: 45, hasMore: true });
      expect(again.map((site) => site.id)).toEqual(before.map((site) => site.id));
    });

    it("holds page and limit to their rules in both forms", async () => {
      const account = await createAccount(stack.db);
      await insertSites(account, 45);
      await expectPageParamRules(sitesOf(account), 45);
    });

    describe("q", () => {
      let account: TestAccount;
      const q = (text: string | readonly string[], form: "A" | "B" = "A") => sitesOf(account)({ q: text }, form);
      const domainsFor = async (text: string) =>
        (body(await q(text)).data as any[]).map((site) => site.domain as string).sort();

      beforeAll(async () => {
        account = await createAccount(stack.db);
        for (const [url, name] of [
          ["https://deals.example", "50% Off Deals"],
          ["https://fifty.example", "5000 Offers"],
          ["https://a_b.example", "Underscore"],
          ["https://axb.example", "Plain"],
          ["http://insecure.example", "Old Shop"],
          ["https://mixed-case.example", "UPPER Lower"],
          ["https://slash.example", "back\\slash"],
        ] as const) {
          expect((await create(account, { url, name })).status).toBe(201);
        }
      });

      it("matches domain, name and url, case-insensitively", async () => {
        expect(await domainsFor("MIXED")).toEqual(["mixed-case.example"]);
        expect(await domainsFor("upper lower")).toEqual(["mixed-case.example"]);
        expect(await domainsFor("old shop")).toEqual(["insecure.example"]);
        // only the url holds the scheme
        expect(await domainsFor("http://")).toEqual(["insecure.example"]);
        expect(await domainsFor("HTTPS://A")).toEqual(["a_b.example", "axb.example"]);
        expect(await domainsFor("nothing-like-this")).toEqual([]);
      });

      it("matches % and _ (and the backslash) literally", async () => {
        expect(await domainsFor("%")).toEqual(["deals.example"]);
        expect(await domainsFor("50%")).toEqual(["deals.example"]);
        expect(await domainsFor("5%0")).toEqual([]);
        expect(await domainsFor("_")).toEqual(["a_b.example"]);
        expect(await domainsFor("a_b")).toEqual(["a_b.example"]);
        expect(await domainsFor("a_")).toEqual(["a_b.example"]);
        expect(await domainsFor("\\")).toEqual(["slash.example"]);
        expect(await domainsFor("k\\s")).toEqual(["slash.example"]);
      });

      it("counts what it matches in meta, pages the matches, and is blank-insensitive", async () => {
        expectPage(await sitesOf(account)({ q: "example", limit: 3, page: 3 }), {
          page: 3,
          limit: 3,
          total: 7,
          hasMore: false,
        });
        expectPage(await q("  a_b  ", "B"), { page: 1, limit: 20, total: 1, hasMore: false }, "B");
        expectPage(await q("   "), { page: 1, limit: 20, total: 7, hasMore: false });
        expectPage(await q(""), { page: 1, limit: 20, total: 7, hasMore: false });
      });

      it("refuses a q over 200 characters, a repeated q and a NUL with 400 in both forms", async () => {
        for (const form of ["A", "B"] as const) {
          expectInvalid(await q("x".repeat(201), form), /q: must be at most 200 characters/, form);
          expectInvalid(await q(["a", "b"], form), /q: must be given once/, form);
          expectInvalid(await q("a\u0000", form), /q: must not contain NUL/, form);
        }
        expectPage(await q("x".repeat(200)), { page: 1, limit: 20, total: 0, hasMore: false });
      });
    });

    it("never shows another user's sites, whatever the query", async () => {
      const mine = await createAccount(stack.db);
      const theirs = await createAccount(stack.db);
      await insertSites(theirs, 30, (i) => `shared-${i}.example`);
      await insertSites(mine, 3, (i) => `shared-${i}.example`);
      const data = expectPage(await sitesOf(mine)({ limit: 100 }), { page: 1, limit: 100, total: 3, hasMore: false });
      const theirIds = new Set(
        (await stack.db.site.findMany({ where: { userId: theirs.user.id } })).map((site: { id: string }) => site.id),
      );
      expect(data.filter((site) => theirIds.has(site.id))).toEqual([]);
      expectPage(await sitesOf(mine)({ q: "shared-2" }), { page: 1, limit: 20, total: 1, hasMore: false });
      expectPage(await sitesOf(mine)({ q: "shared-29" }), { page: 1, limit: 20, total: 0, hasMore: false });
      expectPage(await sitesOf(theirs)(), { page: 1, limit: 20, total: 30, hasMore: true });
    });

    it("needs an API key, and serves GET and POST only", async () => {
      expectUnauthenticated(
        await ctx.call("/api/v1/sites"),
        await ctx.call("/api/v1/sites", { headers: { "x-response-form": "B" } }),
        /needs an API key/,
      );
      const account = await createAccount(stack.db);
      const deleted = await ctx.call("/api/v1/sites", { method: "DELETE", headers: { "x-api-key": account.key } });
      expect(deleted.status).toBe(405);
      expect(deleted.headers.get("allow")).toBe("GET, POST, HEAD");
    });
  });

  describe("POST /api/v1/sites", () => {
    it.each([
      ["a loopback origin", "http://127.0.0.1/", /127\.0\.0\.1 is a private or reserved address/],
      ["a loopback origin on Redis's port", "http://127.0.0.1:6379", /port 6379 is not allowed/],
      ["an IPv6 loopback", "http://[::1]/", /private or reserved address/],
      ["a private address", "https://10.0.0.7/admin", /private or reserved address/],
      ["the metadata address", "http://169.254.169.254/latest/meta-data/", /private or reserved address/],
      ["a decimal IP literal", "http://2130706433/", /private or reserved address/],
      ["a port no scan uses", "https://example.com:6379/", /port 6379 is not allowed/],
    ])(
      "refuses %s with 400 in both forms, storing nothing, as a scan target is refused",
      async (_label, url, reason) => {
        const account = await createAccount(stack.db);
        for (const form of ["A", "B"] as const) {
          const refused = await create(account, { url }, form);
          expectInvalid(refused, new RegExp(`url is not scannable: .*${reason.source}`), form);
        }
        expect(await stack.db.site.count({ where: { userId: account.user.id } })).toBe(0);
      },
    );

    it("says to send Content-Type: application/json when a JSON body comes without it", async () => {
      const account = await createAccount(stack.db);
      const refused = await ctx.call("/api/v1/sites", {
        method: "POST",
        rawBody: JSON.stringify({ url: "https://example.com" }),
        headers: { "x-api-key": account.key, "content-type": "text/plain" },
      });
      expect(refused.status).toBe(400);
      expect(body(refused).error.message).toBe("The request body was sent as text/plain, which is not JSON");
      expect(body(refused).error.hint).toMatch(/^Send it as JSON with the header Content-Type: application\/json\./);
    });

    it("creates the site of a URL's origin with 201, and answers the same site with 200 afterwards", async () => {
      const account = await createAccount(stack.db);
      const first = await create(account, { url: "https://Www.Example.com:443/pricing?plan=pro#faq" });
      expect(first.status).toBe(201);
      expect(body(first)).toEqual({
        ok: true,
        data: expect.objectContaining({
          url: "https://www.example.com",
          domain: "www.example.com",
          name: "www.example.com",
          is_verified: false,
          latest_scores: null,
        }),
        meta: { requestId: expect.any(String) },
      });
      const id = body(first).data.id;

      const again = await create(account, { url: "https://www.example.com/blog" });
      expect(again.status).toBe(200);
      expect(body(again).data).toEqual(body(first).data);

      const renamed = await create(account, { url: "https://www.example.com", name: "  Example Inc.  " }, "B");
      expect(renamed.status).toBe(200);
      expect(body(renamed)).toEqual({ success: true, data: { ...body(first).data, name: "Example Inc." } });

      // another scheme, host or port is another origin
      for (const url of ["http://www.example.com", "https://example.com", "https://www.example.com:8443"]) {
        const other = await create(account, { url });
        expect(other.status).toBe(201);
        expect(body(other).data.id).not.toBe(id);
      }
      expectPage(await sitesOf(account)(), { page: 1, limit: 20, total: 4, hasMore: false });
    });

    it("takes a URL without a scheme in Form B as https, as the scan endpoint does", async () => {
      const account = await createAccount(stack.db);
      const created = await create(account, { url: "shop.example/cart", name: "Shop" }, "B");
      expect(created.status).toBe(201);
      expect(body(created)).toEqual({
        success: true,
        data: expect.objectContaining({ url: "https://shop.example", domain: "shop.example", name: "Shop" }),
      });
      expectInvalid(await create(account, { url: "shop.example/cart" }), /url must be absolute/);
    });

    it("creates one site when the same origin is posted concurrently", async () => {
      const account = await createAccount(stack.db);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => create(account, { url: "https://race.example/" })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((answer) => body(answer).data.id)).size).toBe(1);
      expectPage(await sitesOf(account)(), { page: 1, limit: 20, total: 1, hasMore: false });
    });

    it("keeps each user's site of one origin apart", async () => {
      const one = await createAccount(stack.db);
      const two = await createAccount(stack.db);
      const a = await create(one, { url: "https://same.example", name: "Mine" });
      const b = await create(two, { url: "https://same.example", name: "Theirs" });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(body(a).data.id).not.toBe(body(b).data.id);
      expect(expectPage(await sitesOf(one)(), { page: 1, limit: 20, total: 1, hasMore: false })[0].name).toBe("Mine");
    });

    it.each([
      ["no url", {}, /url: is required/],
      ["a number for url", { url: 42 }, /url: is required and must be a string/],
      ["an empty url", { url: "" }, /url is empty/],
      ["an ftp url", { url: "ftp://example.com/" }, /scheme ftp is not supported/],
      ["credentials in the url", { url: "https://user:pw@example.com/" }, /credentials/],
      ["whitespace in the url", { url: "https://exa mple.com/" }, /whitespace/],
      ["a url over 2048 characters", { url: `https://example.com/${"a".repeat(2100)}` }, /longer than 2048/],
      ["a blank name", { url: "https://example.com", name: " " }, /name: must not be blank/],
      [
        "a name over 100 characters",
        { url: "https://example.com", name: "n".repeat(101) },
        /name: must be at most 100/,
      ],
      ["a NUL in the name", { url: "https://example.com", name: "a\u0000b" }, /name: must not contain NUL/],
      ["a number for name", { url: "https://example.com", name: 7 }, /name: must be a string/],
      ["is_verified", { url: "https://example.com", is_verified: true }, /unknown field "is_verified"/],
      ["an array body", ["https://example.com"], /must be a JSON object/],
    ])("refuses %s with 400 in both forms", async (_label, payload, message) => {
      const account = await createAccount(stack.db);
      expectInvalid(await create(account, payload), message);
      expectInvalid(await create(account, payload, "B"), message, "B");
      expectPage(await sitesOf(account)(), { page: 1, limit: 20, total: 0, hasMore: false });
    });

    it("refuses a body that is not JSON with INVALID_JSON", async () => {
      const account = await createAccount(stack.db);
      const answer = await ctx.call("/api/v1/sites", {
        method: "POST",
        rawBody: '{"url": ',
        headers: { "x-api-key": account.key, "x-response-form": "B" },
      });
      expect(answer.status).toBe(400);
      expect(body(answer)).toEqual({ error: expect.any(String), code: "INVALID_JSON" });
    });
  });
});
