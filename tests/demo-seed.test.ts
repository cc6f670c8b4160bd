import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { seedDemoUser } from "@scan/gateway";
import { body } from "./support/accounts-api";
import { type Form, listGetter, listsApiForSuite, type Params } from "./support/lists";
import { stopContainers } from "./support/services";

/** `pnpm seed`: a demo user with sites, keywords and 90 days of citation tracks, and a key that lists them. */

afterAll(() => stopContainers());

describe("demo seed", () => {
  const api = listsApiForSuite();

  const runCli = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
      execFile(
        resolve(__dirname, "../node_modules/.bin/tsx"),
        [resolve(__dirname, "../services/gateway/src/seed-cli.ts"), ...args],
        { env: { ...process.env, DATABASE_URL: api().database.url } },
        (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it("prints a key that lists the demo user's sites, keywords and citation tracks", async () => {
    const run = await runCli("--email", "demo@example.com");
    expect(run.code).toBe(0);
    const key = /^\s+(aeo_live_[0-9A-Za-z]{36})$/m.exec(run.stdout)?.[1];
    expect(key).toBeDefined();
    expect(run.stdout).toMatch(/Seeded demo@example.com \(pro\): 6 sites, 30 keywords, 1800 citation tracks/);
    const get = (path: string) => listGetter(api(), path, key as string);
    const all = async (path: string, params: Params = {}, form: Form = "A") =>
      body(await get(path)({ ...params, limit: 100 }, form));

    const sites = await all("/api/v1/sites");
    expect(sites.meta).toEqual({ page: 1, limit: 100, total: 6, hasMore: false, requestId: expect.any(String) });
    expect(sites.data.filter((site: any) => site.is_verified)).toHaveLength(3);
    expect(sites.data.filter((site: any) => site.latest_scores === null)).toHaveLength(1);
    expect(sites.data.filter((site: any) => site.latest_scores_scan?.partial)).toEqual([
      expect.objectContaining({
        domain: "fabrikam-outdoor.example",
        latest_scores_scan: expect.objectContaining({ mode: "quick" }),
      }),
    ]);
    expect(body(await get("/api/v1/sites")({ q: "northwind" })).meta.total).toBe(2);

    const keywords = await all("/api/v1/keywords", {}, "B");
    expect(keywords.meta.total).toBe(30);
    expect(new Set(keywords.data.map((keyword: any) => keyword.trend))).toEqual(new Set(["up", "down", "flat", "new"]));
    for (const keyword of keywords.data) {
      if (keyword.trend === "new") expect(keyword.previous_position).toBeNull();
      if (keyword.trend === "up") expect(keyword.position).toBeLessThan(keyword.previous_position);
      if (keyword.trend === "down") expect(keyword.position).toBeGreaterThan(keyword.previous_position);
    }
    const coffee = sites.data.find((site: any) => site.domain === "www.northwind-coffee.example");
    expect((await all("/api/v1/keywords", { site_id: coffee.id })).meta.total).toBe(8);

    // every tracked query asked of each engine every 3 days over the last 90
    const totals = await Promise.all(
      ["7d", "30d", "90d"].map(async (range) => (await all("/api/v1/citations", { date_range: range })).meta.total),
    );
    expect(totals[2]).toBe(1800);
    expect(totals[0]).toBeGreaterThan(0);
    expect(totals[0]).toBeLessThan(totals[1]);
    expect(totals[1]).toBeLessThan(totals[2]);
    const perEngine = await Promise.all(
      ["chatgpt", "claude", "perplexity", "gemini"].map(
        async (engine) => (await all("/api/v1/citations", { engine, date_range: "90d" })).meta.total,
      ),
    );
    expect(perEngine).toEqual([450, 450, 450, 450]);
    const recent = await all("/api/v1/citations", { site_id: coffee.id, date_range: "7d" });
    expect(recent.data.some((track: any) => track.cited && track.citation_url.startsWith(coffee.url))).toBe(true);
  }, 300_000);

  it("leaves a user who has sites alone unless told to replace them", async () => {
    const refused = await runCli("--email", "demo@example.com");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already has 6 sites.*--replace/);

    const replaced = await seedDemoUser(api().stack.db, { email: "demo@example.com", plan: "free", replace: true });
    // an existing user keeps their plan
    expect(replaced.user.plan).toBe("pro");
    expect(await api().stack.db.site.count({ where: { userId: replaced.user.id } })).toBe(6);
    expect(await api().stack.db.keyword.count({ where: { userId: replaced.user.id } })).toBe(30);
    expect(await api().stack.db.citationTrack.count({ where: { userId: replaced.user.id } })).toBe(1800);
  }, 300_000);

  it("refuses an unknown plan", async () => {
    const run = await runCli("--email", "other@example.com", "--plan", "gold");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--plan must be one of free, starter, pro, agency/);
  }, 300_000);
});
