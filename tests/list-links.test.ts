import { createKeyService, personalKeyOwner } from "@scan/gateway";
import { createAccount, type TestAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { storeSite } from "./support/lists";
import { stopContainers } from "./support/services";
import { type ApiResponse, api } from "./support/stack";

/**
 * RFC 8288 Link headers on every paginated list: `first` and `last` always, `prev` and `next`
 * where they lead somewhere, absolute URLs that keep the request's query and honour a trusted
 * proxy's scheme and host. Each list is walked end to end by following `next` alone.
 */

type Links = Record<string, string>;

/** The Link header as rel → URL; fails on anything RFC 8288 would not parse the same way. */
const linksOf = (response: ApiResponse): Links => {
  const header = response.headers.get("link");
  expect(header).not.toBeNull();
  const links: Links = {};
  for (const part of (header ?? "").split(", ")) {
    const match = /^<([^>]+)>; rel="(first|last|next|prev)"$/.exec(part);
    expect([part, match !== null]).toEqual([part, true]);
    if (match) links[match[2] as string] = match[1] as string;
  }
  return links;
};

const pageOf = (url: string) => Number(new URL(url).searchParams.get("page"));

afterAll(() => stopContainers());

describe("Link headers on the paginated lists", () => {
  let ctx: AccountsApi;
  let untrusted: AccountsApi;
  let account: TestAccount;

  beforeAll(async () => {
    ctx = await startAccountsApi({ RATE_LIMIT_FREE: "1000000" });
    untrusted = await startAccountsApi({ RATE_LIMIT_FREE: "1000000", TRUST_PROXY: "0" });
    account = await createAccount(ctx.stack.db);
    const db = ctx.stack.db;
    // 23 of each: five pages of five, the last one short
    const siteIds: string[] = [];
    for (let i = 0; i < 23; i++) siteIds.push(await storeSite(db, account, `site-${i}.example`));
    const first = siteIds[0] as string;
    await db.keyword.createMany({
      data: siteIds.map((siteId, i) => ({
        userId: account.user.id,
        siteId: first,
        keyword: `keyword ${i} ${siteId.slice(0, 4)}`,
        position: i + 1,
        volume: i,
        difficulty: i,
        trend: "new" as const,
      })),
    });
    await db.citationTrack.createMany({
      data: siteIds.map((siteId, i) => ({
        userId: account.user.id,
        siteId,
        platform: "claude" as const,
        queryText: `query ${i}`,
        cited: false,
        checkedAt: new Date(Date.now() - 60_000 - i),
      })),
    });
    await db.scan.createMany({
      data: siteIds.map((_, i) => ({
        url: `https://site-${i}.example/`,
        mode: "quick" as const,
        userId: account.user.id,
      })),
    });
    // the account's own key and 22 more
    const keys = createKeyService({ db, maxKeysPerUser: 1_000 });
    const owner = await personalKeyOwner(db, account.user);
    for (let i = 0; i < 22; i++) await keys.create(owner, { name: `key ${i}` });
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
    await untrusted?.close();
  });

  const LISTS = ["/api/v1/sites", "/api/v1/keywords", "/api/v1/citations", "/api/v1/scans", "/api/v1/keys"] as const;
  const credentials = (path: string): Record<string, string> =>
    path === "/api/v1/keys" ? { authorization: `Bearer ${account.token}` } : { "x-api-key": account.key };

  /** GET an absolute URL the gateway gave, with the list's credentials. */
  const follow = (url: string, path: string) => {
    const target = new URL(url);
    return api(ctx.stack.gateway.url, `${target.pathname}${target.search}`, { headers: credentials(path) });
  };

  it.each(LISTS)("%s is walked end to end by following next alone", async (path) => {
    const seen: string[] = [];
    let response = await ctx.call(`${path}?limit=5`, { headers: credentials(path) });
    let pages = 0;
    for (;;) {
      expect(response.status).toBe(200);
      pages += 1;
      seen.push(...(body(response).data as Array<{ id: string }>).map((item) => item.id));
      const links = linksOf(response);
      expect(pageOf(links.first as string)).toBe(1);
      expect(pageOf(links.last as string)).toBe(5);
      if (pages > 1) expect(pageOf(links.prev as string)).toBe(pages - 1);
      else expect(links.prev).toBeUndefined();
      if (!links.next) break;
      expect(pageOf(links.next)).toBe(pages + 1);
      response = await follow(links.next, path);
    }
    expect(pages).toBe(5);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    // following last lands on the same last page
    const last = await follow(linksOf(response).last as string, path);
    expect(body(last).data.map((item: { id: string }) => item.id)).toEqual(seen.slice(20));
  });

  it("keeps the request's other parameters, in both forms, and sets page alone", async () => {
    const response = await ctx.call("/api/v1/sites?q=site-1&limit=2&page=2", {
      headers: { ...credentials("/api/v1/sites"), "x-response-form": "B" },
    });
    expect(response.status).toBe(200);
    // site-1 and site-10 to site-19: 11 sites, 6 pages of 2
    expect(body(response).meta).toEqual({ page: 2, limit: 2, total: 11, hasMore: true });
    const links = linksOf(response);
    const base = ctx.stack.gateway.url;
    expect(links).toEqual({
      next: `${base}/api/v1/sites?q=site-1&limit=2&page=3`,
      prev: `${base}/api/v1/sites?q=site-1&limit=2&page=1`,
      first: `${base}/api/v1/sites?q=site-1&limit=2&page=1`,
      last: `${base}/api/v1/sites?q=site-1&limit=2&page=6`,
    });
    // no page in the request: it is added; the default limit stays implicit
    const plain = linksOf(await ctx.call("/api/v1/sites", { headers: credentials("/api/v1/sites") }));
    expect(plain).toEqual({
      next: `${base}/api/v1/sites?page=2`,
      first: `${base}/api/v1/sites?page=1`,
      last: `${base}/api/v1/sites?page=2`,
    });
  });

  it("names first and last on an empty list, and leads back from past the end", async () => {
    const empty = await ctx.call("/api/v1/sites?q=nothing-like-this", { headers: credentials("/api/v1/sites") });
    expect(linksOf(empty)).toEqual({
      first: `${ctx.stack.gateway.url}/api/v1/sites?q=nothing-like-this&page=1`,
      last: `${ctx.stack.gateway.url}/api/v1/sites?q=nothing-like-this&page=1`,
    });
    const beyond = await ctx.call("/api/v1/sites?limit=5&page=9", { headers: credentials("/api/v1/sites") });
    expect(body(beyond).data).toEqual([]);
    const links = linksOf(beyond);
    expect(links.next).toBeUndefined();
    expect(pageOf(links.prev as string)).toBe(5);
    expect(pageOf(links.last as string)).toBe(5);
  });

  it("uses the scheme and host a trusted proxy reports, and ignores them from anyone else", async () => {
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "api.example.com" };
    const behindProxy = await ctx.call("/api/v1/sites?limit=5", {
      headers: { ...credentials("/api/v1/sites"), ...forwarded },
    });
    expect(linksOf(behindProxy).next).toBe("https://api.example.com/api/v1/sites?limit=5&page=2");

    const other = await createAccount(untrusted.stack.db);
    for (let i = 0; i < 3; i++) await storeSite(untrusted.stack.db, other, `other-${i}.example`);
    const direct = await untrusted.call("/api/v1/sites?limit=2", { headers: { "x-api-key": other.key, ...forwarded } });
    expect(linksOf(direct).next).toBe(`${untrusted.stack.gateway.url}/api/v1/sites?limit=2&page=2`);
  });
});
