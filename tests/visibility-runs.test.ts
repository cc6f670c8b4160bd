import { VISIBILITY_QUEUE } from "@scan/queue";
import { visibilityRuns } from "@scan/records";
import { costOf, KNOWN_PRICES } from "@scan/visibility";
import { Queue } from "bullmq";
import { createAccount, type TestAccount } from "./support/accounts";
import type { EngineServers } from "./support/engine-servers";
import { eventually, startWorkerProcess, type WorkerProcess } from "./support/outages";
import { csvRows, parseCsv } from "./support/report-schemas";
import { stopContainers } from "./support/services";
import { api, type Stack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * Visibility runs end to end: the gateway stores a run and queues its samples, a real worker
 * process asks the engines (local servers speaking the vendors' wire formats through the
 * vendors' own client libraries) and stores each answer once, with its citation track.
 */

type Json = Record<string, any>;

/**
 * What a sample is projected to cost before it is asked (gpt-5.1), with the worker's projection
 * set just above what the local ChatGPT server's answer uses (328 tokens in, 356 out, 2 searches).
 */
const PROJECTION = { inputTokens: 400, outputTokens: 400, searchCalls: 2 };
const PROJECTED = costOf(PROJECTION, KNOWN_PRICES["gpt-5.1"] ?? { inputPerMTok: 0, outputPerMTok: 0 });
/** a Pro workspace's monthly cap here: two samples and a half, so the third would pass it */
const PRO_CAP = PROJECTED * 2.5;

describe("visibility runs", () => {
  let visibility: VisibilityStack;
  let servers: EngineServers;
  let stack: Stack;
  let redisUrl: string;
  let owner: TestAccount;
  let siteId: string;
  let workerEnv: Record<string, string>;
  const workers: WorkerProcess[] = [];
  let firstRun = "";

  const call = (key: string, method: string, path: string, body?: unknown) =>
    api(stack.gateway.url, path, { method, headers: { "x-api-key": key }, ...(body === undefined ? {} : { body }) });

  const setUpSite = async (key: string, url: string, engines: string[]) => {
    const site = await call(key, "POST", "/api/v1/sites", { url, name: "Acme" });
    expect(site.status).toBe(201);
    const id = (site.body as Json).data.id as string;
    const profile = await call(key, "PUT", `/api/v1/sites/${id}/visibility`, {
      brand_names: ["Acme"],
      brand_domains: ["acme.com"],
      samples_per_prompt: 3,
      engines,
    });
    expect(profile.status).toBe(200);
    for (const text of ["Which project tracker suits a small team?", "What is the cheapest project tracker?"]) {
      expect((await call(key, "POST", `/api/v1/sites/${id}/prompts`, { text })).status).toBe(201);
    }
    expect((await call(key, "POST", `/api/v1/sites/${id}/competitors`, { name: "Globex" })).status).toBe(201);
    return id;
  };

  const startRun = async (key: string, site: string) => {
    const started = await call(key, "POST", `/api/v1/sites/${site}/visibility/runs`);
    expect(started.status).toBe(202);
    return (started.body as Json).data as Json;
  };

  const ended = async (runId: string, withinMs = 90_000) => {
    await eventually(
      async () => {
        const run = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
        return run.status !== "queued" && run.status !== "running";
      },
      withinMs,
      `run ${runId} to end`,
    );
    return stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
  };

  beforeAll(async () => {
    const budget = { VISIBILITY_BUDGET_USD_PRO: String(PRO_CAP) };
    visibility = await startVisibilityStack({
      vendors: ["openai", "anthropic"],
      allowlist: ["acme.com", "pro.acme.com"],
      gatewayEnv: budget,
      workerEnv: {
        ...budget,
        LOG_LEVEL: "info",
        VISIBILITY_BACKOFF_MS: "200",
        REAPER_INTERVAL_MS: "500",
        ORPHAN_AFTER_MS: "1500",
        VISIBILITY_PROJECTED_INPUT_TOKENS: String(PROJECTION.inputTokens),
        VISIBILITY_PROJECTED_OUTPUT_TOKENS: String(PROJECTION.outputTokens),
        VISIBILITY_PROJECTED_SEARCHES: String(PROJECTION.searchCalls),
      },
    });
    ({ servers, stack, redisUrl, workerEnv } = visibility);
    workers.push(visibility.worker);
    owner = await createAccount(stack.db, "agency");
    siteId = await setUpSite(owner.key, "https://acme.com", ["chatgpt", "claude"]);
  }, 300_000);

  afterAll(async () => {
    for (const worker of workers) worker.process.kill("SIGKILL");
    await visibility?.close();
    await stopContainers();
  });

  it("asks 2 prompts × 2 engines × 3 samples, stores 12 answers and 12 citation tracks, and measures them", async () => {
    const run = await startRun(owner.key, siteId);
    expect(run).toMatchObject({ status: "queued", engines: ["chatgpt", "claude"], progress: { planned: 12 } });
    // one run under way per site
    const again = await call(owner.key, "POST", `/api/v1/sites/${siteId}/visibility/runs`);
    expect(again.status).toBe(409);
    const stored = await ended(run.id);
    expect(stored).toMatchObject({ status: "completed", planned: 12, done: 12, failed: 0 });
    const samples = await stack.db.visibilitySample.findMany({ where: { runId: run.id } });
    expect(samples).toHaveLength(12);
    expect(samples.every((s) => s.status === "completed" && s.answerText && s.brandMentioned)).toBe(true);
    const tracks = await stack.db.citationTrack.findMany({ where: { sampleId: { in: samples.map((s) => s.id) } } });
    expect(tracks).toHaveLength(12);
    const spent = samples.reduce((sum, s) => sum + s.costUsd, 0);
    expect(spent).toBeGreaterThan(0);
    expect(stored.costUsd).toBeCloseTo(spent, 10);

    const listed = await call(owner.key, "GET", `/api/v1/citations?site_id=${siteId}&limit=100`);
    expect((listed.body as Json).data).toHaveLength(12);
    expect((listed.body as Json).data[0]).toMatchObject({ platform: expect.stringMatching(/chatgpt|claude/) });

    const read = await call(owner.key, "GET", `/api/v1/visibility/runs/${run.id}`);
    expect(read.status).toBe(200);
    const measures = (read.body as Json).data.measures;
    expect(measures.engines).toHaveLength(2);
    for (const engine of measures.engines) {
      expect(engine.mention_rate).toMatchObject({ successes: 6, n: 6, rate: 1 });
      expect(engine.mention_rate.low).toBeGreaterThan(0.5);
      expect(engine.mention_rate.high).toBe(1);
    }
    expect(measures.prompts).toHaveLength(4);
    expect(measures.share_of_voice.map((v: Json) => v.name)).toEqual(["Acme", "Globex"]);
    expect(measures.versus_previous).toBeNull();

    const page = await call(owner.key, "GET", `/api/v1/visibility/runs/${run.id}/samples?engine=claude&limit=100`);
    expect((page.body as Json).data).toHaveLength(6);
    expect((page.body as Json).data[0].citations.length).toBeGreaterThan(0);
    // Form B answers the same list
    const formB = await api(stack.gateway.url, `/api/v1/sites/${siteId}/visibility/runs`, {
      headers: { "x-api-key": owner.key, "x-response-form": "B" },
    });
    expect((formB.body as Json).success).toBe(true);
    firstRun = run.id;
  }, 120_000);

  it("exports a run's samples as CSV, by format or by Accept, with formulas neutralised", async () => {
    const stored = await stack.db.visibilitySample.findMany({
      where: { runId: firstRun, engine: "claude" },
      orderBy: [{ promptText: "asc" }, { sampleIndex: "asc" }],
    });
    // a prompt a spreadsheet would run as a formula: the prompt's text is the user's own
    const hostile = '=HYPERLINK("https://evil.example","x")';
    const first = stored[0];
    if (!first) throw new Error("no stored sample");
    await stack.db.visibilitySample.update({ where: { id: first.id }, data: { promptText: hostile } });

    const byFormat = await fetch(
      `${stack.gateway.url}/api/v1/visibility/runs/${firstRun}/samples?format=csv&engine=claude&limit=1`,
      { headers: { "x-api-key": owner.key } },
    );
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(byFormat.headers.get("content-disposition")).toBe(
      `attachment; filename="visibility-run-${firstRun}-samples.csv"`,
    );
    const bytes = Buffer.from(await byFormat.arrayBuffer());
    // a byte-order mark, as the other CSV exports, so a spreadsheet reads UTF-8
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = ` ${bytes.subarray(3).toString("utf8")}`;
    expect(text).toContain("\r\n");
    expect(csvRows(text.slice(1))[0]).toEqual([
      "prompt",
      "engine",
      "sample_index",
      "status",
      "brand_mentioned",
      "brand_cited",
      "cited_page",
      "citations",
      "search_queries",
      "mentions",
      "model",
      "tokens",
      "cost_usd",
      "answered_at",
    ]);
    // every sample the filter keeps: limit does not page the file
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.engine === "claude" && row.status === "completed")).toBe(true);
    const neutralised = rows.find((row) => row.prompt?.includes("HYPERLINK"));
    expect(neutralised?.prompt).toBe(`'${hostile}`);
    const row = rows.find((r) => r.prompt === `'${hostile}`) as Record<string, string>;
    expect(row).toMatchObject({
      sample_index: String(first.sampleIndex),
      brand_mentioned: String(first.brandMentioned),
      brand_cited: String(first.brandCited),
      cited_page: first.citedPage ?? "",
      model: first.model ?? "",
      tokens: String(first.inputTokens + first.outputTokens),
      cost_usd: String(first.costUsd),
      answered_at: first.finishedAt?.toISOString(),
      search_queries: first.searchQueries.join(" | "),
    });
    const urls = (first.citations as { url: string }[]).map((c) => c.url);
    expect(urls.length).toBeGreaterThan(0);
    expect(row.citations).toBe(urls.join(" "));
    expect((row.mentions ?? "").split(" | ")).toEqual((first.mentions as { entity: string }[]).map((m) => m.entity));

    // by Accept, as the other exports; ?format=json wins over it; nothing acceptable is 406
    const byAccept = await api(stack.gateway.url, `/api/v1/visibility/runs/${firstRun}/samples`, {
      headers: { "x-api-key": owner.key, accept: "text/csv" },
    });
    expect(byAccept.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(byAccept.headers.get("vary")).toMatch(/accept/i);
    // fetch's text drops the byte-order mark
    expect(parseCsv(byAccept.body as string)).toHaveLength(12);
    const json = await api(stack.gateway.url, `/api/v1/visibility/runs/${firstRun}/samples?format=json`, {
      headers: { "x-api-key": owner.key, accept: "text/csv" },
    });
    expect((json.body as Json).data).toHaveLength(12);
    const refused = await api(stack.gateway.url, `/api/v1/visibility/runs/${firstRun}/samples`, {
      headers: { "x-api-key": owner.key, accept: "text/html" },
    });
    expect(refused.status).toBe(406);
    expect((refused.body as Json).error.code).toBe("not_acceptable");
    const bad = await call(owner.key, "GET", `/api/v1/visibility/runs/${firstRun}/samples?format=xlsx`);
    expect(bad.status).toBe(400);
    // another workspace's run is 404 in CSV too
    const stranger = await createAccount(stack.db, "agency");
    expect((await call(stranger.key, "GET", `/api/v1/visibility/runs/${firstRun}/samples?format=csv`)).status).toBe(
      404,
    );
    await stack.db.visibilitySample.update({ where: { id: first.id }, data: { promptText: first.promptText } });
  });

  it("waits out a 429's Retry-After and then stores the answer; the run compares with the previous one", async () => {
    const before = servers.openai.requests.length;
    servers.openai.rateLimitNext(1);
    const run = await startRun(owner.key, siteId);
    const stored = await ended(run.id);
    expect(stored).toMatchObject({ status: "completed", done: 12, failed: 0 });
    expect(servers.openai.requests.length - before).toBe(7);
    const retried = await stack.db.visibilitySample.findMany({ where: { runId: run.id, attempts: { gt: 1 } } });
    expect(retried).toHaveLength(1);
    expect(retried[0]?.engine).toBe("chatgpt");
    const read = await call(owner.key, "GET", `/api/v1/visibility/runs/${run.id}`);
    const versus = (read.body as Json).data.measures.versus_previous;
    expect(versus.engines).toHaveLength(2);
    // the same answers every time: no change called
    expect(versus.engines.every((e: Json) => e.mention.changed === false && e.mention.p_value === 1)).toBe(true);
  }, 120_000);

  it("fails the samples of an engine whose key is refused, with the kind, and completes the run", async () => {
    const workspace = await stack.db.workspace.findFirstOrThrow({ where: { personalUserId: owner.user.id } });
    const wrong = await api(stack.gateway.url, `/api/v1/workspaces/${workspace.id}/engine-keys/claude`, {
      method: "PUT",
      headers: { authorization: `Bearer ${owner.token}` },
      body: { api_key: "sk-ant-refused-0123456789abcdef" },
    });
    expect(wrong.status).toBe(201);
    try {
      const run = await startRun(owner.key, siteId);
      const stored = await ended(run.id);
      expect(stored).toMatchObject({ status: "completed", done: 6, failed: 6 });
      const failed = await stack.db.visibilitySample.findMany({ where: { runId: run.id, status: "failed" } });
      expect(failed.every((s) => s.engine === "claude" && s.errorKind === "auth" && s.attempts === 1)).toBe(true);
      expect(JSON.stringify(failed)).not.toContain("sk-ant-refused");
    } finally {
      await api(stack.gateway.url, `/api/v1/workspaces/${workspace.id}/engine-keys/claude`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${owner.token}` },
      });
    }
  }, 120_000);

  it("stops a run at the workspace's monthly budget, never past it", async () => {
    const pro = await createAccount(stack.db, "pro");
    const site = await setUpSite(pro.key, "https://pro.acme.com", ["chatgpt"]);
    const run = await startRun(pro.key, site);
    const stored = await ended(run.id);
    expect(stored).toMatchObject({ status: "failed", errorCode: "budget_exhausted" });
    // two samples fit; a third, reserved at its projection, would pass the cap
    expect(stored.done).toBe(2);
    const samples = await stack.db.visibilitySample.findMany({ where: { runId: run.id } });
    const spent = samples.reduce((sum, s) => sum + s.costUsd, 0);
    expect(spent).toBeLessThanOrEqual(PRO_CAP);
    expect(samples.filter((s) => s.status === "cancelled").length).toBe(6 - stored.done);
    // the month's budget is spent: the next run is refused before it starts, or stops at once
    const next = await call(pro.key, "POST", `/api/v1/sites/${site}/visibility/runs`);
    if (next.status === 202) {
      const again = await ended((next.body as Json).data.id);
      expect(again).toMatchObject({ status: "failed", errorCode: "budget_exhausted", done: 0 });
    } else {
      expect(next.status).toBe(403);
    }
  }, 120_000);

  it("reserves budget under the workspace's lock: samples claimed at once never together pass the cap", async () => {
    const starter = await createAccount(stack.db, "starter");
    const workspace = await stack.db.workspace.findFirstOrThrow({ where: { personalUserId: starter.user.id } });
    const site = await call(starter.key, "POST", "/api/v1/sites", { url: "https://acme.com", name: "Starter" });
    const planned = Array.from({ length: 8 }, (_, sampleIndex) => ({
      promptId: crypto.randomUUID(),
      promptText: "claimed at once",
      promptLocale: null,
      engine: "chatgpt" as const,
      sampleIndex,
    }));
    const { sampleIds } = await visibilityRuns.insertRun(
      stack.db,
      {
        workspaceId: workspace.id,
        userId: starter.user.id,
        siteId: (site.body as Json).data.id,
        engines: ["chatgpt"],
        samplesPerPrompt: 1,
        requestId: null,
      },
      planned,
    );
    // rows with no job: the running worker's sweep would queue them again after ORPHAN_AFTER_MS and
    // its own claims would share the cap with this test's; dated ahead, they are not yet lost to it
    await stack.db
      .$executeRaw`UPDATE "visibility_samples" SET "updated_at" = now() + interval '1 hour' WHERE "id" = ANY(${sampleIds}::uuid[])`;
    const since = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const claims = await Promise.all(
      sampleIds.map((id) => visibilityRuns.claimSample(stack.db, id, { capUsd: 2.5, projectedUsd: 1, since })),
    );
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(2);
    expect(claims.filter((claim) => !claim.claimed && claim.reason === "budget_exhausted")).toHaveLength(6);
    expect(await visibilityRuns.spentSince(stack.db, workspace.id, since)).toBe(2);
  }, 60_000);

  it("cancels a run under way: its samples waiting on a rate limit are cancelled, their reservations given back", async () => {
    servers.openai.rateLimitNext(1_000);
    servers.anthropic.rateLimitNext(1_000);
    try {
      const run = await startRun(owner.key, siteId);
      await eventually(
        async () => (await stack.db.visibilitySample.count({ where: { runId: run.id, attempts: { gt: 0 } } })) > 0,
        30_000,
        "a sample asked",
      );
      const cancelled = await call(owner.key, "DELETE", `/api/v1/visibility/runs/${run.id}`);
      expect(cancelled.status).toBe(200);
      expect((cancelled.body as Json).data.status).toBe("cancelled");
      await eventually(
        async () =>
          (await stack.db.visibilitySample.count({
            where: { runId: run.id, status: { in: ["queued", "running"] } },
          })) === 0,
        30_000,
        "every sample ended",
      );
      const samples = await stack.db.visibilitySample.findMany({ where: { runId: run.id } });
      expect(samples.every((s) => s.status === "cancelled" && s.reservedUsd === 0)).toBe(true);
      const again = await call(owner.key, "DELETE", `/api/v1/visibility/runs/${run.id}`);
      expect((again.body as Json).data.status).toBe("cancelled");
    } finally {
      servers.openai.rateLimitNext(0);
      servers.anthropic.rateLimitNext(0);
    }
  }, 90_000);

  it("completes a run through a killed worker and its jobs removed from Redis, each sample stored once", async () => {
    servers.openai.rateLimitNext(3);
    const run = await startRun(owner.key, siteId);
    await eventually(
      async () => (await stack.db.visibilitySample.count({ where: { runId: run.id, status: "completed" } })) >= 1,
      60_000,
      "a first sample",
    );
    workers[0]?.process.kill("SIGKILL");
    const queue = new Queue(VISIBILITY_QUEUE, { connection: { url: redisUrl }, prefix: stack.prefix });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
    const atKill = await stack.db.visibilitySample.count({ where: { runId: run.id, status: "completed" } });
    workers.push(await startWorkerProcess(workerEnv));
    const stored = await ended(run.id, 120_000);
    expect(stored).toMatchObject({ status: "completed", planned: 12, done: 12, failed: 0 });
    const samples = await stack.db.visibilitySample.findMany({ where: { runId: run.id } });
    expect(samples).toHaveLength(12);
    const tracks = await stack.db.citationTrack.count({ where: { sampleId: { in: samples.map((s) => s.id) } } });
    expect(tracks).toBe(12);
    expect(stored.costUsd).toBeCloseTo(
      samples.reduce((sum, s) => sum + s.costUsd, 0),
      10,
    );
    process.stdout.write(`visibility run through a killed worker: ${atKill} of 12 stored at the kill\n`);
  }, 200_000);

  it("keeps a run from another workspace: 404 everywhere", async () => {
    const stranger = await createAccount(stack.db, "agency");
    const run = await stack.db.visibilityRun.findFirstOrThrow({ where: { siteId } });
    for (const [method, path] of [
      ["GET", `/api/v1/visibility/runs/${run.id}`],
      ["GET", `/api/v1/visibility/runs/${run.id}/samples`],
      ["DELETE", `/api/v1/visibility/runs/${run.id}`],
      ["GET", `/api/v1/sites/${siteId}/visibility/runs`],
      ["POST", `/api/v1/sites/${siteId}/visibility/runs`],
    ] as const) {
      const answer = await call(stranger.key, method, path);
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
  }, 60_000);
});
