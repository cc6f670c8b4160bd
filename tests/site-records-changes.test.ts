import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body } from "./support/accounts-api";
import { expectInvalid, expectNotFound, startListsApi, storeSite } from "./support/lists";
import { stopContainers } from "./support/services";
import type { Stack } from "./support/stack";

/**
 * PATCH and DELETE of sites, keywords and citation tracks (docs/sites-and-lists.md): both
 * envelopes, another user's record is 404, a keyword reworded onto another is 409, a site goes
 * with its records and is refused while an audit of it runs.
 */

afterAll(() => stopContainers());

describe("renaming and deleting sites, keywords and citation tracks", () => {
  let ctx: AccountsApi;
  let stack: Stack;

  beforeAll(async () => {
    ctx = await startListsApi();
    stack = ctx.stack;
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const call = (account: TestAccount, path: string, method: string, payload?: unknown, form: "A" | "B" = "A") =>
    ctx.call(path, {
      method,
      ...(payload === undefined ? {} : { body: payload }),
      headers: { "x-api-key": account.key, ...(form === "B" ? { "x-response-form": "B" } : {}) },
    });

  const addKeyword = async (account: TestAccount, siteId: string, keyword: string) => {
    const answer = await call(account, "/api/v1/keywords", "POST", {
      site_id: siteId,
      keyword,
      position: 4,
      volume: 100,
      difficulty: 10,
    });
    expect(answer.status).toBe(201);
    return body(answer).data.id as string;
  };

  const addTrack = async (account: TestAccount, siteId: string, queryText: string) => {
    const answer = await call(account, "/api/v1/citations", "POST", {
      site_id: siteId,
      platform: "claude",
      query_text: queryText,
      cited: false,
    });
    expect(answer.status).toBe(201);
    return body(answer).data.id as string;
  };

  describe("sites", () => {
    it("renames a site in both forms, keeping its origin", async () => {
      const account = await createAccount(stack.db);
      const id = await storeSite(stack.db, account, "rename.example");
      const a = await call(account, `/api/v1/sites/${id}`, "PATCH", { name: "  Client one  " });
      expect(a.status).toBe(200);
      expect(body(a)).toMatchObject({ ok: true, data: { id, name: "Client one", url: "https://rename.example" } });
      const b = await call(account, `/api/v1/sites/${id}`, "PATCH", { name: "Client two" }, "B");
      expect(b.status).toBe(200);
      expect(body(b)).toMatchObject({ success: true, data: { id, name: "Client two" } });
      expect(body(await call(account, `/api/v1/sites/${id}`, "GET")).data.name).toBe("Client two");
    });

    it("refuses a blank name, an unknown field and another user's site", async () => {
      const account = await createAccount(stack.db);
      const other = await createAccount(stack.db);
      const id = await storeSite(stack.db, account, "refuse.example");
      expectInvalid(await call(account, `/api/v1/sites/${id}`, "PATCH", { name: "  " }), /name: must not be blank/);
      expectInvalid(
        await call(account, `/api/v1/sites/${id}`, "PATCH", { name: "x", url: "https://a.example" }, "B"),
        /url/,
        "B",
      );
      expectNotFound(await call(other, `/api/v1/sites/${id}`, "PATCH", { name: "Mine" }), /No site with id/);
      expectNotFound(await call(other, `/api/v1/sites/${id}`, "DELETE", undefined, "B"), /No site with id/, "B");
      expect((await stack.db.site.findUniqueOrThrow({ where: { id } })).name).toBe("refuse.example");
    });

    it("deletes a site with its keywords and tracks, and answers 404 after", async () => {
      const account = await createAccount(stack.db);
      const id = await storeSite(stack.db, account, "gone.example");
      const keep = await storeSite(stack.db, account, "kept.example");
      await addKeyword(account, id, "gone words");
      await addTrack(account, id, "gone query");
      await addKeyword(account, keep, "kept words");
      const deleted = await call(account, `/api/v1/sites/${id}`, "DELETE");
      expect(deleted.status).toBe(200);
      expect(body(deleted)).toMatchObject({ ok: true, data: { id, deleted: true } });
      expectNotFound(await call(account, `/api/v1/sites/${id}`, "GET"), /No site with id/);
      expect(await stack.db.keyword.count({ where: { userId: account.user.id } })).toBe(1);
      expect(await stack.db.citationTrack.count({ where: { userId: account.user.id } })).toBe(0);
      expectNotFound(await call(account, `/api/v1/sites/${id}`, "DELETE"), /No site with id/);
    });

    it("refuses to delete a site while an audit of it is under way (409 in both forms)", async () => {
      const account = await createAccount(stack.db);
      const id = await storeSite(stack.db, account, "busy.example");
      await stack.db.audit.create({
        data: {
          userId: account.user.id,
          siteId: id,
          startUrl: "https://busy.example/",
          status: "running",
          mode: "quick",
          maxPages: 10,
          include: [],
          exclude: [],
        },
      });
      const a = await call(account, `/api/v1/sites/${id}`, "DELETE");
      expect(a.status).toBe(409);
      expect(body(a)).toEqual({
        ok: false,
        error: { code: "conflict", message: "An audit of this site is under way.", hint: expect.any(String) },
      });
      const b = await call(account, `/api/v1/sites/${id}`, "DELETE", undefined, "B");
      expect(body(b)).toEqual({ error: "An audit of this site is under way.", code: "CONFLICT" });
      expect(await stack.db.site.count({ where: { id } })).toBe(1);
    });
  });

  describe("the site read", () => {
    it("includes the site's schedule, or null when it has none, instead of a 404 to ask for", async () => {
      const account = await createAccount(stack.db);
      const id = await storeSite(stack.db, account, "scheduled.example");
      const none = await call(account, `/api/v1/sites/${id}`, "GET");
      expect(none.status).toBe(200);
      expect(body(none).data).toMatchObject({ id, schedule: null });
      const put = await call(account, `/api/v1/sites/${id}/schedule`, "POST", { frequency: "weekly", mode: "quick" });
      expect(put.status).toBe(201);
      const some = await call(account, `/api/v1/sites/${id}`, "GET", undefined, "B");
      expect(body(some)).toMatchObject({
        success: true,
        data: { id, schedule: { site_id: id, frequency: "weekly", mode: "quick", pattern: body(put).data.pattern } },
      });
    });
  });

  describe("keywords", () => {
    it("rewords a keyword as it records one, keeping its position, and deletes it", async () => {
      const account = await createAccount(stack.db);
      const site = await storeSite(stack.db, account, "kw.example");
      const id = await addKeyword(account, site, "best crm");
      const renamed = await call(account, `/api/v1/keywords/${id}`, "PATCH", { keyword: "  Best   CRM tools " }, "B");
      expect(renamed.status).toBe(200);
      expect(body(renamed)).toMatchObject({ success: true, data: { id, keyword: "best crm tools", position: 4 } });
      const deleted = await call(account, `/api/v1/keywords/${id}`, "DELETE");
      expect(body(deleted)).toMatchObject({ ok: true, data: { id, deleted: true } });
      expect(await stack.db.keyword.count({ where: { id } })).toBe(0);
    });

    it("refuses words the site already tracks with 409, and another user's keyword with 404", async () => {
      const account = await createAccount(stack.db);
      const other = await createAccount(stack.db);
      const site = await storeSite(stack.db, account, "kw2.example");
      const id = await addKeyword(account, site, "first words");
      await addKeyword(account, site, "second words");
      const clash = await call(account, `/api/v1/keywords/${id}`, "PATCH", { keyword: "Second words" });
      expect(clash.status).toBe(409);
      expect(body(clash).error).toMatchObject({ code: "conflict", message: 'The site already tracks "second words".' });
      expectNotFound(await call(other, `/api/v1/keywords/${id}`, "PATCH", { keyword: "x" }), /No keyword with id/);
      expectNotFound(await call(other, `/api/v1/keywords/${id}`, "DELETE"), /No keyword with id/);
      expectInvalid(await call(account, "/api/v1/keywords/not-a-uuid", "DELETE"), /id must be a UUID/);
      expect((await stack.db.keyword.findUniqueOrThrow({ where: { id } })).keyword).toBe("first words");
    });
  });

  describe("citation tracks", () => {
    it("corrects a track's query and deletes it; another user's is 404", async () => {
      const account = await createAccount(stack.db);
      const other = await createAccount(stack.db);
      const site = await storeSite(stack.db, account, "ct.example");
      const id = await addTrack(account, site, "best crm?");
      expectNotFound(
        await call(other, `/api/v1/citations/${id}`, "PATCH", { query_text: "x" }, "B"),
        /No citation track/,
        "B",
      );
      expectNotFound(await call(other, `/api/v1/citations/${id}`, "DELETE"), /No citation track/);
      const renamed = await call(account, `/api/v1/citations/${id}`, "PATCH", {
        query_text: " best crm for startups? ",
      });
      expect(body(renamed)).toMatchObject({
        ok: true,
        data: { id, query_text: "best crm for startups?", platform: "claude", cited: false },
      });
      expectInvalid(await call(account, `/api/v1/citations/${id}`, "PATCH", { query_text: "" }), /query_text/);
      const deleted = await call(account, `/api/v1/citations/${id}`, "DELETE", undefined, "B");
      expect(body(deleted)).toEqual({ success: true, data: { id, deleted: true } });
      expect(await stack.db.citationTrack.count({ where: { id } })).toBe(0);
    });
  });
});
