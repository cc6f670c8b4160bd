import type { Db } from "@scan/db";
import type { TestAccount } from "./accounts";
import { type AccountsApi, body, startAccountsApi } from "./accounts-api";
import type { ApiResponse } from "./stack";

/** Helpers shared by the tests of the list endpoints (sites, keywords, citations). */

export type Form = "A" | "B";
export type Params = Record<string, string | number | readonly string[]>;

/** A site of the account's, stored directly (the lists read it like any other); its id. */
export const storeSite = async (db: Db, account: TestAccount, host: string): Promise<string> =>
  (await db.site.create({ data: { userId: account.user.id, url: `https://${host}`, domain: host, name: host } })).id;

/** The accounts API with a rate limit no list test reaches: the lists, not the limits, are under test. */
export const startListsApi = (): Promise<AccountsApi> => startAccountsApi({ RATE_LIMIT_FREE: "1000000" });

/**
 * The lists API for the tests of the describe block it is called in: started before them, closed
 * after them. Returns the API, to be called in the tests (it throws before the start).
 */
export const listsApiForSuite = (): (() => AccountsApi) => {
  let api: AccountsApi | undefined;
  beforeAll(async () => {
    api = await startListsApi();
  }, 300_000);
  afterAll(async () => {
    await api?.close();
  });
  return () => {
    if (!api) throw new Error("the lists API has not started");
    return api;
  };
};

export const queryString = (params: Params): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
};

export type ListGet = (params?: Params, form?: Form) => Promise<ApiResponse>;

/** GET `path` with `key`, in the form asked for. */
export const listGetter =
  (ctx: AccountsApi, path: string, key: string): ListGet =>
  (params = {}, form = "A") =>
    ctx.call(`${path}${queryString(params)}`, {
      headers: { "x-api-key": key, ...(form === "B" ? { "x-response-form": "B" } : {}) },
    });

/** A 200 paginated list in `form` with exactly this meta; answers its data. */
export const expectPage = (
  response: ApiResponse,
  meta: { page: number; limit: number; total: number; hasMore: boolean },
  form: Form = "A",
): any[] => {
  expect(response.status).toBe(200);
  const envelope = body(response);
  expect(Object.keys(envelope).sort()).toEqual(form === "A" ? ["data", "meta", "ok"] : ["data", "meta", "success"]);
  expect(form === "A" ? envelope.ok : envelope.success).toBe(true);
  // Form A's meta carries the request id, as on every Form A answer
  expect(envelope.meta).toEqual(form === "A" ? { ...meta, requestId: expect.any(String) } : meta);
  expect(Array.isArray(envelope.data)).toBe(true);
  return envelope.data;
};

/** A 400 in `form` whose message matches. */
export const expectInvalid = (response: ApiResponse, message: RegExp, form: Form = "A") => {
  expect(response.status).toBe(400);
  if (form === "A") {
    expect(body(response)).toEqual({
      ok: false,
      error: { code: "invalid_request", message: expect.stringMatching(message), hint: expect.any(String) },
    });
  } else {
    expect(body(response)).toEqual({ error: expect.stringMatching(message), code: "VALIDATION_ERROR" });
  }
};

/** A 404 not_found in `form`. */
export const expectNotFound = (response: ApiResponse, message: RegExp, form: Form = "A") => {
  expect(response.status).toBe(404);
  if (form === "A") {
    expect(body(response)).toEqual({
      ok: false,
      error: { code: "not_found", message: expect.stringMatching(message), hint: expect.any(String) },
    });
  } else {
    expect(body(response)).toEqual({ error: expect.stringMatching(message), code: "NOT_FOUND" });
  }
};

/**
 * Pages through `total` records `limit` at a time in `form` and answers them in list order,
 * checking each page's meta (hasMore true on every page but the last) and that no record
 * appears twice.
 */
export const pageThrough = async (
  get: ListGet,
  params: Params,
  total: number,
  limit: number,
  form: Form = "A",
): Promise<any[]> => {
  const pages = Math.max(1, Math.ceil(total / limit));
  const seen: any[] = [];
  for (let page = 1; page <= pages; page++) {
    const data = expectPage(
      await get({ ...params, page, limit }, form),
      { page, limit, total, hasMore: page < pages },
      form,
    );
    expect(data).toHaveLength(page < pages ? limit : total - limit * (pages - 1));
    seen.push(...data);
  }
  expect(new Set(seen.map((item) => item.id)).size).toBe(total);
  // one page past the end is empty, not an error
  expectPage(
    await get({ ...params, page: pages + 1, limit }, form),
    { page: pages + 1, limit, total, hasMore: false },
    form,
  );
  return seen;
};

/**
 * The documented order: `key` descending, then the id descending (the tiebreaker). Lower-case
 * UUID strings compare as PostgreSQL compares UUIDs.
 */
export const expectNewestFirst = (items: any[], key: string) => {
  for (let i = 1; i < items.length; i++) {
    const before = items[i - 1];
    const after = items[i];
    const order = before[key] === after[key] ? before.id > after.id : before[key] > after[key];
    expect({ at: i, ordered: order }).toEqual({ at: i, ordered: true });
  }
};

/**
 * limit 0, 1, 100 and 101; page 0 and past the end; and values that are not plain integers,
 * in both forms. The caller holds `total` records (more than 1, at most 100).
 */
export const expectPageParamRules = async (get: ListGet, total: number) => {
  for (const form of ["A", "B"] as const) {
    expectInvalid(await get({ limit: 0 }, form), /limit: must be an integer from 1 to 100/, form);
    expectInvalid(await get({ limit: 101 }, form), /limit: must be an integer from 1 to 100/, form);
    expect(expectPage(await get({ limit: 1 }, form), { page: 1, limit: 1, total, hasMore: true }, form)).toHaveLength(
      1,
    );
    expect(
      expectPage(await get({ limit: 100 }, form), { page: 1, limit: 100, total, hasMore: false }, form),
    ).toHaveLength(total);
    expectInvalid(await get({ page: 0 }, form), /page: must be an integer from 1/, form);
  }
  for (const bad of ["abc", "1.5", "-1", "", "1e1", "0x10", " 5", "+5", "99999999999"]) {
    expectInvalid(await get({ limit: bad }), /limit: must be/);
    expectInvalid(await get({ page: bad }), /page: must be/);
  }
  expectInvalid(await get({ limit: ["10", "20"] }), /limit: must be given once/);
  expectInvalid(await get({ page: ["1", "2"] }, "B"), /page: must be given once/, "B");
  expectInvalid(await get({ pagesize: 10 }), /unknown query parameter "pagesize"/);
};
