import { createAccount, type TestAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * POST /api/v1/sites/:id/keywords/import: Search Console's queries export (Queries.csv) becomes
 * the site's keywords with position, clicks and impressions; a second period's export sets each
 * keyword's trend; a file with a row at fault stores nothing, in both envelope forms.
 */

type Json = Record<string, any>;

/** Search Console's export as it downloads: a byte-order mark, its header, CRLF lines. */
const PERIOD_1 = [
  "\uFEFFTop queries,Clicks,Impressions,CTR,Position",
  "acme project tracker,120,1500,8%,2.4",
  "Best  Project Tracker,30,2200,1.36%,7.6",
  "acme pricing,12,90,13.33%,1",
  "acme login,4,60,6.67%,1.5",
  "",
].join("\r\n");

const PERIOD_2 = [
  "Top queries,Clicks,Impressions,CTR,Position",
  "acme project tracker,140,1600,8.75%,3.1",
  "best project tracker,60,2500,2.4%,4.49",
  "acme pricing,15,100,15%,1.2",
  "acme reviews,2,40,5%,12",
  "ACME Reviews,1,3,33.33%,20",
  '"acme, but far away",0,10,0%,1500.5',
  "",
].join("\n");

describe("keywords from Search Console", () => {
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let stranger: TestAccount;
  let siteId: string;

  const importCsv = (csv: string, options: { key?: string; site?: string; form?: "B"; type?: string } = {}) =>
    api(stack.gateway.url, `/api/v1/sites/${options.site ?? siteId}/keywords/import`, {
      method: "POST",
      headers: {
        "x-api-key": options.key ?? owner.key,
        "content-type": options.type ?? "text/csv",
        ...(options.form ? { "x-response-form": options.form } : {}),
      },
      rawBody: csv,
    });

  const stored = async () =>
    (await stack.db.keyword.findMany({ where: { siteId }, orderBy: { keyword: "asc" } })).map((k) => ({
      keyword: k.keyword,
      position: k.position,
      previous: k.previousPosition,
      trend: k.trend,
      clicks: k.clicks,
      impressions: k.impressions,
      volume: k.volume,
      difficulty: k.difficulty,
    }));

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["acme.com"],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
    owner = await createAccount(stack.db, "agency");
    stranger = await createAccount(stack.db, "agency");
    const site = await api(stack.gateway.url, "/api/v1/sites", {
      headers: { "x-api-key": owner.key },
      body: { url: "https://acme.com", name: "Acme" },
    });
    expect(site.status).toBe(201);
    siteId = (site.body as Json).data.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  it("creates a keyword per query with its rounded position, clicks and impressions", async () => {
    const first = await importCsv(PERIOD_1);
    expect(first.status).toBe(201);
    const data = (first.body as Json).data;
    expect(data).toMatchObject({ rows: 4, created: 4, updated: 0, skipped: [] });
    expect(data.keywords.map((k: Json) => k.keyword)).toEqual([
      "acme project tracker",
      "best project tracker",
      "acme pricing",
      "acme login",
    ]);
    expect(data.keywords[0]).toMatchObject({
      site_id: siteId,
      position: 2,
      previous_position: null,
      trend: "new",
      clicks: 120,
      impressions: 1500,
      volume: 1500,
      difficulty: 0,
    });
    // 1.5 rounds to 2, 7.6 to 8
    expect(data.keywords[1].position).toBe(8);
    expect(data.keywords[3].position).toBe(2);
    const listed = await api(stack.gateway.url, `/api/v1/keywords?site_id=${siteId}&limit=100`, {
      headers: { "x-api-key": owner.key },
    });
    expect((listed.body as Json).data).toHaveLength(4);
    expect((listed.body as Json).data.every((k: Json) => typeof k.clicks === "number")).toBe(true);
  });

  it("sets each keyword's trend from the next period's export, and skips repeats and far positions", async () => {
    // a volume and difficulty set by hand stay through imports
    const recorded = await api(stack.gateway.url, "/api/v1/keywords", {
      headers: { "x-api-key": owner.key },
      body: { site_id: siteId, keyword: "acme pricing", position: 1, volume: 5000, difficulty: 30 },
    });
    expect(recorded.status).toBe(200);
    const second = await importCsv(PERIOD_2);
    expect(second.status).toBe(201);
    const data = (second.body as Json).data;
    expect(data).toMatchObject({ rows: 6, created: 1, updated: 3 });
    expect(data.skipped).toEqual([
      { row: 6, query: "acme reviews", reason: "the same query as row 5" },
      { row: 7, query: "acme, but far away", reason: "average position 1500.5 is past 1000" },
    ]);
    expect(await stored()).toEqual([
      {
        keyword: "acme login",
        position: 2,
        previous: null,
        trend: "new",
        clicks: 4,
        impressions: 60,
        volume: 60,
        difficulty: 0,
      },
      {
        keyword: "acme pricing",
        position: 1,
        previous: 1,
        trend: "flat",
        clicks: 15,
        impressions: 100,
        volume: 5000,
        difficulty: 30,
      },
      {
        keyword: "acme project tracker",
        position: 3,
        previous: 2,
        trend: "down",
        clicks: 140,
        impressions: 1600,
        volume: 1500,
        difficulty: 0,
      },
      {
        keyword: "acme reviews",
        position: 12,
        previous: null,
        trend: "new",
        clicks: 2,
        impressions: 40,
        volume: 40,
        difficulty: 0,
      },
      {
        keyword: "best project tracker",
        position: 4,
        previous: 8,
        trend: "up",
        clicks: 60,
        impressions: 2500,
        volume: 2200,
        difficulty: 0,
      },
    ]);
    // the same export again: nothing new, 200
    const again = await importCsv(PERIOD_2);
    expect(again.status).toBe(200);
    expect((again.body as Json).data).toMatchObject({ created: 0, updated: 4 });
  });

  it("refuses a file with a row at fault whole, naming the rows, in both forms, and stores nothing", async () => {
    const before = await stored();
    const faulty = [
      "Top queries,Clicks,Impressions,CTR,Position",
      "acme project tracker,1,10,10%,1",
      "acme brand new,n/a,10,0%,3",
      ",1,10,10%,2",
      "acme clicks,20,10,200%,2",
      "acme position,1,10,10%,0.4",
      "",
    ].join("\n");
    const a = await importCsv(faulty);
    expect(a.status).toBe(400);
    const message = (a.body as Json).error.message as string;
    expect(message).toMatch(/^Nothing was imported: 4 of 5 rows cannot be imported\./);
    expect(message).toContain('row 3: clicks "n/a" is not a whole number');
    expect(message).toContain("row 4: the query is blank");
    expect(message).toContain("row 5: clicks (20) exceed impressions (10)");
    expect(message).toContain('row 6: position "0.4" is not an average position');
    const b = await importCsv(faulty, { form: "B" });
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(String((b.body as Json).error)).toMatch(/^Nothing was imported/);
    expect(await stored()).toEqual(before);
  });

  it("refuses what is not a queries export, and another workspace's site", async () => {
    const before = await stored();
    const pages = await importCsv("Top pages,Clicks,Impressions,CTR,Position\nhttps://acme.com/,1,2,50%,1\n");
    expect(pages.status).toBe(400);
    expect((pages.body as Json).error.message).toContain('"top pages", which is not a column');
    const noPosition = await importCsv("Top queries,Clicks,Impressions\nacme,1,2\n");
    expect(noPosition.status).toBe(400);
    expect((noPosition.body as Json).error.message).toContain("has no position column");
    const empty = await importCsv("");
    expect(empty.status).toBe(400);
    const broken = await importCsv('Top queries,Clicks,Impressions,CTR,Position\n"acme,1,2,50%,1\n');
    expect(broken.status).toBe(400);
    expect((broken.body as Json).error.message).toContain("not well-formed CSV");
    const json = await importCsv(JSON.stringify({ queries: [] }), { type: "application/json" });
    expect(json.status).toBe(400);
    expect((json.body as Json).error.message).toContain("which is not CSV");
    const theirs = await importCsv(PERIOD_1, { key: stranger.key });
    expect(theirs.status).toBe(404);
    expect(await stored()).toEqual(before);
  });
});
