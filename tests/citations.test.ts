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
 * GET /api/v1/citations (docs/spec/public-scanning-api.md §4.6) and POST /api/v1/citations: paging, ordering, limits, the
 * site_id, engine and date_range filters, ownership (another user's site is 404), both forms;
 * recording observations.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ENGINES = ["chatgpt", "claude", "perplexity", "gemini"] as const;

afterAll(() => stopContainers());

describe("citations", () => {
  let ctx: AccountsApi;
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startListsApi();
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const citationsOf = (account: TestAccount) => listGetter(ctx, "/api/v1/citations", account.key);

  const siteFor = (account: TestAccount, host: string) => storeSite(stack.db, account, host);

  type Track = { siteId: string; platform?: (typeof ENGINES)[number]; ageMs?: number; query?: string };
  const insertTracks = async (account: TestAccount, tracks: Track[]) => {
    const now = Date.now();
    await stack.db.citationTrack.createMany({
      data: tracks.map((track, i) => ({
        userId: account.user.id,
        siteId: track.siteId,
        platform: track.platform ?? ENGINES[i % 4]!,
        queryText: track.query ?? `query ${i}`,
        cited: i % 3 === 0,
        citationUrl: i % 3 === 0 ? `https://cited.example/${i}` : null,
        checkedAt: new Date(now - (track.ageMs ?? HOUR_MS)),
      })),
    });
  };

  const record = (account: TestAccount, payload: unknown, form: "A" | "B" = "A") =>
    ctx.call("/api/v1/citations", {
      method: "POST",
      body: payload,
      headers: { "x-api-key": account.key, ...(form === "B" ? { "x-response-form": "B" } : {}) },
    });

  describe("GET /api/v1/citations", () => {
    it("answers an empty first page by default, in both forms", async () => {
      const account = await createAccount(stack.db);
      expectPage(await citationsOf(account)(), { page: 1, limit: 20, total: 0, hasMore: false });
      expectPage(await citationsOf(account)({}, "B"), { page: 1, limit: 20, total: 0, hasMore: false }, "B");
    });

    it("pages through 45 tracks 20 at a time: 3 pages, hasMore right, none repeated or skipped, latest first", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "paged.example");
      // three observation times shared by 15 tracks each: the id decides within each
      await insertTracks(
        account,
        Array.from({ length: 45 }, (_, i) => ({ siteId, ageMs: (1 + Math.floor(i / 15)) * DAY_MS })),
      );
      for (const form of ["A", "B"] as const) {
        const all = await pageThrough(citationsOf(account), {}, 45, 20, form);
        expectNewestFirst(all, "checked_at");
      }
    });

    it("holds page and limit to their rules in both forms", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "rules.example");
      await insertTracks(
        account,
        Array.from({ length: 45 }, () => ({ siteId })),
      );
      await expectPageParamRules(citationsOf(account), 45);
    });

    it("counts date_range back from now over checked_at: 30 days by default, or 7 or 90", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "dates.example");
      const ages = [1 * HOUR_MS, 6 * DAY_MS, 7 * DAY_MS + HOUR_MS, 29 * DAY_MS, 31 * DAY_MS, 89 * DAY_MS, 91 * DAY_MS];
      await insertTracks(
        account,
        ages.map((ageMs) => ({ siteId, ageMs })),
      );
      const get = citationsOf(account);
      expectPage(await get(), { page: 1, limit: 20, total: 4, hasMore: false });
      expectPage(await get({ date_range: "30d" }, "B"), { page: 1, limit: 20, total: 4, hasMore: false }, "B");
      const week = expectPage(await get({ date_range: "7d" }), { page: 1, limit: 20, total: 2, hasMore: false });
      for (const track of week) expect(Date.now() - Date.parse(track.checked_at)).toBeLessThan(7 * DAY_MS);
      expectPage(await get({ date_range: "90d" }), { page: 1, limit: 20, total: 6, hasMore: false });
    });

    it("filters by engine, every engine by default", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "engines.example");
      const counts = { chatgpt: 4, claude: 3, perplexity: 2, gemini: 1 };
      await insertTracks(
        account,
        ENGINES.flatMap((platform) => Array.from({ length: counts[platform] }, () => ({ siteId, platform }))),
      );
      for (const engine of ENGINES) {
        const data = expectPage(await citationsOf(account)({ engine }), {
          page: 1,
          limit: 20,
          total: counts[engine],
          hasMore: false,
        });
        expect(data.every((track) => track.platform === engine)).toBe(true);
      }
      expectPage(
        await citationsOf(account)({ engine: "all" }, "B"),
        { page: 1, limit: 20, total: 10, hasMore: false },
        "B",
      );
      expectPage(await citationsOf(account)(), { page: 1, limit: 20, total: 10, hasMore: false });
    });

    it("filters by site_id, and combines the three filters", async () => {
      const account = await createAccount(stack.db);
      const one = await siteFor(account, "one.example");
      const two = await siteFor(account, "two.example");
      await insertTracks(account, [
        { siteId: one, platform: "claude", ageMs: HOUR_MS },
        { siteId: one, platform: "claude", ageMs: 10 * DAY_MS },
        { siteId: one, platform: "gemini", ageMs: HOUR_MS },
        { siteId: two, platform: "claude", ageMs: HOUR_MS },
        { siteId: two, platform: "claude", ageMs: 40 * DAY_MS },
      ]);
      const get = citationsOf(account);
      const ofOne = expectPage(await get({ site_id: one }), { page: 1, limit: 20, total: 3, hasMore: false });
      expect(ofOne.every((track) => track.site_id === one)).toBe(true);
      expectPage(await get({ site_id: one, engine: "claude" }), { page: 1, limit: 20, total: 2, hasMore: false });
      const [only] = expectPage(await get({ site_id: one, engine: "claude", date_range: "7d" }), {
        page: 1,
        limit: 20,
        total: 1,
        hasMore: false,
      });
      expect(only).toEqual(expect.objectContaining({ site_id: one, platform: "claude" }));
      expectPage(
        await get({ site_id: two, date_range: "90d" }, "B"),
        { page: 1, limit: 20, total: 2, hasMore: false },
        "B",
      );
      expectPage(await get({ engine: "claude", date_range: "90d", limit: 2, page: 2 }), {
        page: 2,
        limit: 2,
        total: 4,
        hasMore: false,
      });
    });

    it("refuses engine, date_range and site_id values outside their sets with 400 in both forms", async () => {
      const account = await createAccount(stack.db);
      const get = citationsOf(account);
      for (const form of ["A", "B"] as const) {
        for (const engine of ["bing", "ChatGPT", "", "all,claude", "openai"]) {
          expectInvalid(
            await get({ engine }, form),
            /engine: must be one of chatgpt, claude, perplexity, gemini, all/,
            form,
          );
        }
        for (const range of ["1d", "30", "", "7D", "365d", "all"]) {
          expectInvalid(await get({ date_range: range }, form), /date_range: must be one of 7d, 30d, 90d/, form);
        }
        expectInvalid(await get({ engine: ["claude", "gemini"] }, form), /engine: must be given once/, form);
        expectInvalid(await get({ site_id: "42" }, form), /site_id: must be a UUID/, form);
        expectInvalid(await get({ platform: "claude" }, form), /unknown query parameter "platform"/, form);
      }
    });

    it("answers another user's site_id with the 404 of a missing one, and never shows their tracks", async () => {
      const mine = await createAccount(stack.db);
      const theirs = await createAccount(stack.db);
      const mySite = await siteFor(mine, "mine.example");
      const theirSite = await siteFor(theirs, "theirs.example");
      await insertTracks(mine, [{ siteId: mySite }, { siteId: mySite }]);
      await insertTracks(
        theirs,
        Array.from({ length: 30 }, () => ({ siteId: theirSite })),
      );
      for (const form of ["A", "B"] as const) {
        expectNotFound(await citationsOf(mine)({ site_id: theirSite }, form), /No site with id/, form);
        expectNotFound(
          await citationsOf(mine)({ site_id: MISSING_SCAN, engine: "claude" }, form),
          /No site with id/,
          form,
        );
      }
      for (const engine of [...ENGINES, "all"]) {
        const data = body(await citationsOf(mine)({ engine, date_range: "90d", limit: 100 })).data as any[];
        expect(data.every((track) => track.site_id === mySite)).toBe(true);
      }
      expectPage(await citationsOf(mine)({ date_range: "90d" }), { page: 1, limit: 20, total: 2, hasMore: false });
      expectPage(await citationsOf(theirs)({ site_id: theirSite }), { page: 1, limit: 20, total: 30, hasMore: true });
    });
  });

  describe("POST /api/v1/citations", () => {
    it("records an observation with 201, now by default, and lists it", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "crm.example");
      const before = Date.now();
      const cited = await record(account, {
        site_id: siteId,
        platform: "perplexity",
        query_text: "  best crm for startups?  ",
        cited: true,
        citation_url: "https://CRM.example/guides/crm",
      });
      expect(cited.status).toBe(201);
      expect(body(cited)).toEqual({
        ok: true,
        data: {
          id: expect.stringMatching(UUID),
          site_id: siteId,
          platform: "perplexity",
          query_text: "best crm for startups?",
          cited: true,
          citation_url: "https://crm.example/guides/crm",
          checked_at: expect.any(String),
        },
        meta: { requestId: expect.any(String) },
      });
      expect(Date.parse(body(cited).data.checked_at)).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(body(cited).data.checked_at)).toBeLessThanOrEqual(Date.now() + 1_000);

      // three days ago, written as the wall-clock time at UTC+02:00
      const instant = Date.now() - 3 * DAY_MS;
      const offset = `${new Date(instant + 2 * HOUR_MS).toISOString().slice(0, 19)}+02:00`;
      const elsewhere = await record(
        account,
        {
          site_id: siteId,
          platform: "claude",
          query_text: "best crm for startups?",
          cited: false,
          citation_url: "https://competitor.example/crm",
          checked_at: offset,
        },
        "B",
      );
      expect(elsewhere.status).toBe(201);
      expect(body(elsewhere)).toEqual({
        success: true,
        data: expect.objectContaining({ cited: false, citation_url: "https://competitor.example/crm" }),
      });
      // the offset is honoured: the same instant, in UTC
      expect(body(elsewhere).data.checked_at).toBe(new Date(Date.parse(offset)).toISOString());
      expect(Math.abs(Date.parse(offset) - instant)).toBeLessThan(1_000);
      const nothing = await record(account, { site_id: siteId, platform: "gemini", query_text: "crm", cited: false });
      expect(body(nothing).data.citation_url).toBeNull();

      const listed = expectPage(await citationsOf(account)(), { page: 1, limit: 20, total: 3, hasMore: false });
      expect(listed.map((track) => track.id)).toEqual([
        body(nothing).data.id,
        body(cited).data.id,
        body(elsewhere).data.id,
      ]);
      expectPage(await citationsOf(account)({ date_range: "7d", engine: "claude" }), {
        page: 1,
        limit: 20,
        total: 1,
        hasMore: false,
      });
    });

    it("keeps an observation older than 90 days, outside every date_range", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "old.example");
      const old = await record(account, {
        site_id: siteId,
        platform: "chatgpt",
        query_text: "q",
        cited: false,
        checked_at: new Date(Date.now() - 120 * DAY_MS).toISOString(),
      });
      expect(old.status).toBe(201);
      expectPage(await citationsOf(account)({ date_range: "90d" }), { page: 1, limit: 20, total: 0, hasMore: false });
    });

    it("accepts a checked_at a few minutes ahead (clock skew) and refuses one further ahead", async () => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "clock.example");
      const at = (ms: number) => ({
        site_id: siteId,
        platform: "gemini",
        query_text: "q",
        cited: false,
        checked_at: new Date(Date.now() + ms).toISOString(),
      });
      expect((await record(account, at(4 * 60_000))).status).toBe(201);
      expectInvalid(await record(account, at(10 * 60_000)), /checked_at: must not be in the future/);
      expectInvalid(await record(account, at(DAY_MS), "B"), /checked_at: must not be in the future/, "B");
    });

    it("answers another user's site, and a missing one, with 404, storing nothing", async () => {
      const mine = await createAccount(stack.db);
      const theirs = await createAccount(stack.db);
      const theirSite = await siteFor(theirs, "theirs.example");
      const payload = { platform: "claude", query_text: "q", cited: false };
      for (const form of ["A", "B"] as const) {
        expectNotFound(await record(mine, { ...payload, site_id: theirSite }, form), /No site with id/, form);
        expectNotFound(await record(mine, { ...payload, site_id: MISSING_SCAN }, form), /No site with id/, form);
      }
      expect(await stack.db.citationTrack.count({ where: { siteId: theirSite } })).toBe(0);
    });

    it.each([
      ["no site_id", { site_id: undefined }, /site_id: must be a UUID/],
      ["an unknown platform", { platform: "bing" }, /platform: must be one of chatgpt, claude, perplexity, gemini/],
      ["platform all", { platform: "all" }, /platform: must be one of/],
      ["no query_text", { query_text: undefined }, /query_text: is required/],
      ["a blank query_text", { query_text: "  " }, /query_text: must not be blank/],
      ["a query_text over 500 characters", { query_text: "q".repeat(501) }, /query_text: must be at most 500/],
      ["a NUL in query_text", { query_text: "a\u0000b" }, /query_text: must not contain NUL/],
      ["a cited string", { cited: "true" }, /cited: must be true or false/],
      ["cited without citation_url", { citation_url: undefined }, /citation_url: is required when cited is true/],
      ["cited with a null citation_url", { citation_url: null }, /citation_url: is required when cited is true/],
      ["a relative citation_url", { citation_url: "/crm" }, /citation_url: must be an absolute http\(s\) URL/],
      ["a javascript: citation_url", { citation_url: "javascript:alert(1)" }, /citation_url: must be an absolute http/],
      ["a checked_at without a time", { checked_at: "2026-11-01" }, /checked_at: must be an ISO 8601 date-time/],
      ["a checked_at in words", { checked_at: "yesterday" }, /checked_at: must be an ISO 8601 date-time/],
      ["an engine field", { engine: "claude" }, /unknown field "engine"/],
    ])("refuses %s with 400 in both forms", async (_label, change, message) => {
      const account = await createAccount(stack.db);
      const siteId = await siteFor(account, "bad.example");
      const payload = {
        site_id: siteId,
        platform: "claude",
        query_text: "q",
        cited: true,
        citation_url: "https://bad.example/a",
        ...change,
      };
      expectInvalid(await record(account, payload), message);
      expectInvalid(await record(account, payload, "B"), message, "B");
      expect(await stack.db.citationTrack.count({ where: { siteId } })).toBe(0);
    });
  });
});
