import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * POST /api/v1/sites/:id/keywords/search-console: the gateway asks Search Console's
 * searchanalytics.query through Google's client library (@googleapis/searchconsole) at
 * SEARCH_CONSOLE_ROOT_URL, here a local server answering in the documented wire format
 * (https://developers.google.com/webmaster-tools/v1/searchanalytics/query), with the caller's
 * token, and imports the rows as keywords. Google's refusals are 400 with its reason, its failures
 * 502; the token appears in no answer and no stored row.
 */

type Json = Record<string, any>;

const TOKEN = "ya29.a0AfB_byTestAccessToken-0123456789";

type Seen = { method: string; path: string; authorization: string | undefined; body: Json };

/** What the local Search Console answers next: rows, or Google's error with its status. */
let answer: { status: number; body: Json; delayMs?: number } = { status: 200, body: {} };

const rowsAnswer = (rows: Array<[string, number, number, number]>) => ({
  status: 200,
  body: {
    rows: rows.map(([query, clicks, impressions, position]) => ({
      keys: [query],
      clicks,
      impressions,
      ctr: impressions === 0 ? 0 : clicks / impressions,
      position,
    })),
    responseAggregationType: "byProperty",
  },
});

const googleError = (code: number, status: string, message: string) => ({
  status: code,
  body: { error: { code, message, status } },
});

describe("keywords from the Search Console API", () => {
  let google: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let siteId: string;
  const seen: Seen[] = [];

  const importApi = (payload: Json, form?: "B") =>
    api(stack.gateway.url, `/api/v1/sites/${siteId}/keywords/search-console`, {
      method: "POST",
      headers: { "x-api-key": owner.key, ...(form ? { "x-response-form": form } : {}) },
      body: payload,
    });

  const period = (start: string, end: string, extra: Json = {}) => ({
    access_token: TOKEN,
    property: "sc-domain:acme.com",
    start_date: start,
    end_date: end,
    ...extra,
  });

  beforeAll(async () => {
    google = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        seen.push({
          method: req.method ?? "",
          path: req.url ?? "",
          authorization: req.headers.authorization,
          body: raw ? JSON.parse(raw) : {},
        });
        const { status, body, delayMs = 0 } = answer;
        setTimeout(
          () => res.writeHead(status, { "content-type": "application/json; charset=UTF-8" }).end(JSON.stringify(body)),
          delayMs,
        );
      });
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["www.acme.com"],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000", SEARCH_CONSOLE_ROOT_URL: google.url("/"), SEARCH_CONSOLE_TIMEOUT_MS: "2000" },
    });
    owner = await createAccount(stack.db, "agency");
    const site = await api(stack.gateway.url, "/api/v1/sites", {
      headers: { "x-api-key": owner.key },
      body: { url: "https://www.acme.com", name: "Acme" },
    });
    expect(site.status).toBe(201);
    siteId = (site.body as Json).data.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await google?.close();
    await database?.drop();
    await stopContainers();
  });

  it("asks searchanalytics.query by query with the caller's token, and imports the rows; the next period sets the trend", async () => {
    answer = rowsAnswer([
      ["acme project tracker", 120, 1500, 2.4],
      ["best project tracker", 30, 2200, 7.6],
    ]);
    const first = await importApi(period("2026-09-01", "2026-09-30"));
    expect(first.status).toBe(201);
    expect((first.body as Json).data).toMatchObject({ rows: 2, created: 2, updated: 0, skipped: [] });
    const request = seen.at(-1);
    expect(request).toMatchObject({
      method: "POST",
      path: `/webmasters/v3/sites/${encodeURIComponent("sc-domain:acme.com")}/searchAnalytics/query`,
      authorization: `Bearer ${TOKEN}`,
      body: {
        startDate: "2026-09-01",
        endDate: "2026-09-30",
        dimensions: ["query"],
        type: "web",
        rowLimit: 1000,
        startRow: 0,
      },
    });

    answer = rowsAnswer([
      ["acme project tracker", 150, 1700, 1.4],
      ["best project tracker", 25, 2100, 9.2],
      ["acme reviews", 3, 80, 14.5],
    ]);
    const second = await importApi(period("2026-10-01", "2026-10-31", { row_limit: 50, search_type: "news" }));
    expect(second.status).toBe(201);
    expect(seen.at(-1)?.body).toMatchObject({ rowLimit: 50, type: "news" });
    const keywords = (second.body as Json).data.keywords as Json[];
    expect(keywords.map((k) => [k.keyword, k.position, k.previous_position, k.trend, k.clicks, k.impressions])).toEqual(
      [
        ["acme project tracker", 1, 2, "up", 150, 1700],
        ["best project tracker", 9, 8, "down", 25, 2100],
        ["acme reviews", 15, null, "new", 3, 80],
      ],
    );
    expect(JSON.stringify(second.body)).not.toContain(TOKEN);
  });

  it("answers Google's refusals as 400 with its reason and its failures as 502, without the token, storing nothing", async () => {
    const before = await stack.db.keyword.findMany({ where: { siteId }, orderBy: { keyword: "asc" } });
    answer = googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
    const refused = await importApi(period("2026-10-01", "2026-10-31"));
    expect(refused.status).toBe(400);
    expect((refused.body as Json).error.message).toBe(
      "Search Console refused the access token (401 UNAUTHENTICATED: Request had invalid authentication credentials.)",
    );
    answer = googleError(
      403,
      "PERMISSION_DENIED",
      "User does not have sufficient permission for site 'sc-domain:acme.com'.",
    );
    const forbidden = await importApi(period("2026-10-01", "2026-10-31"), "B");
    expect(forbidden.status).toBe(400);
    expect(forbidden.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(String((forbidden.body as Json).error)).toContain("refused access to the property sc-domain:acme.com (403");
    answer = googleError(500, "INTERNAL", "Internal error encountered.");
    const failed = await importApi(period("2026-10-01", "2026-10-31"));
    expect(failed.status).toBe(502);
    expect((failed.body as Json).error.code).toBe("upstream_failure");
    answer = { ...rowsAnswer([["acme late", 1, 2, 1]]), delayMs: 3000 };
    const late = await importApi(period("2026-10-01", "2026-10-31"));
    expect(late.status).toBe(502);
    expect((late.body as Json).error.message).toBe("Search Console did not answer in time or could not be reached");
    answer = { status: 200, body: { rows: [{ keys: ["acme"], impressions: 3, position: 2 }] } };
    const malformed = await importApi(period("2026-10-01", "2026-10-31"));
    expect(malformed.status).toBe(502);
    expect((malformed.body as Json).error.message).toContain('row 1: clicks "" is not a whole number');
    for (const response of [refused, forbidden, failed, malformed])
      expect(JSON.stringify(response.body)).not.toContain(TOKEN);
    expect(await stack.db.keyword.findMany({ where: { siteId }, orderBy: { keyword: "asc" } })).toEqual(before);
  });

  it("refuses a property that does not cover the site, and a bad body, before asking Google", async () => {
    const asked = seen.length;
    const other = await importApi(period("2026-10-01", "2026-10-31", { property: "sc-domain:globex.com" }));
    expect(other.status).toBe(400);
    expect((other.body as Json).error.message).toBe(
      "property sc-domain:globex.com does not cover the site https://www.acme.com",
    );
    const prefix = await importApi(period("2026-10-01", "2026-10-31", { property: "https://acme.com/" }));
    expect(prefix.status).toBe(400);
    const backwards = await importApi(period("2026-10-31", "2026-10-01"));
    expect(backwards.status).toBe(400);
    expect((backwards.body as Json).error.message).toContain("start_date must not be after end_date");
    const noToken = await importApi({
      property: "sc-domain:acme.com",
      start_date: "2026-10-01",
      end_date: "2026-10-31",
    });
    expect(noToken.status).toBe(400);
    expect((noToken.body as Json).error.message).toMatch(/access_token/);
    const tooMany = await importApi(period("2026-10-01", "2026-10-31", { row_limit: 1001 }));
    expect(tooMany.status).toBe(400);
    expect(seen.length).toBe(asked);
    // a URL-prefix property on the site's origin covers it
    answer = rowsAnswer([["acme pricing", 1, 10, 1]]);
    const covered = await importApi(period("2026-10-01", "2026-10-31", { property: "https://www.acme.com/" }));
    expect(covered.status).toBe(201);
    expect(seen.at(-1)?.path).toBe(
      `/webmasters/v3/sites/${encodeURIComponent("https://www.acme.com/")}/searchAnalytics/query`,
    );
  });
});
