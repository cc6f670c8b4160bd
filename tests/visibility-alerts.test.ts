import type { IncomingMessage, ServerResponse } from "node:http";
import { VisibilityAlert } from "@scan/contract";
import { verifyWebhook } from "@scan/platform";
import { VISIBILITY_QUEUE, visibilitySampleJob } from "@scan/queue";
import { Queue } from "bullmq";
import { createAccount, type TestAccount } from "./support/accounts";
import { type EngineServers, KEYS, startEngineServers } from "./support/engine-servers";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A visibility run that completes with a rate changed against the previous completed run by
 * Fisher's exact test sends one signed webhook to the site's alert URL, naming the engine, the
 * rates before and after with their intervals, p and the run; a change that is noise sends none.
 * The real worker asks a local server speaking OpenAI's Responses wire format, whose answer names
 * Acme and cites acme.com; the previous runs are planted rows.
 */

const WEBHOOK_SECRET = "whsec_visibility_0123456789abcdef012345";
const PROMPTS = [
  "Which project tracker suits a small team?",
  "What is the cheapest project tracker?",
  "Which tracker has the best mobile app?",
  "Which project tracker do agencies use?",
];

type Json = Record<string, any>;

describe("visibility alerts", () => {
  let servers: EngineServers;
  let receiver: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let queue: Queue;
  const received: Array<{ path: string; headers: IncomingMessage["headers"]; raw: string }> = [];

  const call = (method: string, path: string, body?: unknown) =>
    api(stack.gateway.url, path, {
      method,
      headers: { "x-api-key": owner.key },
      ...(body === undefined ? {} : { body }),
    });

  /** A site asking ChatGPT 4 prompts × 3 samples (12 a run), with an alert URL on its schedule. */
  const setUpSite = async (url: string) => {
    const site = await call("POST", "/api/v1/sites", { url, name: "Acme" });
    expect(site.status).toBe(201);
    const id = (site.body as Json).data.id as string;
    const profile = await call("PUT", `/api/v1/sites/${id}/visibility`, {
      brand_names: ["Acme"],
      brand_domains: ["acme.com"],
      samples_per_prompt: 3,
      engines: ["chatgpt"],
    });
    expect(profile.status).toBe(200);
    for (const text of PROMPTS) expect((await call("POST", `/api/v1/sites/${id}/prompts`, { text })).status).toBe(201);
    const schedule = await call("POST", `/api/v1/sites/${id}/schedule`, {
      frequency: "weekly",
      alert_url: receiver.url("/visibility"),
      alert_slack_url: receiver.url("/slack/T000/B000/secret"),
    });
    expect(schedule.status).toBe(201);
    return id;
  };

  /**
   * A run of the site as stored rows: 12 ChatGPT samples, the first `answered` of them completed
   * with the brand named (and cited) in `named` of them, the rest queued; completed when all are.
   */
  const plantRun = async (siteId: string, answered: number, named: number, createdAt: Date) => {
    const prompts = await stack.db.visibilityPrompt.findMany({ where: { siteId }, orderBy: { createdAt: "asc" } });
    const site = await stack.db.site.findUniqueOrThrow({ where: { id: siteId }, select: { workspaceId: true } });
    const complete = answered === 12;
    const run = await stack.db.visibilityRun.create({
      data: {
        userId: owner.user.id,
        workspaceId: site.workspaceId,
        siteId,
        status: complete ? "completed" : "running",
        engines: ["chatgpt"],
        samplesPerPrompt: 3,
        planned: 12,
        done: answered,
        createdAt,
        startedAt: createdAt,
        ...(complete ? { completedAt: createdAt } : {}),
      },
    });
    const rows = prompts.flatMap((prompt) => [0, 1, 2].map((sampleIndex) => ({ prompt, sampleIndex })));
    await stack.db.visibilitySample.createMany({
      data: rows.map(({ prompt, sampleIndex }, i) => ({
        runId: run.id,
        promptId: prompt.id,
        promptText: prompt.text,
        engine: "chatgpt" as const,
        sampleIndex,
        ...(i < answered
          ? {
              status: "completed" as const,
              attempts: 1,
              answerText: i < named ? "Acme suits small teams." : "Globex suits small teams.",
              model: "gpt-5.1",
              citations: [],
              mentions: [],
              brandMentioned: i < named,
              brandCited: i < named,
              finishedAt: createdAt,
            }
          : {}),
      })),
    });
    return run.id;
  };

  const ended = async (runId: string) => {
    await eventually(
      async () => (await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } })).status === "completed",
      60_000,
      `run ${runId} to complete`,
    );
  };

  beforeAll(async () => {
    servers = await startEngineServers();
    receiver = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ path: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["acme.com", "noise.acme.com", receiver.hostPort],
      env: {
        WEBHOOK_SECRET,
        OPENAI_API_KEY: KEYS.openai,
        OPENAI_BASE_URL: `${servers.openai.baseUrl}/v1`,
        RATE_LIMIT_AGENCY: "100000",
        DASHBOARD_URL: "https://scan.example/app",
      },
    });
    queue = new Queue(VISIBILITY_QUEUE, { connection: { url: await testRedisUrl() }, prefix: stack.prefix });
    owner = await createAccount(stack.db, "agency");
  }, 300_000);

  afterAll(async () => {
    await queue?.close();
    await stack?.close();
    await servers?.close();
    await receiver?.close();
    await database?.drop();
    await stopContainers();
  });

  it("alerts once, signed, when the mention rate goes from 0/12 to 12/12", async () => {
    const siteId = await setUpSite("https://acme.com");
    const previous = await plantRun(siteId, 12, 0, new Date(Date.now() - 3600_000));
    const started = await call("POST", `/api/v1/sites/${siteId}/visibility/runs`);
    expect(started.status).toBe(202);
    const runId = (started.body as Json).data.id as string;
    await ended(runId);

    await eventually(async () => received.length >= 2, 30_000, "the webhook and the Slack message to arrive");
    const alert = received.find((r) => r.path === "/visibility");
    expect(verifyWebhook(WEBHOOK_SECRET, String(alert?.headers["x-signature"]), alert?.raw ?? "").valid).toBe(true);
    const body = VisibilityAlert.parse(JSON.parse(alert?.raw ?? ""));
    expect(alert?.headers["x-webhook-id"]).toBe(body.alert_id);
    expect(body).toMatchObject({
      event: "visibility.changed",
      site_id: siteId,
      run_id: runId,
      previous_run_id: previous,
      run_api_path: `/api/v1/visibility/runs/${runId}`,
      dashboard_url: `https://scan.example/app/sites/${siteId}/visibility?run=${runId}`,
    });
    const mention = body.changes.find((c) => c.engine === "chatgpt" && c.rate === "mention");
    expect(mention).toMatchObject({
      direction: "up",
      previous: { successes: 0, n: 12, rate: 0 },
      current: { successes: 12, n: 12, rate: 1 },
    });
    expect(mention?.p_value).toBeLessThan(0.001);
    expect(mention?.previous.high).toBeGreaterThan(0);
    expect(mention?.previous.high).toBeLessThan(0.3);
    expect(mention?.current.low).toBeGreaterThan(0.7);

    // the same comparison the run shows over the API
    const read = await call("GET", `/api/v1/visibility/runs/${runId}`);
    const versus = (read.body as Json).data.measures.versus_previous;
    expect(versus.run_id).toBe(previous);
    expect(versus.engines[0].mention).toMatchObject({ changed: true, p_value: mention?.p_value });

    await eventually(
      async () => (await stack.db.visibilityAlert.findFirstOrThrow({ where: { runId } })).state === "delivered",
      10_000,
      "the alert to be marked delivered",
    );
    // the schedule's Slack channel: the same change as a person reads it, linking to the run
    const slack = JSON.parse(received.find((r) => r.path.startsWith("/slack/"))?.raw ?? "{}");
    expect(slack.text).toContain(`Open the run: https://scan.example/app/sites/${siteId}/visibility?run=${runId}`);
    expect(JSON.stringify(slack.blocks)).toContain(
      // Slack's escaping of "<"
      "ChatGPT mention rate rose: 0 % (0/12, 95 % CI 0 %–24 %) → 100 % (12/12, 95 % CI 76 %–100 %), p &lt; 0.001",
    );
    await eventually(
      async () => (await stack.db.visibilityAlert.count({ where: { runId, state: "delivered" } })) === 2,
      10_000,
      "both alerts to be marked delivered",
    );
    const rows = await stack.db.visibilityAlert.findMany({ where: { runId }, orderBy: { channel: "asc" } });
    expect(rows.map((row) => [row.channel, row.attempts, row.previousRunId])).toEqual([
      ["webhook", 1, previous],
      ["slack", 1, previous],
    ]);
    expect(received).toHaveLength(2);

    // the site's visibility alerts over the API, in both forms: the change and each delivery, no secret
    const listed = await call("GET", `/api/v1/sites/${siteId}/visibility/alerts`);
    expect(listed.status).toBe(200);
    const items = (listed.body as Json).data as Json[];
    expect(
      items.map((item) => [item.run_id, item.previous_run_id, item.delivery.channel, item.delivery.state]),
    ).toEqual(
      expect.arrayContaining([
        [runId, previous, "webhook", "delivered"],
        [runId, previous, "slack", "delivered"],
      ]),
    );
    expect(items).toHaveLength(2);
    expect(items[0]?.changes).toEqual(body.changes);
    const slackView = items.find((item) => item.delivery.channel === "slack");
    expect(slackView?.delivery.to).not.toContain("secret");
    expect(JSON.stringify(listed.body)).not.toContain("/slack/T000/B000/secret");
    const formB = await api(stack.gateway.url, `/api/v1/sites/${siteId}/visibility/alerts?limit=1`, {
      headers: { "x-api-key": owner.key, "x-response-form": "B" },
    });
    expect(formB.status).toBe(200);
    expect(formB.body).toMatchObject({
      success: true,
      data: [{ run_id: runId }],
      meta: { page: 1, limit: 1, total: 2, hasMore: true },
    });
    const stranger = await createAccount(stack.db, "pro");
    const hidden = await api(stack.gateway.url, `/api/v1/sites/${siteId}/visibility/alerts`, {
      headers: { "x-api-key": stranger.key },
    });
    expect(hidden.status).toBe(404);
  }, 120_000);

  it("sends nothing when the mention rate moves from 5/12 to 7/12: noise by the test", async () => {
    const siteId = await setUpSite("https://noise.acme.com");
    const previous = await plantRun(siteId, 12, 5, new Date(Date.now() - 3600_000));
    // 11 answers stored, 6 of them naming Acme; the worker asks the 12th, whose answer names it: 7/12
    const runId = await plantRun(siteId, 11, 6, new Date(Date.now() - 60_000));
    const last = await stack.db.visibilitySample.findFirstOrThrow({ where: { runId, status: "queued" } });
    const job = visibilitySampleJob({ runId, sampleId: last.id });
    await queue.add(job.name, job.data, job.opts);
    await ended(runId);

    const samples = await stack.db.visibilitySample.findMany({ where: { runId } });
    expect(samples.filter((s) => s.brandMentioned)).toHaveLength(7);
    const read = await call("GET", `/api/v1/visibility/runs/${runId}`);
    const versus = (read.body as Json).data.measures.versus_previous;
    expect(versus.run_id).toBe(previous);
    expect(versus.engines[0].mention).toMatchObject({
      changed: false,
      previous: { successes: 5, n: 12 },
      current: { successes: 7, n: 12 },
    });
    expect(versus.engines[0].mention.p_value).toBeGreaterThan(0.05);
    expect(versus.engines[0].citation.changed).toBe(false);

    // the delivery queue is drained as for the first site; no row and no request for this run
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await stack.db.visibilityAlert.count({ where: { runId } })).toBe(0);
    expect(received.filter((r) => r.raw.includes(runId))).toHaveLength(0);
  }, 120_000);
});
