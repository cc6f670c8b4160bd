import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, MISSING_SCAN, UUID } from "./support/accounts-api";
import {
  expectInvalid,
  expectNewestFirst,
  expectNotFound,
  expectPage,
  expectPageParamRules,
  listGetter,
  pageThrough,
  startListsApi,
  storeSite,
} from "./support/lists";
import { stopContainers } from "./support/services";
import type { Stack } from "./support/stack";

/**
 * GET /api/v1/keywords (docs/spec/public-scanning-api.md §4.5) and POST /api/v1/keywords: paging, ordering, limits, the
 * site_id filter and its ownership (another user's site is 404), both forms; recording
 * positions and the trend they give.
 */

afterAll(() => stopContainers());

describe("keywords", () => {
  let ctx: AccountsApi;
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startListsApi();
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const keywordsOf = (account: TestAccount) => listGetter(ctx, "/api/v1/keywords", account.key);

  const siteFor = (account: TestAccount, host: string) => storeSite(stack.db, account, host);

  /** `count` keywords of a site, in batches of 15 sharing a creation time, so ties are the rule. */
  const insertKeywords = async (account: TestAccount, siteId: string, count: number, prefix = "keyword") => {
    const base = Date.now() - 3_600_000;
    await stack.db.keyword.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        userId: account.user.id,
        siteId,
        keyword: `${prefix} ${i}`,
        position: (i % 50) + 1,
        volume: 100 * i,
        difficulty: i % 101,
        trend: "new" as const,
        createdAt: new Date(base + Math.floor(i / 15) * 60_000),
      })),
    });
  };

  const record = (account: TestAccount, payload: unknown, form: "A" | "B" = "A") =>
    ctx.call("/api/v1/keywords", {
      method: "POST",
      body: payload,
      headers: { "x-api-key": account.key, ...(form === "B" ? { "x-response-form": "B" } : {}) },
    });

  describe("GET /api/v1/keywords", () => {
    it("answers an empty first page by default, in both forms", async () => {
      const account = await createAccount(stack.db);
      expectPage(await keywordsOf(account)(), { page: 1, limit: 20, total: 0, hasMore: false });
      expectPage(await keywordsOf(account)({}, "B"), { page: 1, limit: 20, total: 0, hasMore: false }, "B");
    });

    it("pages through 45 keywords 20 at a time: 3 pages, hasMore right, none repeated or skipped, newest first", async () => {
      const account = await createAccount(stack.db);
      await insertKeywords(account, await siteFor(account, "one.example"), 25, "one");
      await insertKeywords(account, await siteFor(account, "two.example"), 20, "two");
      for (const form of ["A", "B"] as const) {
        const all = await pageThrough(keywordsOf(account), {}, 45, 20, form);
        expectNewestFirst(all, "created_at");
      }
    });

    it("holds page and limit to their rules in both forms", async () => {
      const account = await createAccount(stack.db);
      await insertKeywords(account, await siteFor(account, "rules.example"), 45);
      await expectPageParamRules(keywordsOf(account), 45);
    });

    it("filters by site_id, paging the site's keywords alone", async () => {
      const account = await createAccount(stack.db);
      const one = await siteFor(account, "one.example");
      const two = await siteFor(account, "two.example");
      await insertKeywords(account, one, 25, "one");
      await insertKeywords(account, two, 20, "two");
      const ofOne = await pageThrough(keywordsOf(account), { site_id: one }, 25, 20);
      expect(ofOne.every((keyword) => keyword.site_id === one && keyword.keyword.startsWith("one "))).toBe(true);
      expectNewestFirst(ofOne, "created_at");
      const ofTwo = expectPage(
        await keywordsOf(account)({ site_id: two.toUpperCase() }, "B"),
        {
          page: 1,
          limit: 20,
          total: 20,
          hasMore: false,
        },
        "B",
      );
      expect(ofTwo.every((keyword) => keyword.site_id === two)).toBe(true);
      // a site without keywords is an empty list, not an error
      const empty = await siteFor(account, "empty.example");
      expectPage(await keywordsOf(account)({ site_id: empty }), { page: 1, limit: 20, total: 0, hasMore: false });
    });

    it("refuses a site_id that is not one UUID with 400 in both forms", async () => {
      const account = await createAccount(stack.db);
      for (const form of ["A", "B"] as const) {
        for (const bad of ["123", "not-a-uuid", "", `${MISSING_SCAN}x`, "{7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11}"]) {
          expectInvalid(await keywordsOf(account)({ site_id: bad }, form), /site_id: must be a UUID/, form);
        }
        expectInvalid(
          await keywordsOf(account)({ site_id: [MISSING_SCAN, MISSING_SCAN] }, form),
          /site_id: must be given once/,
          form,
        );
        expectInvalid(
          await keywordsOf(account)({ siteId: MISSING_SCAN }, form),
          /unknown query parameter "siteId"/,
          form,
        );
      }
    });

    it("answers another user's site_id with the 404 of a missing one, and never shows their keywords", async () => {
      const mine = await createAccount(stack.db);
      const theirs = await createAccount(stack.db);
      const mySite = await siteFor(mine, "mine.example");
      const theirSite = await siteFor(theirs, "theirs.example");
      await insertKeywords(mine, mySite, 3, "mine");
      await insertKeywords(theirs, theirSite, 30, "theirs");
      for (const form of ["A", "B"] as const) {
        expectNotFound(
          await keywordsOf(mine)({ site_id: theirSite }, form),
          new RegExp(`No site with id ${theirSite}`),
          form,
        );
        expectNotFound(await keywordsOf(mine)({ site_id: MISSING_SCAN }, form), /No site with id/, form);
      }
      const listed = expectPage(await keywordsOf(mine)({ limit: 100 }), {
        page: 1,
        limit: 100,
        total: 3,
        hasMore: false,
      });
      expect(listed.every((keyword) => keyword.site_id === mySite)).toBe(true);
      expectPage(await keywordsOf(theirs)({ site_id: theirSite }), { page: 1, limit: 20, total: 30, hasMore: true });
    });
  });

  describe("POST /api/v1/keywords", () => {
    it("records a new keyword with 201, then its positions with 200 and the trend they give", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "crm.example");
      const base = { site_id: siteId, volume: 1900, difficulty: 42 };
      const first = await record(account, { ...base, keyword: "  Best   CRM for Startups ", position: 9 });
      expect(first.status).toBe(201);
      expect(body(first)).toEqual({
        ok: true,
        data: {
          id: expect.stringMatching(UUID),
          site_id: siteId,
          keyword: "best crm for startups",
          position: 9,
          previous_position: null,
          volume: 1900,
          difficulty: 42,
          trend: "new",
          // a keyword never imported from Search Console has neither
          clicks: null,
          impressions: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        meta: { requestId: expect.any(String) },
      });
      const id = body(first).data.id;
      const steps: Array<[number, number, string]> = [
        [4, 9, "up"],
        [4, 4, "flat"],
        [12, 4, "down"],
      ];
      for (const [position, previous, trend] of steps) {
        const next = await record(account, { ...base, keyword: "best crm for startups", position }, "B");
        expect(next.status).toBe(200);
        expect(body(next)).toEqual({
          success: true,
          data: expect.objectContaining({ id, position, previous_position: previous, trend }),
        });
      }
      const updated = await record(account, { ...base, keyword: "BEST CRM FOR STARTUPS", position: 12, volume: 2400 });
      expect(body(updated).data).toEqual(expect.objectContaining({ id, volume: 2400, trend: "flat" }));
      const [listed] = expectPage(await keywordsOf(account)(), { page: 1, limit: 20, total: 1, hasMore: false });
      expect(listed).toEqual(body(updated).data);
    });

    it("keeps one keyword per site: the same keyword on another site is another record", async () => {
      const account = await createAccount(stack.db);
      const one = await siteFor(account, "one.example");
      const two = await siteFor(account, "two.example");
      const payload = { keyword: "espresso", position: 3, volume: 10, difficulty: 10 };
      expect((await record(account, { ...payload, site_id: one })).status).toBe(201);
      expect((await record(account, { ...payload, site_id: two })).status).toBe(201);
      expectPage(await keywordsOf(account)(), { page: 1, limit: 20, total: 2, hasMore: false });
    });

    it("applies concurrent records of one keyword one after the other", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "race.example");
      const positions = [5, 6, 7, 8, 9, 10];
      const answers = await Promise.all(
        positions.map((position) =>
          record(account, { site_id: siteId, keyword: "race", position, volume: 1, difficulty: 1 }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      // applied one at a time, each saw the one before: the previous positions are every position
      // but the last applied, which is the one stored
      const [stored] = expectPage(await keywordsOf(account)(), { page: 1, limit: 20, total: 1, hasMore: false });
      const previous = answers.map((answer) => body(answer).data.previous_position);
      expect(previous.filter((value) => value === null)).toHaveLength(1);
      expect(previous.filter((value) => value !== null).sort()).toEqual(
        positions.filter((position) => position !== stored.position).sort(),
      );
    });

    it("answers another user's site, and a missing one, with 404, storing nothing", async () => {
      const mine = await createAccount(stack.db);
      const theirs = await createAccount(stack.db);
      const theirSite = await siteFor(theirs, "theirs.example");
      const payload = { keyword: "x", position: 1, volume: 1, difficulty: 1 };
      for (const form of ["A", "B"] as const) {
        expectNotFound(await record(mine, { ...payload, site_id: theirSite }, form), /No site with id/, form);
        expectNotFound(await record(mine, { ...payload, site_id: MISSING_SCAN }, form), /No site with id/, form);
      }
      expect(await stack.db.keyword.count({ where: { siteId: theirSite } })).toBe(0);
    });

    it.each([
      ["no site_id", { site_id: undefined }, /site_id: must be a UUID/],
      ["a bad site_id", { site_id: "site-1" }, /site_id: must be a UUID/],
      ["no keyword", { keyword: undefined }, /keyword: is required/],
      ["a blank keyword", { keyword: " \t " }, /keyword: must not be blank/],
      ["a keyword over 200 characters", { keyword: "k".repeat(201) }, /keyword: must be at most 200/],
      ["a NUL in the keyword", { keyword: "a\u0000" }, /keyword: must not contain NUL/],
      ["position 0", { position: 0 }, /position: must be an integer from 1 to 1000/],
      ["position 1001", { position: 1001 }, /position: must be an integer from 1 to 1000/],
      ["a fractional position", { position: 2.5 }, /position: must be an integer/],
      ["a position string", { position: "3" }, /position: must be an integer/],
      ["no volume", { volume: undefined }, /volume: must be an integer/],
      ["a negative volume", { volume: -5 }, /volume: must be an integer from 0/],
      ["difficulty 101", { difficulty: 101 }, /difficulty: must be an integer from 0 to 100/],
      ["a trend", { trend: "up" }, /unknown field "trend"/],
    ])("refuses %s with 400 in both forms", async (_label, change, message) => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "bad.example");
      const payload = { site_id: siteId, keyword: "ok", position: 3, volume: 10, difficulty: 20, ...change };
      expectInvalid(await record(account, payload), message);
      expectInvalid(await record(account, payload, "B"), message, "B");
      expect(await stack.db.keyword.count({ where: { siteId } })).toBe(0);
    });
  });
});
