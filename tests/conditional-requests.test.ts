import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { storeSite } from "./support/lists";
import { stopContainers } from "./support/services";
import type { ApiResponse } from "./support/stack";

/**
 * Conditional requests: a stored scan and every list carry a weak ETag over what they say,
 * `If-None-Match` with it answers 304 with no body, the tag moves with the scan's state and
 * the lists' records, and a 304 gives its point of the hourly rate limit back.
 */

const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{27}"$/;
const FREE_LIMIT = 10;

afterAll(() => stopContainers());

describe("conditional requests", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startAccountsApi();
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const remaining = (response: ApiResponse) => Number(response.headers.get("x-ratelimit-remaining"));

  /** A scan of the account's, stored as the API stores one (queued, no worker here). */
  const scanOf = async (account: TestAccount): Promise<string> => {
    const response = await ctx.scanWith({ "x-api-key": account.key, prefer: "respond-async" });
    expect(response.status).toBe(202);
    return body(response).data.id;
  };

  /** A 304 as RFC 9110 §15.4.5 has it: no body, the validator and the caching headers of the 200. */
  const expectNotModified = (response: ApiResponse, tag: string) => {
    expect(response.status).toBe(304);
    expect(response.body).toBe("");
    expect(response.headers.get("etag")).toBe(tag);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("vary")).toContain("X-Response-Form");
    expect(response.headers.get("content-type")).toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(/./);
  };

  it("answers a stored scan with a weak ETag that ignores the request id, and 304 to it", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const id = await scanOf(account);
    const headers = { "x-api-key": account.key };
    const first = await ctx.call(`/api/v1/scan/${id}`, { headers });
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag") ?? "";
    expect(tag).toMatch(WEAK_TAG);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    // Accept chooses between the JSON and the exports (CSV, SARIF, JUnit)
    expect(first.headers.get("vary")).toBe("Accept, Authorization, X-API-Key, X-Response-Form");
    // another request, another request id in Form A's meta: the same representation
    const second = await ctx.call(`/api/v1/scan/${id}`, { headers });
    expect(body(second).meta.requestId).not.toBe(body(first).meta.requestId);
    expect(second.headers.get("etag")).toBe(tag);

    expectNotModified(await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": tag } }), tag);
    // the weak comparison: the tag without W/, in a list, or * all match
    const opaque = tag.slice(2);
    for (const condition of [opaque, `"other", ${tag}`, "*"]) {
      expectNotModified(
        await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": condition } }),
        tag,
      );
    }
    // HEAD is answered alike
    expect(
      (await ctx.call(`/api/v1/scan/${id}`, { method: "HEAD", headers: { ...headers, "if-none-match": tag } })).status,
    ).toBe(304);
    // another form is another representation
    const formB = await ctx.call(`/api/v1/scan/${id}`, {
      headers: { ...headers, "x-response-form": "B", "if-none-match": tag },
    });
    expect(formB.status).toBe(200);
    expect(formB.headers.get("etag")).not.toBe(tag);
    expect(formB.headers.get("etag")).toMatch(WEAK_TAG);
  });

  it("moves a scan's ETag with its state: queued, running, completed", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const id = await scanOf(account);
    const headers = { "x-api-key": account.key };
    const tags: string[] = [];
    const poll = async (previous: string | undefined) => {
      const response = await ctx.call(`/api/v1/scan/${id}`, {
        headers: { ...headers, ...(previous ? { "if-none-match": previous } : {}) },
      });
      expect(response.status).toBe(200);
      tags.push(response.headers.get("etag") ?? "");
      return response;
    };
    const queued = await poll(undefined);
    expect(body(queued).data.status).toBe("queued");
    // the worker's steps, as it writes them
    await ctx.stack.db.scan.update({ where: { id }, data: { status: "running", startedAt: new Date() } });
    expect(body(await poll(tags[0])).data.status).toBe("running");
    expectNotModified(
      await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": tags[1] as string } }),
      tags[1] as string,
    );
    await ctx.stack.db.scan.update({
      where: { id },
      data: {
        status: "completed",
        completedAt: new Date(),
        seo: 80,
        aeo: 70,
        geo: 60,
        overall: 70,
        grade: "C",
        durationMs: 900,
        checks: [],
      },
    });
    expect(body(await poll(tags[1])).data.status).toBe("completed");
    expect(new Set(tags).size).toBe(3);
  });

  it("does not spend the hourly limit on a 304, and spends it on everything else", async () => {
    const account = await createAccount(ctx.stack.db, "free");
    const id = await scanOf(account);
    const headers = { "x-api-key": account.key };
    const first = await ctx.call(`/api/v1/scan/${id}`, { headers });
    const tag = first.headers.get("etag") ?? "";
    const left = remaining(first);
    expect(left).toBe(FREE_LIMIT - 2);
    // twenty polls, twice the hourly limit: each a 304, none counted
    for (let i = 0; i < 20; i++) {
      const poll = await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": tag } });
      expectNotModified(poll, tag);
      expect(remaining(poll)).toBe(left);
    }
    // a 200 (the tag did not match) is counted
    const changed = await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": '"stale"' } });
    expect(changed.status).toBe(200);
    expect(remaining(changed)).toBe(left - 1);
    // once the window is spent, a conditional request is refused like any other: its condition is not evaluated
    for (let spent = left - 1; spent > 0; spent--) {
      expect((await ctx.call(`/api/v1/scan/${id}`, { headers })).status).toBe(200);
    }
    const refused = await ctx.call(`/api/v1/scan/${id}`, { headers: { ...headers, "if-none-match": tag } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("tags every list, answers 304 while its records stay the same, and moves when they change", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const siteId = await storeSite(ctx.stack.db, account, "tagged.example");
    await scanOf(account);
    const key = { "x-api-key": account.key };
    const jwt = { authorization: `Bearer ${account.token}` };
    const changes: Record<string, [Record<string, string>, () => Promise<unknown>]> = {
      "/api/v1/scans": [key, () => scanOf(account)],
      "/api/v1/sites": [key, () => storeSite(ctx.stack.db, account, "another.example")],
      "/api/v1/keywords": [
        key,
        () =>
          ctx.call("/api/v1/keywords", {
            headers: key,
            body: { site_id: siteId, keyword: "tags", position: 2, volume: 1, difficulty: 1 },
          }),
      ],
      "/api/v1/citations": [
        key,
        () =>
          ctx.call("/api/v1/citations", {
            headers: key,
            body: { site_id: siteId, platform: "claude", query_text: "tags", cited: false },
          }),
      ],
      "/api/v1/keys": [jwt, () => ctx.call("/api/v1/keys", { headers: jwt, body: { name: "another" } })],
    };
    for (const [path, [headers, change]] of Object.entries(changes)) {
      const first = await ctx.call(`${path}?limit=5`, { headers });
      expect([path, first.status]).toEqual([path, 200]);
      const tag = first.headers.get("etag") ?? "";
      expect([path, tag]).toEqual([path, expect.stringMatching(WEAK_TAG)]);
      const again = await ctx.call(`${path}?limit=5`, { headers: { ...headers, "if-none-match": tag } });
      expectNotModified(again, tag);
      expect([path, remaining(again)]).toEqual([path, remaining(first)]);
      // the 304 carries the page's links too
      expect(again.headers.get("link")).toBe(first.headers.get("link"));
      // another page is another representation
      const other = await ctx.call(`${path}?limit=5&page=2`, { headers: { ...headers, "if-none-match": tag } });
      expect([path, other.status]).toEqual([path, 200]);
      await change();
      const moved = await ctx.call(`${path}?limit=5`, { headers: { ...headers, "if-none-match": tag } });
      expect([path, moved.status]).toEqual([path, 200]);
      expect(moved.headers.get("etag")).not.toBe(tag);
    }
  });
});
