import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { validateAiCatalog } from "@scan/checks";
import { ScanResult } from "@scan/contract";
import { FixResult, GenerateResult } from "@scan/gateway";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { keyHeaders, rpc, sseClient, streamableClient } from "./support/mcp";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * aeo_fix and aeo_generate (MCP) and POST /api/v1/fix and /api/v1/generate (REST) against
 * local pages through the real pipeline: the scan keeps its snapshot, the generators run over
 * it. The files aeo_fix writes are then served by the site and scanned again: the scanner's own
 * checks pass on them.
 */

const GUIDE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>How to choose a widget | Acme Widgets</title>
<meta name="description" content="A buyer's guide to hand-made widgets: sizes, shipping times and why every Acme widget is made by hand in Leeds.">
<meta property="og:site_name" content="Acme Widgets">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="ORIGIN/guide">
</head><body>
<header><nav><a href="/">Home</a> <a href="/guide">Buying guide</a> <a href="/about">About Acme</a></nav></header>
<main><article><h1>How to choose a widget</h1>
<p>Choosing a widget comes down to three things: the size of the panels it joins, how soon you need it, and how long you want it to last.</p>
<h2>What size of widget do I need?</h2>
<p>Measure the gap between the two panels and pick the widget one size above it, so that it sits firmly.</p>
<h2>How long does shipping take?</h2>
<p>Shipping takes three to five working days within the UK and up to ten days to the rest of Europe.</p>
<h2>Why are Acme widgets made by hand?</h2>
<p>Every widget is turned and tested by hand in our Leeds workshop, which lets us check each one before it ships.</p>
</article></main>
<footer><a href="/privacy">Privacy</a> <a href="/contact">Contact us</a></footer>
</body></html>`;

const PRODUCT = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Brass widget, size 4 | Acme Widgets</title>
<meta name="description" content="The size 4 brass widget joins panels up to 12 mm apart.">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Brass widget, size 4",
"description": "A hand-made brass widget for panels up to 12 mm apart.", "brand": {"@type": "Brand", "name": "Acme"},
"offers": {"@type": "Offer", "price": 24.5, "priceCurrency": "GBP", "availability": "https://schema.org/InStock"}}</script>
</head><body><main><h1>Brass widget, size 4</h1>
<p>Our size 4 brass widget joins panels up to 12 mm apart and is turned by hand in Leeds.</p>
<h2>Features</h2><ul><li>Solid brass body</li><li>Fits panels up to 12 mm apart</li><li>Tested by hand before it ships</li></ul>
</main></body></html>`;

// blocks an AI search crawler (scored) and a training crawler (the site's choice, kept as it is)
const ROBOTS =
  "User-agent: *\nAllow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: ORIGIN/sitemap.xml\n";
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>ORIGIN/guide</loc></url></urlset>`;

// random text does not compress: over the 64 KiB the test worker keeps
const HUGE = `<!doctype html><title>Huge</title><h1>Huge</h1><p>${randomBytes(96 * 1024).toString("base64")}</p>`;

const LLM_KEY = "sk-test-llm-0a1b2c3d4e5f";
const DRAFT = "# Widget questions\n\n## What size of widget do I need?\n\nOne size above the gap.";

afterAll(() => stopContainers());

describe("aeo_fix and aeo_generate", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let account: TestAccount;
  const clients: Client[] = [];
  // what the site serves: its own files, or the ones aeo_fix generated for it
  const served = { jsonLd: "", llmsTxt: null as string | null, robotsTxt: ROBOTS };

  const withOrigin = (body: string) => body.replaceAll("ORIGIN", site.origin);
  const text$ = (result: object) => ((result as { content?: Array<{ text: string }> }).content ?? [])[0]?.text ?? "";

  beforeAll(async () => {
    site = await startFixtureServer({
      "/guide": (req, res) => html(withOrigin(GUIDE).replace("</head>", `${served.jsonLd}</head>`))(req, res),
      "/product": html(PRODUCT),
      "/huge": html(HUGE),
      "/robots.txt": (req, res) => text(withOrigin(served.robotsTxt))(req, res),
      "/sitemap.xml": (_req, res) => res.writeHead(200, { "content-type": "application/xml" }).end(withOrigin(SITEMAP)),
      "/llms.txt": (req, res) =>
        served.llmsTxt === null ? text("not found", 404)(req, res) : text(served.llmsTxt)(req, res),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SNAPSHOT_MAX_BYTES: String(64 * 1024) },
    });
    base = stack.gateway.url;
    account = await createAccount(stack.db, "pro");
  }, 300_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  const verdicts = (scan: ScanResult) => Object.fromEntries(scan.checks.map((check) => [check.id, check.status]));

  it("aeo_audit_site starts an audit of the URL's site, then answers its progress and report", async () => {
    const client = await streamableClient(base, account.key);
    clients.push(client);
    const started = await client.callTool({
      name: "aeo_audit_site",
      arguments: { url: site.url("/guide"), mode: "quick", max_pages: 3 },
    });
    expect(started.isError).toBeFalsy();
    const audit = started.structuredContent as { id: string; url: string; status: string; max_pages: number };
    expect(audit).toMatchObject({ url: site.url("/"), status: "discovering", max_pages: 3 });
    expect(text$(started)).toContain(`{"audit_id": "${audit.id}"}`);
    let read: Awaited<ReturnType<Client["callTool"]>> | null = null;
    for (let tries = 0; tries < 120; tries++) {
      read = await client.callTool({ name: "aeo_audit_site", arguments: { audit_id: audit.id } });
      if ((read.structuredContent as { status: string }).status === "completed") break;
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(read?.structuredContent).toMatchObject({ id: audit.id, status: "completed", report: { partial: true } });
    expect(text$(read ?? {})).toMatch(/Site grade [A-F]/);
    // both, or neither: refused as invalid arguments
    await expect(
      client.callTool({ name: "aeo_audit_site", arguments: { url: site.url("/"), audit_id: audit.id } }),
    ).rejects.toThrow(/either url .* or audit_id/);
  }, 300_000);

  it("lists every tool with its input schema", async () => {
    const client = await streamableClient(base, account.key);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "aeo_scan",
      "aeo_score",
      "aeo_fix",
      "aeo_generate",
      "aeo_audit_site",
      "aeo_visibility_profile",
      "aeo_list_prompts",
      "aeo_add_prompt",
      "aeo_remove_prompt",
      "aeo_list_competitors",
      "aeo_add_competitor",
      "aeo_remove_competitor",
      "aeo_visibility_run_start",
      "aeo_visibility_run",
      "aeo_visibility_samples",
      "aeo_visibility_cited_pages_scan",
      "aeo_visibility_cited_pages",
      "aeo_import_keywords",
    ]);
    const fix = tools.find((tool) => tool.name === "aeo_fix");
    expect(fix?.inputSchema).toMatchObject({
      required: ["url"],
      properties: { issues: { type: "array", items: { enum: expect.arrayContaining(["llms-txt", "faq-schema"]) } } },
      additionalProperties: false,
    });
    const generate = tools.find((tool) => tool.name === "aeo_generate");
    expect(generate?.inputSchema).toMatchObject({
      required: ["url", "content_type"],
      properties: { content_type: { enum: ["faq", "blog", "product"] }, topic: { type: "string", maxLength: 200 } },
    });
  });

  it("aeo_fix writes files that make the scanner's own checks pass once the site serves them", async () => {
    const client = await sseClient(base, account.key, "query");
    clients.push(client);
    const before = ScanResult.parse(
      (await client.callTool({ name: "aeo_scan", arguments: { url: site.url("/guide") } })).structuredContent,
    );
    const failing = ["structured-data", "faq-schema", "llms-txt", "ai-search-access"];
    for (const id of failing) expect([id, verdicts(before)[id]]).toEqual([id, expect.stringMatching(/^(fail|warn)$/)]);

    const result = await client.callTool({ name: "aeo_fix", arguments: { url: site.url("/guide") } });
    expect(result.isError).toBeFalsy();
    const fixes = FixResult.parse(result.structuredContent);
    expect(fixes.unaddressed).toEqual([]);
    const { llmsTxt, jsonLd, robotsTxt } = fixes;
    if (!llmsTxt || !jsonLd || !robotsTxt) throw new Error("a file is missing");
    // the ai-catalog.json lists the files the site served and passes the site checks as an audit runs them
    const { aiCatalog } = fixes;
    expect(aiCatalog?.addresses).toEqual(["ai-catalog", "ai-catalog-schema"]);
    expect(validateAiCatalog(aiCatalog?.content ?? "").errors).toEqual([]);
    expect(JSON.parse(aiCatalog?.content ?? "{}").entries).toEqual([
      expect.objectContaining({ type: "application/xml", url: `${site.origin}/sitemap.xml` }),
    ]);
    expect(fixes.proof.siteChecks.map((check) => [check.id, check.after])).toEqual([
      ["ai-catalog", "pass"],
      ["ai-catalog-schema", "pass"],
    ]);
    expect(text$(result)).toContain('<link rel="ai-catalog" href="/.well-known/ai-catalog.json">');
    // the guide has no form to annotate
    expect(fixes.webmcpForms).toBeNull();
    // the scan's own verdicts ride along: these files fix checks that did not pass
    expect(jsonLd.verdicts["structured-data"]).toBe(verdicts(before)["structured-data"]);
    expect(robotsTxt.verdicts["ai-search-access"]).toBe("warn");
    // proven before returned: every check a file addresses passes on a copy of the page with the
    // files in place; the Organization lacks a logo the page never shows, and says so
    const proven = Object.fromEntries(fixes.proof.checks.map((check) => [check.id, check]));
    for (const id of [...llmsTxt.addresses, ...jsonLd.addresses, ...robotsTxt.addresses]) {
      expect([id, proven[id]?.after]).toEqual([id, "pass"]);
    }
    expect(jsonLd.addresses).not.toContain("organization-schema");
    expect(jsonLd.ownerMustSupply).toEqual([
      { id: "organization-schema", before: "fail", after: "warn", what: expect.stringMatching(/^a logo/) },
      // the guide is an <article> that names no author and states no date
      {
        id: "article-schema",
        before: "fail",
        after: "warn",
        what: expect.stringMatching(/^an author and a publication date shown on the page, which it does not state/),
      },
    ]);
    expect(fixes.proof.before.scores.overall).toBe(before.scores.overall);
    expect(fixes.proof.after.scores.overall).toBeGreaterThan(fixes.proof.before.scores.overall);
    expect(text$(result)).toMatch(/Still to supply for organization-schema \(fail → warn with JSON-LD/);
    expect(text$(result)).toMatch(/Scores with the files in place: overall \d+ → \d+/);
    expect(jsonLd.types).toEqual(expect.arrayContaining(["Organization", "WebSite", "WebPage", "FAQPage"]));
    expect(llmsTxt.content).toMatch(/^# Acme Widgets\n\n> A buyer's guide/);
    expect(robotsTxt.content).toContain(`Sitemap: ${site.origin}/sitemap.xml`);
    // the text content carries the files for clients that read only text
    expect(text$(result)).toContain(llmsTxt.content.trim());
    expect(text$(result)).toContain(jsonLd.html);

    // nothing made up: every text value of the JSON-LD is the page's, every URL on its site
    const page = withOrigin(GUIDE);
    const leaves = (value: unknown, key = ""): Array<[string, string]> =>
      typeof value === "string"
        ? [[key, value]]
        : Array.isArray(value)
          ? value.flatMap((item) => leaves(item, key))
          : value && typeof value === "object"
            ? Object.entries(value).flatMap(([k, v]) => leaves(v, k))
            : [];
    const values = leaves(jsonLd.data["@graph"]);
    expect(values.length).toBeGreaterThan(10);
    for (const [key, value] of values) {
      if (key === "@type" || key === "@context") continue;
      if (/^https?:\/\//.test(value)) expect(value.startsWith(site.origin)).toBe(true);
      else expect([key, page.includes(value)]).toEqual([key, true]);
    }

    served.jsonLd = jsonLd.html;
    served.llmsTxt = llmsTxt.content;
    served.robotsTxt = robotsTxt.content;
    try {
      const after = ScanResult.parse(
        (await client.callTool({ name: "aeo_scan", arguments: { url: site.url("/guide") } })).structuredContent,
      );
      const now = verdicts(after);
      for (const id of [...failing, "llms-txt-format"]) expect([id, now[id]]).toEqual([id, "pass"]);
      // the proof foretold the real scan of the site serving the files
      for (const check of fixes.proof.checks) expect([check.id, now[check.id]]).toEqual([check.id, check.after]);
      // the page shows no logo, and none is invented: the Organization is there, partial
      expect(verdicts(before)["organization-schema"]).toBe("fail");
      expect(now["organization-schema"]).toBe("warn");
      expect(after.scores.overall).toBeGreaterThan(before.scores.overall);
    } finally {
      served.jsonLd = "";
      served.llmsTxt = null;
      served.robotsTxt = ROBOTS;
    }
  });

  it("aeo_fix with issues generates only the files that address them, and says what it cannot fix", async () => {
    const response = await rpc(
      base,
      "tools/call",
      { name: "aeo_fix", arguments: { url: site.url("/guide"), issues: ["llms-txt", "title-length"] } },
      { headers: keyHeaders(account.key, "bearer") },
    );
    const fixes = FixResult.parse((response.body as any).result.structuredContent);
    expect(fixes.llmsTxt?.addresses).toContain("llms-txt");
    expect(fixes.jsonLd).toBeNull();
    expect(fixes.robotsTxt).toBeNull();
    expect(fixes.unaddressed.map((entry) => entry.id)).toEqual(["title-length"]);
  });

  it("aeo_generate drafts an FAQ from the page's own questions, kept to a topic when one is given", async () => {
    const client = await streamableClient(base, account.key, "x-api-key");
    clients.push(client);
    const faq = await client.callTool({
      name: "aeo_generate",
      arguments: { url: site.url("/guide"), content_type: "faq" },
    });
    const content = GenerateResult.parse(faq.structuredContent) as GenerateResult & { items: any[] };
    expect(content).toMatchObject({ contentType: "faq", method: "extractive", llm: null, topic: null });
    expect(content.items.map((item) => item.question)).toEqual([
      "What size of widget do I need?",
      "How long does shipping take?",
      "Why are Acme widgets made by hand?",
    ]);
    expect(text$(faq)).toContain("## How long does shipping take?");
    expect(text$(faq)).toMatch(/Drawn from the page's own words \(no model is configured\)/);

    const shipping = await client.callTool({
      name: "aeo_generate",
      arguments: { url: site.url("/guide"), content_type: "faq", topic: "shipping" },
    });
    const kept = GenerateResult.parse(shipping.structuredContent) as GenerateResult & { items: any[] };
    expect(kept.topic).toBe("shipping");
    expect(kept.items.map((item) => item.question)).toEqual(["How long does shipping take?"]);
  });

  it("aeo_generate drafts a blog outline and a product description", async () => {
    const headers = keyHeaders(account.key, "bearer");
    const blog = await rpc(
      base,
      "tools/call",
      { name: "aeo_generate", arguments: { url: site.url("/guide"), content_type: "blog" } },
      { headers },
    );
    const outline = GenerateResult.parse((blog.body as any).result.structuredContent) as GenerateResult & {
      outline: Array<{ heading: string }>;
    };
    expect(outline.title).toBe("How to choose a widget");
    expect(outline.outline.map((section) => section.heading)).toContain("How long does shipping take?");
    const product = await rpc(
      base,
      "tools/call",
      { name: "aeo_generate", arguments: { url: site.url("/product"), content_type: "product" } },
      { headers },
    );
    const description = GenerateResult.parse((product.body as any).result.structuredContent) as GenerateResult & {
      name: string;
      features: string[];
      details: Array<{ label: string; value: string }>;
    };
    expect(description.name).toBe("Brass widget, size 4");
    expect(description.features).toContain("Solid brass body");
    expect(JSON.stringify(description.details)).toContain("24.5");
  });

  it("refuses bad arguments with -32602 naming the field, before any scan", async () => {
    const before = await stack.db.scan.count();
    const cases: Array<[string, unknown, RegExp]> = [
      ["aeo_fix", { url: site.url("/guide"), issues: ["no-such-check"] }, /issues\.0: must be a check id/],
      ["aeo_fix", { url: site.url("/guide"), issues: "llms-txt" }, /issues: /],
      ["aeo_generate", { url: site.url("/guide") }, /content_type: must be one of "faq", "blog", "product"/],
      ["aeo_generate", { url: site.url("/guide"), content_type: "poem" }, /content_type: must be one of/],
      ["aeo_generate", { url: site.url("/guide"), content_type: "faq", topic: "   " }, /topic: must not be empty/],
      ["aeo_generate", { content_type: "faq" }, /url: is required/],
    ];
    for (const [name, args, message] of cases) {
      const response = await rpc(
        base,
        "tools/call",
        { name, arguments: args },
        { headers: keyHeaders(account.key, "bearer") },
      );
      expect([name, (response.body as any).error]).toEqual([
        name,
        expect.objectContaining({ code: -32602, message: expect.stringMatching(message) }),
      ]);
    }
    expect(await stack.db.scan.count()).toBe(before);
  });

  it("says so when the page is too large to keep for the generators", async () => {
    const response = await rpc(
      base,
      "tools/call",
      { name: "aeo_generate", arguments: { url: site.url("/huge"), content_type: "blog" } },
      { headers: keyHeaders(account.key, "bearer") },
    );
    const result = (response.body as any).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^upstream_failure: The page at .* is too large to generate from/);
  });

  describe("over REST", () => {
    it("POST /api/v1/fix answers the same files in Form A and Form B", async () => {
      const a = await api(base, "/api/v1/fix", {
        body: { url: site.url("/guide"), issues: ["ai-search-access"] },
        headers: keyHeaders(account.key, "x-api-key"),
      });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ ok: true, meta: { requestId: expect.any(String) } });
      const files = FixResult.parse((a.body as any).data);
      expect(files.robotsTxt?.content).toMatch(/User-agent: GPTBot/);
      expect(files.llmsTxt).toBeNull();
      expect(a.headers.get("x-ratelimit-remaining")).not.toBeNull();
      const b = await api(base, "/api/v1/fix", {
        body: { url: site.url("/guide").replace("http://", ""), issues: ["ai-search-access"] },
        headers: { ...keyHeaders(account.key, "x-api-key"), "x-response-form": "B" },
      });
      // Form B reads a bare host as https: the loopback fixture answers only http, so the scan fails upstream
      expect(b.status).toBe(502);
      expect(b.body).toEqual({ error: expect.stringMatching(/failed/), code: "UPSTREAM_FAILURE" });
      const bOk = await api(base, "/api/v1/fix", {
        body: { url: site.url("/guide") },
        headers: { ...keyHeaders(account.key, "x-api-key"), "x-response-form": "B" },
      });
      expect(bOk.status).toBe(200);
      expect(bOk.body).toEqual({ success: true, data: expect.objectContaining({ scanId: expect.any(String) }) });
    });

    it("POST /api/v1/generate answers the same content as the tool", async () => {
      const response = await api(base, "/api/v1/generate", {
        body: { url: site.url("/guide"), content_type: "faq", topic: "size" },
        headers: keyHeaders(account.key, "bearer"),
      });
      expect(response.status).toBe(200);
      const content = GenerateResult.parse((response.body as any).data) as GenerateResult & { items: any[] };
      expect(content.items.map((item) => item.question)).toEqual(["What size of widget do I need?"]);
      const stored = await stack.db.scan.findUniqueOrThrow({ where: { id: content.scanId } });
      expect(stored).toMatchObject({ mode: "quick", status: "completed", userId: account.user.id });
    });

    it("refuse bad bodies with 400 naming the field, and callers without a key with 401", async () => {
      const headers = keyHeaders(account.key, "bearer");
      const cases: Array<[string, unknown, RegExp]> = [
        ["/api/v1/fix", { url: site.url("/guide"), issues: ["nope"] }, /^issues\.0: must be a check id/],
        ["/api/v1/fix", { url: site.url("/guide"), extra: true }, /Unrecognized key: "extra"/],
        ["/api/v1/generate", { url: site.url("/guide"), content_type: "poem" }, /^content_type: must be one of/],
        ["/api/v1/generate", { url: "example.com/page", content_type: "faq" }, /^url: url must be absolute/],
      ];
      for (const [path, body, message] of cases) {
        const response = await api(base, path, { body, headers });
        expect([path, response.status]).toEqual([path, 400]);
        expect((response.body as any).error).toMatchObject({ code: "invalid_request", message });
      }
      const anonymous = await api(base, "/api/v1/generate", { body: { url: site.url("/guide"), content_type: "faq" } });
      expect(anonymous.status).toBe(401);
      const get = await api(base, "/api/v1/fix", { headers });
      expect(get.status).toBe(405);
    });
  });

  describe("with a language model configured", () => {
    let model: Server;
    let gateway: Stack;
    let answer: { status: number; body: unknown } = { status: 200, body: {} };
    const seen: Array<{ authorization: string; body: any }> = [];
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      // an OpenAI-compatible chat-completions endpoint on loopback
      model = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => {
          body += chunk;
        });
        req.on("end", () => {
          seen.push({ authorization: req.headers.authorization ?? "", body: JSON.parse(body) });
          res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
        });
      });
      model.on("connection", (socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
      // a second gateway on the first one's queue, so the same worker scans for it
      gateway = await startStack({
        databaseUrl: database.url,
        redisUrl: await testRedisUrl(),
        allowlist: [site.hostPort],
        worker: false,
        env: {
          QUEUE_PREFIX: stack.prefix,
          LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
          LLM_API_KEY: LLM_KEY,
          LLM_MODEL: "test-model",
        },
      });
    }, 300_000);

    afterAll(async () => {
      await gateway?.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => model.close(() => resolve()));
    });

    it("asks the model, grounded on the page's text, and says so; the key stays in the header", async () => {
      answer = { status: 200, body: { choices: [{ message: { role: "assistant", content: DRAFT } }] } };
      seen.length = 0;
      const client = await streamableClient(gateway.gateway.url, account.key);
      clients.push(client);
      const result = await client.callTool({
        name: "aeo_generate",
        arguments: { url: site.url("/guide"), content_type: "faq", topic: "size" },
      });
      const content = GenerateResult.parse(result.structuredContent);
      expect(content).toMatchObject({
        method: "llm",
        llm: { model: "test-model", error: null },
        markdown: `${DRAFT}\n`,
      });
      expect(text$(result)).toContain("Drafted by the model test-model");
      expect(seen).toHaveLength(1);
      expect(seen[0]?.authorization).toBe(`Bearer ${LLM_KEY}`);
      const prompt = JSON.stringify(seen[0]?.body.messages);
      expect(prompt).toContain("Measure the gap between the two panels");
      expect(prompt).toContain("size");
      expect(JSON.stringify(result)).not.toContain(LLM_KEY);
    });

    it("falls back to the extractive content when the model fails, and says why", async () => {
      answer = { status: 500, body: { error: { message: `upstream echo ${LLM_KEY}` } } };
      const response = await api(gateway.gateway.url, "/api/v1/generate", {
        body: { url: site.url("/guide"), content_type: "faq" },
        headers: keyHeaders(account.key, "x-api-key"),
      });
      expect(response.status).toBe(200);
      const content = GenerateResult.parse((response.body as any).data);
      expect(content).toMatchObject({
        method: "extractive",
        llm: { model: "test-model", error: expect.stringMatching(/500/) },
      });
      expect(JSON.stringify(response.body)).not.toContain(LLM_KEY);
    });
  });
});
