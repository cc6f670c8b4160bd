import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAccount, type TestAccount } from "./support/accounts";
import { eventually } from "./support/outages";
import { stopContainers } from "./support/services";
import { api, type Stack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * A completed run joined to the audit: a real worker process asks the local Perplexity server,
 * whose answers cite pages of two local sites (the brand's and a competitor's) and one address
 * the address policy refuses; the cited pages are scanned through the scan intake by the same
 * worker, and read side by side.
 */

type Json = Record<string, any>;

/** A brand page that lacks what a cited page has: no title, description, heading or structured data. */
const BRAND_PAGE = `<!doctype html><html><head></head><body><div>Acme pricing: plans for teams.</div></body></html>`;

/** The page cited in the brand's place: the basics of a page an answer engine can read. */
const COMPETITOR_PAGE = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Globex vs Acme: project trackers compared for small teams</title>
<meta name="description" content="How Globex and Acme compare on price, features and support for small teams, with a table of plans and answers to common questions.">
<link rel="canonical" href="PAGE_URL">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Which tracker suits a small team?","acceptedAnswer":{"@type":"Answer","text":"Globex suits teams of up to 20 people."}}]}</script>
</head><body><main>
<h1>Globex vs Acme: project trackers compared</h1>
<p>Globex costs $8 per user a month and Acme $10, according to their 2026 price lists. Globex suits teams of up to 20 people.</p>
<h2>Which tracker suits a small team?</h2>
<p>Globex suits teams of up to 20 people; Acme suits larger ones.</p>
</main></body></html>`;

/** A local site: its pages by path, made once its address is known. */
const startSite = async (host: string, pagesOf: (origin: string) => Record<string, string>) => {
  let pages: Record<string, string> = {};
  const server: Server = createServer((req, res) => {
    const body = pages[req.url ?? ""];
    if (body === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  pages = pagesOf(origin);
  return { server, origin };
};

describe("a visibility run's cited pages", () => {
  let visibility: VisibilityStack;
  let stack: Stack;
  let owner: TestAccount;
  let brand: { server: Server; origin: string };
  let rival: { server: Server; origin: string };
  let siteId = "";
  let runId = "";
  const keys: Record<string, string> = {};

  const call = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(stack.gateway.url, path, {
      method,
      headers: { "x-api-key": key, ...headers },
      ...(body === undefined ? {} : { body }),
    });

  const completedRun = async () => {
    const started = await call(owner.key, "POST", `/api/v1/sites/${siteId}/visibility/runs`);
    expect(started.status).toBe(202);
    const id = (started.body as Json).data.id as string;
    await eventually(
      async () => (await stack.db.visibilityRun.findUniqueOrThrow({ where: { id } })).status === "completed",
      90_000,
      "the run to complete",
    );
    return id;
  };

  // a web port on a loopback address nobody allowed: the address policy refuses it
  const refusedUrl = "http://127.0.0.3/hidden";

  beforeAll(async () => {
    brand = await startSite("127.0.0.1", () => ({ "/pricing": BRAND_PAGE }));
    rival = await startSite("127.0.0.2", (origin) => ({
      "/compare": COMPETITOR_PAGE.replace("PAGE_URL", `${origin}/compare`),
    }));
    const compare = `${rival.origin}/compare`;
    // loopback is allowed only at these two sites' exact host:port, as for every scan in the tests
    const allowlist = [new URL(brand.origin).host, new URL(rival.origin).host];
    visibility = await startVisibilityStack({ vendors: ["perplexity"], allowlist });
    stack = visibility.stack;
    owner = await createAccount(stack.db, "agency");
    const site = await call(owner.key, "POST", "/api/v1/sites", { url: brand.origin, name: "Acme" });
    expect(site.status).toBe(201);
    siteId = (site.body as Json).data.id;
    // no profile: the brand is the site's name and domain, asked of the one engine with a key
    for (const text of [
      `Which tracker suits a small team? cites: ${brand.origin}/pricing ${compare}`,
      `What is the cheapest tracker? cites: ${compare} ${refusedUrl}`,
    ]) {
      expect((await call(owner.key, "POST", `/api/v1/sites/${siteId}/prompts`, { text })).status).toBe(201);
    }
    expect((await call(owner.key, "POST", `/api/v1/sites/${siteId}/competitors`, { name: "Globex" })).status).toBe(201);
    // a client with the site, and a client without it, each with a key of its own
    for (const name of ["mine", "other"]) {
      const client = await call(owner.key, "POST", "/api/v1/clients", { name });
      expect(client.status).toBe(201);
      const clientId = (client.body as Json).data.id as string;
      if (name === "mine") {
        const assigned = await call(owner.key, "PATCH", `/api/v1/sites/${siteId}`, { client_id: clientId });
        expect(assigned.status).toBe(200);
      }
      const key = await api(stack.gateway.url, "/api/v1/keys", {
        body: { name, client_id: clientId },
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(key.status).toBe(201);
      keys[name] = (key.body as Json).data.key;
    }
    runId = await completedRun();
  }, 420_000);

  afterAll(async () => {
    await visibility?.close();
    await new Promise((resolve) => brand?.server.close(resolve));
    await new Promise((resolve) => rival?.server.close(resolve));
    await stopContainers();
  });

  it("scans the brand's cited page and the page cited in its place, reports the refused address, and sets them side by side", async () => {
    const before = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`);
    expect(before.status).toBe(200);
    expect((before.body as Json).data).toMatchObject({ started: false, counts: { pages: 3, pending: 3 } });

    const started = await call(owner.key, "POST", `/api/v1/visibility/runs/${runId}/cited-pages`);
    expect(started.status).toBe(202);
    const view = (started.body as Json).data;
    const byUrl = new Map<string, Json>(view.pages.map((page: Json) => [page.url, page]));
    expect(byUrl.get(`${brand.origin}/pricing`)).toMatchObject({ side: "brand", citations: 3, refused: null });
    // cited in the three answers to the prompt that cited none of the brand's pages only
    expect(byUrl.get(`${rival.origin}/compare`)).toMatchObject({ side: "competitor", citations: 3 });
    expect(byUrl.get(refusedUrl)).toMatchObject({ side: "competitor", state: "refused", scan: null });
    expect(byUrl.get(refusedUrl)?.refused).toMatch(/loopback|private|reserved/);
    // the refused address was never stored as a scan
    expect(await stack.db.scan.count({ where: { url: { contains: "127.0.0.3" } } })).toBe(0);
    expect(await stack.db.visibilityCitedPage.count({ where: { runId } })).toBe(3);

    // asked again: the same pages, nothing scanned twice
    const again = await call(owner.key, "POST", `/api/v1/visibility/runs/${runId}/cited-pages`);
    expect(again.status).toBe(200);
    expect((again.body as Json).data.pages).toHaveLength(3);
    const { workspaceId } = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    expect(await stack.db.scan.count({ where: { workspaceId } })).toBe(2);

    await eventually(
      async () => {
        const read = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`);
        return (read.body as Json).data.counts.completed === 2;
      },
      120_000,
      "the two cited pages' scans",
    );
    const read = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`);
    const data = (read.body as Json).data;
    expect(data).toMatchObject({ started: true, counts: { pages: 3, completed: 2, refused: 1, pending: 0 } });
    const [cheapest, smallTeam] = data.prompts as Json[];
    expect(smallTeam?.brand_pages.map((page: Json) => page.url)).toEqual([`${brand.origin}/pricing`]);
    // that prompt's answers cited the brand: the competitor page beside it is not "in its place"
    expect(smallTeam?.competitor_pages).toEqual([]);
    expect(cheapest?.brand_pages).toEqual([]);
    const compare = cheapest?.competitor_pages.find((page: Json) => page.url === `${rival.origin}/compare`);
    expect(compare).toMatchObject({
      state: "completed",
      compared_with: `${brand.origin}/pricing`,
      prompt_citations: 3,
    });
    expect(compare.scan.overall).toBeGreaterThan(data.pages.find((p: Json) => p.side === "brand").scan.overall);
    const lacks = compare.lacks.map((gap: Json) => gap.check);
    expect(lacks.length).toBeGreaterThan(0);
    // what the brand's page lacks is what its own scan failed and the cited page's passed
    const brandScan = await stack.db.scan.findUniqueOrThrow({
      where: { id: data.pages.find((p: Json) => p.side === "brand").scan.id },
    });
    const failed = new Set((brandScan.checks as Json[]).filter((c) => c.status !== "pass").map((c) => c.id));
    expect(lacks.every((check: string) => failed.has(check))).toBe(true);
    expect(cheapest?.competitor_pages.find((page: Json) => page.url === refusedUrl)).toMatchObject({
      state: "refused",
      lacks: null,
    });
    process.stdout.write(`cited page lacks ${lacks.length} checks of the brand's: ${lacks.join(", ")}\n`);

    // Form B answers the same
    const formB = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`, undefined, {
      "x-response-form": "B",
    });
    expect(formB.status).toBe(200);
    expect((formB.body as Json).success).toBe(true);
    expect((formB.body as Json).data.counts).toEqual(data.counts);
  }, 180_000);

  it("takes a recent scan of the same address instead of scanning it again", async () => {
    const second = await completedRun();
    const started = await call(owner.key, "POST", `/api/v1/visibility/runs/${second}/cited-pages`);
    expect(started.status).toBe(202);
    const pages = (started.body as Json).data.pages as Json[];
    const scanned = pages.filter((page) => page.scan !== null);
    expect(scanned).toHaveLength(2);
    expect(scanned.every((page) => page.scan.reused && page.state === "completed")).toBe(true);
    expect((started.body as Json).data.counts).toMatchObject({ reused: 2, completed: 2, refused: 1 });
  }, 180_000);

  it("starts a run's cited pages once when asked twice at once", async () => {
    const third = await completedRun();
    const { workspaceId } = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: third } });
    const scansBefore = await stack.db.scan.count({ where: { workspaceId } });
    const answers = await Promise.all(
      [1, 2].map(() => call(owner.key, "POST", `/api/v1/visibility/runs/${third}/cited-pages`)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 202]);
    const urls = answers.map((answer) =>
      ((answer.body as Json).data.pages as Json[]).map((page) => `${page.url} ${page.scan?.id ?? page.state}`).sort(),
    );
    expect(urls[0]).toHaveLength(3);
    expect(urls[1]).toEqual(urls[0]);
    expect(await stack.db.visibilityCitedPage.count({ where: { runId: third } })).toBe(3);
    // both pages had a recent scan to take: nothing was scanned, by either request
    expect(await stack.db.scan.count({ where: { workspaceId } })).toBe(scansBefore);
  }, 180_000);

  it("answers 409 for a run under way, 404 for another workspace's run and outside a client-scoped key's client", async () => {
    const stranger = await createAccount(stack.db, "agency");
    for (const method of ["GET", "POST"]) {
      const answer = await call(stranger.key, method, `/api/v1/visibility/runs/${runId}/cited-pages`);
      expect([method, answer.status]).toEqual([method, 404]);
      const outside = await call(keys.other as string, method, `/api/v1/visibility/runs/${runId}/cited-pages`);
      expect([method, outside.status]).toEqual([method, 404]);
    }
    const mine = await call(keys.mine as string, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`);
    expect(mine.status).toBe(200);
    const formB = await call(stranger.key, "GET", `/api/v1/visibility/runs/${runId}/cited-pages`, undefined, {
      "x-response-form": "B",
    });
    expect((formB.body as Json).code).toBe("NOT_FOUND");
    const bad = await call(owner.key, "GET", "/api/v1/visibility/runs/not-a-run/cited-pages");
    expect(bad.status).toBe(400);

    const { userId, workspaceId } = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    const running = await stack.db.visibilityRun.create({
      data: {
        userId,
        workspaceId,
        siteId,
        status: "running",
        engines: ["perplexity"],
        samplesPerPrompt: 1,
        planned: 1,
      },
    });
    try {
      const early = await call(owner.key, "POST", `/api/v1/visibility/runs/${running.id}/cited-pages`);
      expect(early.status).toBe(409);
      expect(early.headers.get("retry-after")).toBe("60");
    } finally {
      await stack.db.visibilityRun.delete({ where: { id: running.id } });
    }
  }, 60_000);

  it("scores a stored run with the AEO 2.0 evaluator", async () => {
    const run = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    // a planted run: three answers of known shape on the same site
    const planted = await stack.db.visibilityRun.create({
      data: {
        userId: run.userId,
        workspaceId: run.workspaceId,
        siteId,
        status: "completed",
        engines: ["perplexity"],
        samplesPerPrompt: 1,
        planned: 3,
        done: 3,
        completedAt: new Date(),
      },
    });
    const sample = (promptText: string, answerText: string, citations: Json[], mentions: Json[]) => ({
      runId: planted.id,
      promptId: crypto.randomUUID(),
      promptText,
      engine: "perplexity" as const,
      sampleIndex: 0,
      status: "completed" as const,
      answerText,
      citations,
      mentions,
      finishedAt: new Date(),
    });
    await stack.db.visibilitySample.createMany({
      data: [
        sample(
          "a cited",
          "Globex leads, Acme follows.",
          [
            { url: `${rival.origin}/compare`, domain: "127.0.0.2", position: 1, title: null },
            { url: `${brand.origin}/pricing`, domain: "127.0.0.1", position: 2, title: null },
          ],
          [
            { entity: "Globex", kind: "competitor", position: 1 },
            { entity: "Acme", kind: "brand", position: 2 },
          ],
        ),
        sample("b named", "Acme is one option.", [], [{ entity: "Acme", kind: "brand", position: 1 }]),
        sample(
          "c instead",
          "Globex is the usual pick.",
          [{ url: `${rival.origin}/compare`, domain: "127.0.0.2", position: 1, title: null }],
          [{ entity: "Globex", kind: "competitor", position: 1 }],
        ),
      ],
    });
    const scored = await call(owner.key, "POST", "/api/v1/aeo-2/evaluate", { runId: planted.id });
    expect(scored.status).toBe(200);
    const body = scored.body as Json;
    expect(body.data.citations).toEqual([
      { label: "verified_url", score: 50 + 30 + 18, isCited: true },
      { label: "brand_mentioned", score: 30 + 20, isCited: false },
      { label: "competitor_cited", score: 0, isCited: false },
    ]);
    expect(body.meta.run.id).toBe(planted.id);
    expect(body.meta.run.sampleIds).toHaveLength(3);
    expect(body.meta.version).toBe("2.0");

    const formB = await call(
      owner.key,
      "POST",
      "/api/v1/aeo-2/evaluate",
      { runId: planted.id },
      { "x-response-form": "B" },
    );
    expect((formB.body as Json).data.citations).toEqual(body.data.citations);
    const both = await call(owner.key, "POST", "/api/v1/aeo-2/evaluate", {
      runId: planted.id,
      citations: [{ brandName: "Acme", targetUrl: "https://acme.com" }],
    });
    expect(both.status).toBe(400);
    const stranger = await createAccount(stack.db, "agency");
    expect((await call(stranger.key, "POST", "/api/v1/aeo-2/evaluate", { runId: planted.id })).status).toBe(404);
    expect((await call(keys.other as string, "POST", "/api/v1/aeo-2/evaluate", { runId: planted.id })).status).toBe(
      404,
    );
    expect((await call(keys.mine as string, "POST", "/api/v1/aeo-2/evaluate", { runId: planted.id })).status).toBe(200);
  }, 60_000);
});
