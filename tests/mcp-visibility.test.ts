import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createAccount, type TestAccount } from "./support/accounts";
import { body } from "./support/accounts-api";
import { streamableClient } from "./support/mcp";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

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
    });
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
