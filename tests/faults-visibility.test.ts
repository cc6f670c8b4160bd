import { visibilityRuns } from "@scan/records";
import { createAccount } from "./support/accounts";
import { type EngineServers, engineServersEnv, startEngineServers } from "./support/engine-servers";
import {
  eventually,
  type RedisServer,
  startRedisServer,
  startWorkerProcess,
  type WorkerProcess,
} from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A worker is killed and Redis restarts empty in the middle of a visibility run. Two worker
 * processes ask the engines; one is killed (SIGKILL) with samples claimed and being asked, then
 * Redis goes down 8 s and comes back with no keys (no persistence), so every queued, delayed and
 * active sample job is gone, not only the waiting ones, and a fresh worker process starts. The rows
 * in Postgres are the truth: the visibility sweep queues the open samples of the run's window on
 * the queue again from their rows (the killed worker's claimed ones once their time-out has
 * passed), with the worker's default sweep settings; each sample that ends queues the next, and
 * the run completes with each sample stored once and its spend counted once.
 */

type Json = Record<string, any>;

const ENGINES = ["chatgpt", "claude", "perplexity", "gemini"] as const;
const PROMPTS = 20;
const PER_PROMPT = 3;
const PLANNED = PROMPTS * ENGINES.length * PER_PROMPT;

describe("a worker killed and Redis restarted empty in the middle of a visibility run", () => {
  let servers: EngineServers;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;
  let engineEnv: Record<string, string>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // answers take 0.3 to 2.5 s, as engines with web search do (shorter, so the test stays short)
    servers = await startEngineServers({ latency: { minMs: 300, medianMs: 800, maxMs: 2_500, seed: 7 } });
    database = await createTestDatabase();
    redis = await startRedisServer();
    engineEnv = engineServersEnv(servers);
    // the gateway here; the workers are processes of their own, so one can be killed
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      allowlist: ["acme.com"],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000", ...engineEnv },
    });
  }, 300_000);

  afterAll(async () => {
    for (const worker of workers) worker.process.kill("SIGKILL");
    await stack?.close();
    await redis?.kill();
    await servers?.close();
    await database?.drop();
    await stopContainers();
  });

  it(`completes a ${PLANNED}-sample run: every sample stored once, its spend counted once`, async () => {
    const workerEnv = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: stack.prefix,
      SCAN_ALLOWLIST: "acme.com",
      LOG_LEVEL: "info",
      VISIBILITY_ENGINE_CONCURRENCY: "2",
      // the sweep's defaults (REAPER_INTERVAL_MS, ORPHAN_AFTER_MS) are what is under test; an
      // answer here takes at most 2.5 s, so the killed worker's claimed samples are given 20 s
      // (and the sweep's grace) before they are asked again, not the default 2 minutes
      VISIBILITY_TIMEOUT_MS: "20000",
      ...engineEnv,
    };
    workers.push(await startWorkerProcess(workerEnv), await startWorkerProcess(workerEnv));
    const owner = await createAccount(stack.db, "agency");
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await api(stack.gateway.url, path, {
        method,
        headers: { "x-api-key": owner.key },
        ...(body === undefined ? {} : { body }),
      });
      return { status: answer.status, body: answer.body as Json };
    };
    const site = await call("POST", "/api/v1/sites", { url: "https://acme.com", name: "Acme" });
    expect(site.status).toBe(201);
    const siteId = site.body.data.id as string;
    const profile = await call("PUT", `/api/v1/sites/${siteId}/visibility`, {
      brand_names: ["Acme"],
      brand_domains: ["acme.com"],
      samples_per_prompt: PER_PROMPT,
      engines: ENGINES,
    });
    expect(profile.status).toBe(200);
    for (let i = 0; i < PROMPTS; i++) {
      const prompt = await call("POST", `/api/v1/sites/${siteId}/prompts`, { text: `Which tracker suits team ${i}?` });
      expect(prompt.status).toBe(201);
    }
    const started = await call("POST", `/api/v1/sites/${siteId}/visibility/runs`, {});
    expect(started.status).toBe(202);
    const runId = started.body.data.id as string;
    const count = (status: "completed" | "queued" | "running") =>
      stack.db.visibilitySample.count({ where: { runId, status } });

    await eventually(async () => (await count("completed")) >= 12, 120_000, "a first dozen answers");
    const atKill = { completed: await count("completed"), running: await count("running") };
    // the killed worker leaves its claimed samples running and its jobs active
    workers[0]?.process.kill("SIGKILL");
    expect(atKill.running).toBeGreaterThan(0);
    await eventually(
      async () => (await count("completed")) >= atKill.completed + 12,
      120_000,
      "answers on the other worker",
    );
    await redis.kill();
    await new Promise((done) => setTimeout(done, 8_000));
    await redis.start();
    const backAt = Date.now();
    workers.push(await startWorkerProcess(workerEnv));
    // most of the run still to come when the faults came
    expect(PLANNED - atKill.completed - atKill.running).toBeGreaterThan(200);

    await eventually(
      async () => {
        const run = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
        return run.status === "completed";
      },
      // about a minute on an idle machine; a loaded one is given more
      360_000,
      "the run to complete",
    );
    const recoveredMs = Date.now() - backAt;

    const run = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "completed", planned: PLANNED, done: PLANNED, failed: 0 });
    const samples = await stack.db.visibilitySample.findMany({ where: { runId } });
    expect(samples).toHaveLength(PLANNED);
    for (const sample of samples) {
      expect(sample).toMatchObject({ status: "completed", reservedUsd: 0 });
      expect(sample.answerText).toBeTruthy();
    }
    // stored once: one citation track per sample, and no sample twice
    const tracks = await stack.db.citationTrack.findMany({ where: { sampleId: { in: samples.map((s) => s.id) } } });
    expect(tracks).toHaveLength(PLANNED);
    expect(new Set(tracks.map((t) => t.sampleId)).size).toBe(PLANNED);
    // spend counted once: each engine's answer costs the same every time, and the run's and the
    // workspace's month spend are the sum of one answer per sample, nothing reserved left over
    for (const engine of ENGINES) {
      const costs = new Set(samples.filter((s) => s.engine === engine).map((s) => s.costUsd));
      expect([engine, costs.size]).toEqual([engine, 1]);
    }
    const sum = samples.reduce((total, s) => total + s.costUsd, 0);
    expect(sum).toBeGreaterThan(0);
    expect(run.costUsd).toBeCloseTo(sum, 9);
    const since = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    expect(await visibilityRuns.spentSince(stack.db, run.workspaceId, since)).toBeCloseTo(sum, 9);
    // what the API says
    const read = await call("GET", `/api/v1/visibility/runs/${runId}`);
    expect(read.body.data).toMatchObject({ status: "completed", progress: { planned: PLANNED, done: PLANNED } });
    expect(read.body.data.cost_usd).toBeCloseTo(sum, 6);

    // the killed worker held claims (its eight engine slots were busy with 128 samples queued):
    // those samples were claimed again after it died, and still stored once (above)
    expect(samples.filter((s) => s.attempts > 1).length).toBeGreaterThan(0);

    const asked = [servers.openai, servers.anthropic, servers.perplexity, servers.gemini].reduce(
      (total, server) => total + server.requests.length,
      0,
    );
    process.stdout.write(
      `worker killed and Redis restarted mid-run: ${JSON.stringify(atKill)} at the kill; all ${PLANNED} stored ${recoveredMs} ms after Redis was back; engines asked ${asked} times\n`,
    );
  }, 480_000);
});
