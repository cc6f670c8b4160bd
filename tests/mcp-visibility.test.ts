import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createAccount, type TestAccount } from "./support/accounts";
import { body } from "./support/accounts-api";
import { streamableClient } from "./support/mcp";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * The visibility tools of the MCP server against Postgres: read a site's profile, list, add and
 * remove its prompts and competitors, with the REST API's rules (validation, the plan's number of
 * competitors, one wording per site) and its tenancy (another workspace's site is not found).
 */

afterAll(() => stopContainers());

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
const textOf = (result: ToolResult) => ((result.content as { text: string }[] | undefined) ?? [])[0]?.text ?? "";

describe("visibility tools", () => {
  let database: TestDatabase;
  let stack: Stack;
  let alice: TestAccount;
  let bob: TestAccount;
  let site: string;
  let bobSite: string;
  const clients: Client[] = [];

  const client = async (account: TestAccount) => {
    const made = await streamableClient(stack.gateway.url, account.key);
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: { COMPETITORS_FREE: "1", RATE_LIMIT_FREE: "100000" },
    });
    alice = await createAccount(stack.db, "free");
    bob = await createAccount(stack.db, "free");
    const made = async (account: TestAccount, url: string) =>
      body(
        await api(stack.gateway.url, "/api/v1/sites", {
          body: { url, name: "Acme" },
          headers: { "x-api-key": account.key },
        }),
      ).data.id as string;
    site = await made(alice, "https://acme.example");
    bobSite = await made(bob, "https://bob.example");
  }, 300_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await stack?.close();
    await database?.drop();
  });

  it("marks the tools that add or remove, so a client can ask before calling them", async () => {
    const { tools } = await (await client(alice)).listTools();
    const hints = Object.fromEntries(
      tools
        .filter(
          (tool) =>
            tool.name.includes("prompt") || tool.name.includes("competitor") || tool.name.includes("visibility"),
        )
        .map((tool) => [tool.name, [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint]]),
    );
    expect(hints).toEqual({
      aeo_visibility_profile: [true, false],
      aeo_list_prompts: [true, false],
      aeo_add_prompt: [false, false],
      aeo_remove_prompt: [false, true],
      aeo_list_competitors: [true, false],
      aeo_add_competitor: [false, false],
      aeo_remove_competitor: [false, true],
      aeo_visibility_run_start: [false, false],
      aeo_visibility_run: [true, false],
      aeo_visibility_samples: [true, false],
      aeo_visibility_cited_pages_scan: [false, false],
      aeo_visibility_cited_pages: [true, false],
    });
    const importer = tools.find((tool) => tool.name === "aeo_import_keywords");
    expect([importer?.annotations?.readOnlyHint, importer?.annotations?.destructiveHint]).toEqual([false, false]);
  });

  it("reads the profile, adds, lists and removes prompts", async () => {
    const mcp = await client(alice);
    const profile = await mcp.callTool({ name: "aeo_visibility_profile", arguments: { site_id: site } });
    expect(profile.structuredContent).toMatchObject({ site_id: site, brand_names: ["Acme"], configured: false });
    expect(textOf(profile)).toMatch(/3 samples of each prompt on chatgpt, claude, perplexity, gemini/);

    const added = await mcp.callTool({
      name: "aeo_add_prompt",
      arguments: { site_id: site, text: "Best widget for boats?", tags: ["Boats"], locale: "en-gb" },
    });
    expect(added.isError).toBeFalsy();
    const prompt = added.structuredContent as { id: string; tags: string[]; locale: string };
    expect(prompt).toMatchObject({ tags: ["boats"], locale: "en-GB" });
    const stored = await stack.db.visibilityPrompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(stored).toMatchObject({ siteId: site, userId: alice.user.id });

    // the same wording again: the REST API's 409, as a tool error the model reads
    const again = await mcp.callTool({
      name: "aeo_add_prompt",
      arguments: { site_id: site, text: "best widget for BOATS" },
    });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^conflict: The site already tracks this prompt/);

    const listed = await mcp.callTool({ name: "aeo_list_prompts", arguments: { site_id: site } });
    expect(listed.structuredContent).toMatchObject({
      total: 1,
      page: 1,
      has_more: false,
      prompts: [{ id: prompt.id }],
    });
    expect(textOf(listed)).toContain("Best widget for boats? #boats (en-GB)");

    const removed = await mcp.callTool({
      name: "aeo_remove_prompt",
      arguments: { site_id: site, prompt_id: prompt.id.toUpperCase() },
    });
    expect(removed.structuredContent).toEqual({ id: prompt.id, deleted: true });
    expect(await stack.db.visibilityPrompt.count({ where: { siteId: site } })).toBe(0);
  });

  it("imports a site's keywords from Search Console's queries export, all or nothing", async () => {
    const mcp = await client(alice);
    const csv = [
      "Top queries,Clicks,Impressions,CTR,Position",
      "acme widgets,40,900,4.44%,2.6",
      "Acme  Widgets,1,10,10%,9",
      "widgets for boats,3,300,1%,11.2",
    ].join("\n");
    const imported = await mcp.callTool({ name: "aeo_import_keywords", arguments: { site_id: site, csv } });
    expect(imported.isError).toBeFalsy();
    expect(imported.structuredContent).toMatchObject({ rows: 3, created: 2, updated: 0, skipped: [{ row: 3 }] });
    expect(textOf(imported)).toMatch(
      /^Read 3 queries: 2 newly tracked, 0 updated, 1 skipped\.\n- row 3 "acme widgets": /,
    );
    const stored = await stack.db.keyword.findMany({ where: { siteId: site }, orderBy: { keyword: "asc" } });
    expect(stored.map((k) => [k.keyword, k.position, k.clicks, k.impressions])).toEqual([
      ["acme widgets", 3, 40, 900],
      ["widgets for boats", 11, 3, 300],
    ]);

    // a row at fault refuses the file and stores nothing, as the REST import does
    await expect(
      mcp.callTool({
        name: "aeo_import_keywords",
        arguments: { site_id: site, csv: "Top queries,Clicks,Impressions,CTR,Position\nacme,5,2,250%,1\n" },
      }),
    ).rejects.toThrow(/Nothing was imported: .*row 2: clicks \(5\) exceed impressions \(2\)/);
    expect(await stack.db.keyword.count({ where: { siteId: site } })).toBe(2);

    // another workspace's site is not found, and is left as it was
    const other = await mcp.callTool({ name: "aeo_import_keywords", arguments: { site_id: bobSite, csv } });
    expect(textOf(other)).toMatch(/^not_found: /);
    expect(await stack.db.keyword.count({ where: { siteId: bobSite } })).toBe(0);
    await stack.db.keyword.deleteMany({ where: { siteId: site } });
  });

  it("refuses bad arguments as invalid params, naming the field", async () => {
    const mcp = await client(alice);
    await expect(
      mcp.callTool({ name: "aeo_add_prompt", arguments: { site_id: site, text: "x".repeat(501) } }),
    ).rejects.toThrow(/text: must be at most 500 characters/);
    await expect(mcp.callTool({ name: "aeo_add_prompt", arguments: { site_id: "nope", text: "x" } })).rejects.toThrow(
      /site_id: must be a site id/,
    );
    await expect(
      mcp.callTool({ name: "aeo_add_competitor", arguments: { site_id: site, name: "Rival", domains: ["10.1.2.3"] } }),
    ).rejects.toThrow(/not an IP address/);
  });

  it("adds competitors within the plan's number, and removes them", async () => {
    const mcp = await client(alice);
    const added = await mcp.callTool({
      name: "aeo_add_competitor",
      arguments: { site_id: site, name: "Globex", domains: ["https://globex.example"] },
    });
    const competitor = added.structuredContent as { id: string; domains: string[] };
    expect(competitor.domains).toEqual(["globex.example"]);
    const over = await mcp.callTool({ name: "aeo_add_competitor", arguments: { site_id: site, name: "Initech" } });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/^forbidden: The free plan measures each site against at most 1 competitor/);
    const listed = await mcp.callTool({ name: "aeo_list_competitors", arguments: { site_id: site } });
    expect(textOf(listed)).toContain("- Globex: globex.example");
    const removed = await mcp.callTool({
      name: "aeo_remove_competitor",
      arguments: { site_id: site, competitor_id: competitor.id },
    });
    expect(removed.structuredContent).toEqual({ id: competitor.id, deleted: true });
  });

  it("finds nothing of another workspace's site and changes nothing of it", async () => {
    const mcp = await client(alice);
    const before = await stack.db.visibilityPrompt.count({ where: { siteId: bobSite } });
    for (const [name, args] of [
      ["aeo_visibility_profile", { site_id: bobSite }],
      ["aeo_list_prompts", { site_id: bobSite }],
      ["aeo_add_prompt", { site_id: bobSite, text: "taken" }],
      ["aeo_add_competitor", { site_id: bobSite, name: "taken" }],
    ] as const) {
      const result = await mcp.callTool({ name, arguments: args });
      expect({ name, isError: result.isError, text: textOf(result) }).toEqual({
        name,
        isError: true,
        text: expect.stringMatching(/^not_found: No site with id/),
      });
    }
    expect(await stack.db.visibilityPrompt.count({ where: { siteId: bobSite } })).toBe(before);
    expect(await stack.db.competitor.count({ where: { siteId: bobSite } })).toBe(0);
  });
});

/**
 * The run tools against a real worker and the local ChatGPT server: start a run, follow it, read
 * its answers; a client-scoped key reaches its client's site and runs and nothing of another's.
 */
describe("visibility run tools", () => {
  let visibility: VisibilityStack;
  let stack: Stack;
  let owner: TestAccount;
  const ids: Record<string, string> = {};
  const keys: Record<string, string> = {};
  const clients: Client[] = [];

  const client = async (key: string) => {
    const made = await streamableClient(stack.gateway.url, key);
    clients.push(made);
    return made;
  };
  const made = async (path: string, payload: unknown, auth: Record<string, string>) => {
    const response = await api(stack.gateway.url, path, { body: payload, headers: auth });
    expect({ path, status: response.status }).toEqual({ path, status: 201 });
    return body(response).data as Record<string, string>;
  };

  beforeAll(async () => {
    visibility = await startVisibilityStack({ vendors: ["openai"], allowlist: ["acme.com", "globex.com"] });
    stack = visibility.stack;
    owner = await createAccount(stack.db, "agency");
    const asKey = { "x-api-key": owner.key };
    for (const [n, url] of [
      ["1", "https://acme.com"],
      ["2", "https://globex.com"],
    ] as const) {
      ids[`client${n}`] = (await made("/api/v1/clients", { name: `Client ${n}` }, asKey)).id as string;
      ids[`site${n}`] = (await made("/api/v1/sites", { url, name: "Acme" }, asKey)).id as string;
      const assigned = await api(stack.gateway.url, `/api/v1/sites/${ids[`site${n}`]}`, {
        method: "PATCH",
        body: { client_id: ids[`client${n}`] },
        headers: asKey,
      });
      expect(assigned.status).toBe(200);
      const profile = await api(stack.gateway.url, `/api/v1/sites/${ids[`site${n}`]}/visibility`, {
        method: "PUT",
        body: { brand_names: ["Acme"], brand_domains: ["acme.com"], samples_per_prompt: 2, engines: ["chatgpt"] },
        headers: asKey,
      });
      expect(profile.status).toBe(200);
      await made(
        `/api/v1/sites/${ids[`site${n}`]}/prompts`,
        { text: "Which project tracker suits a small team?" },
        asKey,
      );
      keys[`client${n}`] = (
        await made(
          "/api/v1/keys",
          { name: `client ${n}`, client_id: ids[`client${n}`] },
          {
            authorization: `Bearer ${owner.token}`,
          },
        )
      ).key as string;
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await visibility?.close();
  });

  it("starts a run, follows it to its measures and reads its answers with their citations", async () => {
    const mcp = await client(keys.client1 as string);
    const started = await mcp.callTool({ name: "aeo_visibility_run_start", arguments: { site_id: ids.site1 } });
    expect(started.isError).toBeFalsy();
    const run = started.structuredContent as { id: string; status: string; progress: { planned: number } };
    expect(run).toMatchObject({ status: "queued", progress: { planned: 2 } });
    expect(textOf(started)).toContain(`aeo_visibility_run (run_id ${run.id})`);
    // the REST API's one run per site, as a tool error
    const again = await mcp.callTool({ name: "aeo_visibility_run_start", arguments: { site_id: ids.site1 } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^conflict: /);

    await eventually(
      async () => (await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: run.id } })).status === "completed",
      90_000,
      "the run to complete",
    );
    const read = await mcp.callTool({ name: "aeo_visibility_run", arguments: { run_id: run.id.toUpperCase() } });
    const view = read.structuredContent as {
      status: string;
      progress: { done: number };
      measures: { engines: { engine: string; mention_rate: { n: number; successes: number } }[] };
    };
    expect(view).toMatchObject({ status: "completed", progress: { done: 2 } });
    const stored = await stack.db.visibilitySample.findMany({ where: { runId: run.id } });
    const mentioned = stored.filter((s) => s.brandMentioned).length;
    expect(view.measures.engines).toEqual([
      expect.objectContaining({
        engine: "chatgpt",
        mention_rate: expect.objectContaining({ n: 2, successes: mentioned }),
      }),
    ]);
    expect(textOf(read)).toMatch(/^Visibility run .*: completed\./);
    expect(textOf(read)).toMatch(/- chatgpt: mentioned \d+ % \(95 % \d+ %–\d+ %, n=2\)/);

    const samples = await mcp.callTool({
      name: "aeo_visibility_samples",
      arguments: { run_id: run.id, engine: "chatgpt", limit: 1 },
    });
    const page = samples.structuredContent as {
      total: number;
      has_more: boolean;
      samples: { sample_index: number; citations: { url: string }[] }[];
    };
    expect(page).toMatchObject({ total: 2, has_more: true, samples: [{ sample_index: 0 }] });
    const first = stored.find((s) => s.sampleIndex === 0)?.citations as { url: string }[] | undefined;
    const urls = page.samples[0]?.citations.map((c) => c.url) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    expect(urls).toEqual((first ?? []).map((c) => c.url));
    expect(textOf(samples)).toContain(urls[0]);
    const none = await mcp.callTool({
      name: "aeo_visibility_samples",
      arguments: { run_id: run.id, engine: "claude" },
    });
    expect(none.structuredContent).toMatchObject({ total: 0, samples: [] });

    // the pages the answers cited: the brand's, which every answer cited, so none in its place
    const cited = await mcp.callTool({ name: "aeo_visibility_cited_pages", arguments: { run_id: run.id } });
    expect(cited.isError).toBeFalsy();
    expect(cited.structuredContent).toMatchObject({
      run_id: run.id,
      started: false,
      pages: [{ url: "https://www.acme.com/pricing", side: "brand", citations: 2, state: "not_started" }],
    });
    expect(textOf(cited)).toMatch(/^Cited pages of visibility run .*: 1 pages, 0 scanned, 1 pending/);
    ids.run1 = run.id;
  }, 120_000);

  it("refuses a client-scoped key another client's site and runs, as not found, starting nothing", async () => {
    const other = await client(keys.client2 as string);
    const before = await stack.db.visibilityRun.count();
    const refusals = [
      ["aeo_visibility_run_start", { site_id: ids.site1 }, /^not_found: No site with id/],
      ["aeo_visibility_run", { run_id: ids.run1 }, /^not_found: No visibility run with id/],
      ["aeo_visibility_samples", { run_id: ids.run1 }, /^not_found: No visibility run with id/],
      ["aeo_visibility_cited_pages", { run_id: ids.run1 }, /^not_found: No visibility run with id/],
      ["aeo_visibility_cited_pages_scan", { run_id: ids.run1 }, /^not_found: No visibility run with id/],
    ] as const;
    for (const [name, args, text] of refusals) {
      const result = await other.callTool({ name, arguments: args });
      expect({ name, isError: result.isError, text: textOf(result) }).toEqual({
        name,
        isError: true,
        text: expect.stringMatching(text),
      });
    }
    expect(await stack.db.visibilityRun.count()).toBe(before);
    expect(await stack.db.visibilityCitedPage.count()).toBe(0);
    // the workspace's own key reads it
    const wide = await client(owner.key);
    const read = await wide.callTool({ name: "aeo_visibility_run", arguments: { run_id: ids.run1 } });
    expect(read.structuredContent).toMatchObject({ id: ids.run1, site_id: ids.site1 });
  });
});
