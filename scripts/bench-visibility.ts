/**
 * The visibility benchmark: `pnpm bench:visibility [--prompts 100] [--samples 3] [--workers 2]
 * [--worker-concurrency 10] [--visibility-concurrency 8] [--engine-concurrency 2] [--idle-probes 30] [--probe-every-ms 2000]
 * [--median-ms 7000] [--seed 20261127] [--give-way-ms 2000] [--out docs/reports/bench-visibility.json]`
 * (docs/faults-and-benchmark.md, Visibility benchmark).
 *
 * Serves the four local engine servers (tests/support/engine-servers.ts: the OpenAI Responses,
 * Anthropic Messages, Perplexity Sonar and Gemini wire formats) with each answer held back 2 to
 * 20 s, drawn from a log-normal spread with a fixed seed, and a page on 127.0.0.1; runs the gateway
 * and the workers as processes of their own on a database and queue prefix of their own; starts
 * one run of prompts × 4 engines × samples through the API and measures:
 * - the run's wall time (created to completed), and answers a minute per worker process, with a
 *   95 % interval over the run's whole minutes;
 * - interactive quick scans (POST /api/v1/scan, waiting) against the local page while the run is
 *   under way, against the same scans with the queue idle before the run and again after it (the
 *   machine's load may change meanwhile): p50 and p95 (target ≤ 1.5×), and the scans during the
 *   run by minute of the run, with the load at that minute;
 * - the machine's load (`uptime`) before, during and after;
 * - how long the samples' steps gave way to the scans (the workers' `visibility_give_way_seconds`,
 *   by step and outcome), with `--give-way-ms` their bound (`VISIBILITY_GIVE_WAY_MS`; 0: off).
 * Checks that every sample was answered and stored once and that the run's spend is the sum of
 * its samples'. Prints the results and writes them as JSON.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "@scan/db";
import { percentile } from "../tests/support/corpus";
import { engineServersEnv, startEngineServers } from "../tests/support/engine-servers";
import { startFixtureServer } from "../tests/support/fixture-server";
import { type ApiStack, benchEnv, startApiStack } from "./bench/api-stack";
import { createBenchDatabase, dropQueue, ROOT } from "./bench/stack";

const { values: args } = parseArgs({
  options: {
    prompts: { type: "string", default: "100" },
    samples: { type: "string", default: "3" },
    workers: { type: "string", default: "2" },
    "worker-concurrency": { type: "string", default: "10" },
    "visibility-concurrency": { type: "string", default: "8" },
    "engine-concurrency": { type: "string", default: "2" },
    "idle-probes": { type: "string", default: "30" },
    "probe-every-ms": { type: "string", default: "2000" },
    "min-ms": { type: "string", default: "2000" },
    "median-ms": { type: "string", default: "7000" },
    "max-ms": { type: "string", default: "20000" },
    seed: { type: "string", default: "20261127" },
    "give-way-ms": { type: "string", default: "2000" },
    out: { type: "string", default: "docs/reports/bench-visibility.json" },
  },
});

const say = (message: string) => process.stderr.write(`[bench:visibility] ${message}\n`);
const databaseBase = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field as the tests read them
type Json = Record<string, any>;

const ENGINES = ["chatgpt", "claude", "perplexity", "gemini"] as const;
/** what a searching shopper might ask: 20 subjects × 5 phrasings, so every prompt is its own */
const SUBJECTS = [
  "project tracker",
  "time tracking tool",
  "invoicing app",
  "CRM",
  "help desk",
  "password manager",
  "note-taking app",
  "team chat",
  "video meeting tool",
  "form builder",
  "email marketing service",
  "website builder",
  "analytics tool",
  "scheduling app",
  "bookkeeping software",
  "HR platform",
  "file sharing service",
  "kanban board",
  "roadmap tool",
  "status page service",
];
const PHRASINGS = [
  (s: string) => `Which ${s} suits a small team?`,
  (s: string) => `What is the cheapest ${s} for a startup?`,
  (s: string) => `Best ${s} for an agency with many clients`,
  (s: string) => `Which ${s} do enterprises trust most?`,
  (s: string) => `Alternatives to the most popular ${s}`,
];
const promptTexts = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length] as string;
    const phrasing = PHRASINGS[Math.floor(i / SUBJECTS.length) % PHRASINGS.length] as (s: string) => string;
    const round = Math.floor(i / (SUBJECTS.length * PHRASINGS.length));
    return round === 0 ? phrasing(subject) : `${phrasing(subject)} (${round + 1})`;
  });

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme project tracker</title>
<meta name="description" content="Acme tracks projects for small teams."></head>
<body><main><h1>Acme</h1><p>${"Acme keeps small teams on track. ".repeat(40)}</p></main></body></html>`;

const latencies = (values: number[]) => ({
  n: values.length,
  p50: Math.round(percentile(values, 50)),
  p95: Math.round(percentile(values, 95)),
  max: Math.round(Math.max(...values)),
});

/** The mean of per-minute counts with a 95 % interval (Student's t, two-sided). */
const meanWithInterval = (counts: number[]) => {
  const n = counts.length;
  const mean = counts.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN, minutes: n };
  const sd = Math.sqrt(counts.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1));
  // t quantiles for 1..30 degrees of freedom, then the normal's
  const T = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11];
  const t = T[n - 2] ?? (n <= 31 ? 2.08 : 1.96);
  const half = (t * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half, minutes: n };
};

const main = async () => {
  const prompts = Number(args.prompts);
  const perPrompt = Number(args.samples);
  const workerCount = Number(args.workers);
  const latency = {
    minMs: Number(args["min-ms"]),
    medianMs: Number(args["median-ms"]),
    maxMs: Number(args["max-ms"]),
    seed: Number(args.seed),
  };
  const servers = await startEngineServers({ latency });
  const site = await startFixtureServer({
    "/page": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
  });
  const database = await createBenchDatabase(databaseBase);
  const db = createDb(database.url);
  const prefix = `bench-visibility-${Date.now().toString(36)}`;
  const env = benchEnv(database.url, redisUrl, prefix, {
    SCAN_ALLOWLIST: `${site.hostPort},acme.com`,
    WORKER_CONCURRENCY: String(args["worker-concurrency"]),
    VISIBILITY_WORKER_CONCURRENCY: String(args["visibility-concurrency"]),
    VISIBILITY_ENGINE_CONCURRENCY: String(args["engine-concurrency"]),
    VISIBILITY_GIVE_WAY_MS: String(args["give-way-ms"]),
    // no cap in the way: what a run costs is checked below, not limited
    VISIBILITY_BUDGET_USD_AGENCY: "1000000",
    ...engineServersEnv(servers),
  });
  const results: Json = {
    startedAt: new Date().toISOString(),
    options: { ...args, latency },
    machine: { cpus: cpus().length, node: process.version, uptimeBefore: uptime() },
  };
  let stack: ApiStack | null = null;
  try {
    stack = await startApiStack(db, env, workerCount);
    const { call } = stack;
    const expectStatus = (answer: { status: number; body: Json }, status: number, what: string) => {
      if (answer.status !== status)
        throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return answer.body;
    };

    const siteId = expectStatus(await call("/api/v1/sites", { url: "https://acme.com", name: "Acme" }), 201, "site")
      .data.id as string;
    expectStatus(
      await call(
        `/api/v1/sites/${siteId}/visibility`,
        { brand_names: ["Acme"], brand_domains: ["acme.com"], samples_per_prompt: perPrompt, engines: ENGINES },
        "PUT",
      ),
      200,
      "profile",
    );
    for (const text of promptTexts(prompts))
      expectStatus(await call(`/api/v1/sites/${siteId}/prompts`, { text }), 201, "prompt");
    expectStatus(await call(`/api/v1/sites/${siteId}/competitors`, { name: "Globex" }), 201, "competitor");

    let probeNumber = 0;
    const probe = async () => {
      probeNumber += 1;
      const started = performance.now();
      const answer = await call("/api/v1/scan", { url: site.url(`/page?probe=${probeNumber}`), mode: "quick" });
      const ms = performance.now() - started;
      if (answer.status !== 200 || answer.body.data?.status !== "completed")
        throw new Error(`probe scan: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return ms;
    };
    // a worker's first scans pay for its warm-up: not part of either measurement
    for (let i = 0; i < 3 * workerCount; i++) await probe();
    say(`${args["idle-probes"]} interactive quick scans, queue idle`);
    const idleProbes = async () => {
      const times: number[] = [];
      for (let i = 0; i < Number(args["idle-probes"]); i++) {
        times.push(await probe());
        await wait(200);
      }
      return times;
    };
    const idle = await idleProbes();
    results.machine.uptimeIdle = uptime();

    say(`a run of ${prompts} prompts × ${ENGINES.length} engines × ${perPrompt} samples; ${uptime()}`);
    // a busy machine may answer 503 with Retry-After, as any client may meet: it waits and asks again
    let runId = "";
    for (let attempt = 1; !runId; attempt++) {
      const answer = await call(`/api/v1/sites/${siteId}/visibility/runs`, {});
      if (answer.status === 202) runId = answer.body.data.id as string;
      else if (answer.status === 409) {
        // the run was stored before the answer was lost
        runId = expectStatus(await call(`/api/v1/sites/${siteId}/visibility/runs`), 200, "runs").data[0].id as string;
      } else if (answer.status === 503 && attempt < 5) {
        say(`  run refused (503, ${answer.body.error?.message}); asking again`);
        await wait(5_000);
      } else expectStatus(answer, 202, "run");
    }
    let ended = false;
    const runStarted = performance.now();
    const during: number[] = [];
    /** minute of the run each scan during it was sent in */
    const duringMinute: number[] = [];
    const loads: Array<{ at: string; uptime: string }> = [];
    const probing = (async () => {
      while (!ended) {
        const minute = Math.floor((performance.now() - runStarted) / 60_000);
        const ms = await probe();
        if (!ended) {
          during.push(ms);
          duringMinute.push(minute);
        }
        await wait(Number(args["probe-every-ms"]));
      }
    })();
    let lastSay = 0;
    for (;;) {
      await wait(2_000);
      const row = await db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
      if (Date.now() - lastSay > 60_000) {
        lastSay = Date.now();
        loads.push({ at: new Date().toISOString(), uptime: uptime() });
        say(
          `  ${row.done + row.failed} of ${row.planned} ended; ${during.length} probes, p95 so far ${Math.round(percentile(during, 95))} ms`,
        );
      }
      if (row.status !== "queued" && row.status !== "running") break;
    }
    ended = true;
    await probing;
    say(`${args["idle-probes"]} interactive quick scans, queue idle again`);
    const idleAfter = await idleProbes();

    const stored = await db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    const samples = await db.visibilitySample.findMany({
      where: { runId },
      select: { status: true, attempts: true, costUsd: true, reservedUsd: true, finishedAt: true, engine: true },
    });
    const tracks = await db.citationTrack.count({ where: { sample: { runId } } });
    const requests = [servers.openai, servers.anthropic, servers.perplexity, servers.gemini].flatMap((s) => s.requests);
    const wallMs = (stored.completedAt ?? new Date()).getTime() - stored.createdAt.getTime();
    const answered = samples.filter((s) => s.status === "completed").length;
    // answers a minute over the run's whole minutes, from each sample's stored time
    const start = stored.createdAt.getTime();
    const minutes = Math.floor(wallMs / 60_000);
    const perMinute = Array.from({ length: minutes }, () => 0);
    for (const sample of samples) {
      if (!sample.finishedAt || sample.status !== "completed") continue;
      const minute = Math.floor((sample.finishedAt.getTime() - start) / 60_000);
      if (minute < minutes) perMinute[minute] = (perMinute[minute] ?? 0) + 1;
    }
    const rate = meanWithInterval(perMinute.map((count) => count / workerCount));
    const sum = samples.reduce((total, s) => total + s.costUsd, 0);
    const engineSeconds = requests.reduce((total, r) => total + (r.delayMs ?? 0), 0) / 1000;
    results.run = {
      id: runId,
      status: stored.status,
      planned: stored.planned,
      done: stored.done,
      failed: stored.failed,
      answered,
      citationTracks: tracks,
      engineRequests: requests.length,
      attempts: samples.reduce((total, s) => total + s.attempts, 0),
      costUsd: stored.costUsd,
      costOfSamplesUsd: sum,
      reservedLeftUsd: samples.reduce((total, s) => total + s.reservedUsd, 0),
      wallMs,
      answersPerMinute: Math.round((answered / wallMs) * 60_000 * 10) / 10,
      answersPerMinutePerWorker: Math.round((answered / wallMs / workerCount) * 60_000 * 10) / 10,
      perWorkerPerMinuteInterval95: {
        mean: Math.round(rate.mean * 10) / 10,
        low: Math.round(rate.low * 10) / 10,
        high: Math.round(rate.high * 10) / 10,
        minutes: rate.minutes,
      },
      engineLatencyS: {
        mean: Math.round((engineSeconds / Math.max(1, requests.length)) * 10) / 10,
        p50:
          Math.round(
            percentile(
              requests.map((r) => r.delayMs ?? 0),
              50,
            ) / 100,
          ) / 10,
        p95:
          Math.round(
            percentile(
              requests.map((r) => r.delayMs ?? 0),
              95,
            ) / 100,
          ) / 10,
      },
      // answer-seconds the engines spent over the wall time: how many were being asked at once on average
      meanInFlight: Math.round((engineSeconds / (wallMs / 1000)) * 10) / 10,
    };
    const ratio = (a: number[], b: number[]) => Math.round((percentile(a, 95) / percentile(b, 95)) * 100) / 100;
    const minutesProbed = Math.max(0, ...duringMinute) + 1;
    results.interactive = {
      idle: latencies(idle),
      duringRun: latencies(during),
      idleAfter: latencies(idleAfter),
      ratioP95: ratio(during, idle),
      ratioP95VsIdleAfter: ratio(during, idleAfter),
      // the load as `uptime` said it at the minute's start (it is read once a minute)
      byMinute: Array.from({ length: minutesProbed }, (_, minute) => minute)
        .filter((minute) => duringMinute.includes(minute))
        .map((minute) => ({
          minute: minute + 1,
          ...latencies(during.filter((_, i) => duringMinute[i] === minute)),
          load: loads[minute]?.uptime.replace(/.*load average: /, "") ?? null,
        })),
    };
    results.giveWay = await giveWayOf(stack.workers);
    results.machine.loadDuring = loads;
    results.machine.uptimeAfter = uptime();
    results.machine.loadAverageEnd = loadavg().map((x) => Math.round(x * 100) / 100);

    const problems: string[] = [];
    if (stored.status !== "completed") problems.push(`the run ended ${stored.status}`);
    if (answered !== stored.planned) problems.push(`${answered} of ${stored.planned} samples answered`);
    if (tracks !== answered) problems.push(`${tracks} citation tracks for ${answered} answers`);
    if (Math.abs(stored.costUsd - sum) > 1e-9) problems.push(`run cost ${stored.costUsd} ≠ samples' ${sum}`);
    results.problems = problems;
    const out = resolve(ROOT, args.out ?? "docs/reports/bench-visibility.json");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    // whatever happened, nothing the bench started outlives it
    await stack?.stop();
    await db.$disconnect();
    await dropQueue(redisUrl, prefix);
    await database.drop();
    await site.close();
    await servers.close();
  }
  if ((results.problems as string[]).length > 0) {
    say(`problems: ${(results.problems as string[]).join("; ")}`);
    process.exitCode = 1;
  }
};

/**
 * The workers' visibility_give_way_seconds added up, by step and outcome: how many steps waited
 * for scans and how long in all (each worker's metrics port, as its "worker started" line names it).
 */
const giveWayOf = async (workers: ApiStack["workers"]) => {
  const totals: Record<string, { steps: number; seconds: number }> = {};
  for (const worker of workers) {
    const started = await worker.waitForLog((record: { msg?: unknown }) => record.msg === "worker started", 5_000);
    const text = await (await fetch(`${started.ops as string}/metrics`)).text();
    for (const line of text.split("\n")) {
      const match = /^visibility_give_way_seconds_(sum|count)\{step="(\w+)",outcome="(\w+)"\} (\S+)$/.exec(line);
      if (!match) continue;
      const [, kind, step, outcome, value] = match;
      const label = `${step}/${outcome}`;
      const entry = totals[label] ?? { steps: 0, seconds: 0 };
      totals[label] = entry;
      if (kind === "count") entry.steps += Number(value);
      else entry.seconds = Math.round((entry.seconds + Number(value)) * 1000) / 1000;
    }
  }
  return totals;
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
