/**
 * The benchmark: `pnpm bench [options]` (docs/faults-and-benchmark.md). Serves the shared corpus's pages (../shared/corpus/pages) on
 * 127.0.0.1, starts the gateway and the workers as separate processes on a database and queue
 * prefix of their own, and measures, in one run:
 * - POST /api/v1/scan end to end per mode, against a bare Playwright render of the same pages,
 *   also per corpus page with the full scan's worker phases;
 * - Lighthouse's SEO-only run against a full scan on the five heaviest pages (`--lighthouse
 *   <folder>` where lighthouse@12.8 is installed, default ../lh12 beside the repository; skipped,
 *   saying so, when it is not there);
 * - the gateway on a cheap endpoint, and POST /api/v1/aeo-2/evaluate against bare express;
 * - quick scans a minute with one worker process;
 * - a soak on a fresh worker with a share of hanging targets: RSS at scan 200 and at the end,
 *   Chromium processes and zombies left;
 * - hostile targets (never answering, trickling, 10 MB, endless redirects and scripts) on a
 *   worker with a short SCAN_TIMEOUT_MS: the time to each verdict against its budget.
 * Writes docs/reports/bench.json and docs/reports/bench.md and prints the table with the targets.
 * `pnpm bench --startup` measures only the start time and memory of the compiled services
 * against tsx (scripts/bench/startup.ts), into docs/reports/startup.json and startup.md.
 * `pnpm bench --lists` measures only the list endpoints on a seeded account (scripts/bench/lists.ts),
 * into docs/reports/bench-lists.json (or `--out`); `--against <checkout>` times another checkout's
 * gateway (holding a copy of scripts/bench/lists.ts) request by request beside this one's.
 * Needs DATABASE_URL and REDIS_URL, or PostgreSQL and Redis on their standard local ports.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "@scan/db";
import { createKeyService, createUserService, personalKeyOwner } from "@scan/gateway";
import { resolveChromiumPath } from "@scan/scanner";
import { corpusDir, corpusPages, serveCorpus } from "../tests/support/corpus";
import { hang, html, startFixtureServer } from "../tests/support/fixture-server";
import { hostileTargets } from "../tests/support/hostile-targets";
import { bareRender } from "./bench/baselines";
import { measureHostile } from "./bench/hostile";
import { benchLists, LIST_DEFAULTS, type ListsRun, renderLists } from "./bench/lists";
import { driveScans } from "./bench/load";
import { gatewayOverhead, modeResult } from "./bench/measure";
import { compareLighthouse, findLighthouse, heaviestPages, perPageRows } from "./bench/per-page";
import { measureEndpoints, soak, statusCounts } from "./bench/phases";
import { trackChromium, watchTrees } from "./bench/procfs";
import { type BenchResult, latency, renderTable, targetsOf } from "./bench/report";
import {
  createBenchDatabase,
  dropQueue,
  findReaper,
  ROOT,
  type Service,
  startGatewayProcess,
  startWorkerProcess,
} from "./bench/stack";
import { measureStartup, renderStartup } from "./bench/startup";

const { values: args } = parseArgs({
  options: {
    modes: { type: "string", default: "quick,full" },
    "quick-only": { type: "boolean", default: false },
    rounds: { type: "string", default: "2" },
    pages: { type: "string" },
    workers: { type: "string", default: "2" },
    "worker-concurrency": { type: "string", default: "1" },
    "renders-at-once": { type: "string", default: "0" },
    connections: { type: "string" },
    throughput: { type: "string", default: "150" },
    overhead: { type: "string", default: "100" },
    soak: { type: "string", default: "1000" },
    "hang-rate": { type: "string", default: "0.05" },
    "soak-timeout-ms": { type: "string", default: "5000" },
    hostile: { type: "string", default: "3" },
    "hostile-timeout-ms": { type: "string", default: "4000" },
    "endpoint-seconds": { type: "string", default: "10" },
    "endpoint-connections": { type: "string", default: "10" },
    "cpu-prof": { type: "boolean", default: false },
    "no-reaper": { type: "boolean", default: false },
    startup: { type: "boolean", default: false },
    "startup-runs": { type: "string", default: "5" },
    "startup-settle-ms": { type: "string", default: "2000" },
    lighthouse: { type: "string" },
    "lighthouse-pages": { type: "string", default: "5" },
    before: { type: "string" },
    lists: { type: "boolean", default: false },
    "list-sites": { type: "string", default: String(LIST_DEFAULTS.sites) },
    "list-scans": { type: "string", default: String(LIST_DEFAULTS.scans) },
    "list-requests": { type: "string", default: String(LIST_DEFAULTS.requests) },
    against: { type: "string" },
    out: { type: "string" },
  },
});

const int = (name: keyof typeof args): number => {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
};

const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** `--startup`: the compiled services against tsx, start time and memory, on a database of their own. */
const startupOnly = async () => {
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const queuePrefix = `bench-${randomBytes(4).toString("hex")}`;
  const database = await createBenchDatabase(baseUrl);
  try {
    const result = await measureStartup({
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: queuePrefix,
        RATE_LIMIT_PREFIX: `${queuePrefix}:ratelimit`,
        LOG_LEVEL: "info",
        ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
      },
      runs: Math.max(1, int("startup-runs")),
      settleMs: int("startup-settle-ms"),
      say,
    });
    const machine = { cpus: cpus().length, loadAverage: loadavg(), node: process.version };
    const table = renderStartup(result, machine);
    mkdirSync(join(ROOT, "docs/reports"), { recursive: true });
    writeFileSync(join(ROOT, "docs/reports/startup.json"), `${JSON.stringify({ ...result, machine }, null, 2)}\n`);
    writeFileSync(join(ROOT, "docs/reports/startup.md"), table);
    process.stdout.write(table);
  } finally {
    await dropQueue(redisUrl, queuePrefix);
    await database.drop();
  }
};

/** `--lists`: the list endpoints on a seeded account, one request at a time; `--against <dir>` times another checkout's beside them. */
const listsOnly = async () => {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
  const options = {
    ...LIST_DEFAULTS,
    sites: int("list-sites"),
    scans: int("list-scans"),
    requests: Math.max(1, int("list-requests")),
  };
  const result = await benchLists(options, commit || null, args.against ? resolve(args.against) : undefined);
  const before =
    result.before ??
    (args.before ? (JSON.parse(readFileSync(args.before, "utf8")) as { run: ListsRun }).run : undefined);
  const out = resolve(args.out ?? join(ROOT, "docs/reports/bench-lists.json"));
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(renderLists(result.run, before));
  say(`written to ${out}`);
};

const main = async () => {
  if (args.startup) return startupOnly();
  if (args.lists) return listsOnly();
  const modes = (args["quick-only"] ? ["quick"] : (args.modes ?? "").split(",").filter(Boolean)) as Array<
    "quick" | "full"
  >;
  const rounds = int("rounds");
  const workers = Math.max(1, int("workers"));
  const workerConcurrency = Math.max(1, int("worker-concurrency"));
  const connections = args.connections ? int("connections") : workers * workerConcurrency;
  const soakScans = int("soak");
  const hangRate = Number(args["hang-rate"]);
  const endpointSeconds = int("endpoint-seconds");
  const endpointConnections = int("endpoint-connections");
  const cpuProfDir = args["cpu-prof"] ? join(ROOT, "docs/reports/profiles") : undefined;
  const pages = args.pages ? args.pages.split(",") : corpusPages();

  const result: BenchResult = {
    startedAt: new Date().toISOString(),
    options: { ...args, workers, workerConcurrency, connections, rounds, modes },
    machine: { cpus: cpus().length, loadAverageStart: loadavg(), loadAverageEnd: [], node: process.version },
    pages: pages.length,
    modes: [],
    targets: [],
  };

  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const run = randomBytes(4).toString("hex");
  const runMarker = `SCAN_BENCH_RUN=${run}`;
  const queuePrefix = `bench-${run}`;
  const database = await createBenchDatabase(baseUrl);
  const hostile = hostileTargets();
  const site = await startFixtureServer(
    {
      ...hostile.routes,
      "/bench-hang/document/": hang,
      // a client-rendered shell whose script never arrives: the render itself hangs
      "/bench-hang/render/": html(
        '<!doctype html><title>App</title><div id="root"></div><script src="/bench-hang/app.js"></script>',
      ),
      "/bench-hang/app.js": hang,
    },
    (req, res) => (req.url?.startsWith("/redirect/") ? hostile.fallback(req, res) : serveCorpus(req, res)),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    SCAN_ALLOWLIST: site.hostPort,
    LOG_LEVEL: "info",
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  };
  const gatewayEnv = {
    ...env,
    RATE_LIMIT_PREFIX: `${queuePrefix}:ratelimit`,
    // the benchmark is one client address and one key sending thousands of requests
    RATE_LIMIT_ANONYMOUS: "1000000000",
    RATE_LIMIT_AGENCY: "1000000000",
  };
  const workerEnv = (extra: NodeJS.ProcessEnv = {}) => ({
    ...env,
    WORKER_CONCURRENCY: String(workerConcurrency),
    // captures at once per worker (SCAN_RENDERS_AT_ONCE): with --worker-concurrency above it, checks overlap renders
    SCAN_RENDERS_AT_ONCE: String(int("renders-at-once")),
    // several workers on one machine: each takes a free port for its metrics
    METRICS_PORT: "0",
    METRICS_HOST: "127.0.0.1",
    // Chromium's main process and crash handlers inherit it: found however they are reparented
    [runMarker.split("=")[0] as string]: run,
    ...extra,
  });
  const services: Service[] = [];
  const reaper = args["no-reaper"] ? null : findReaper();
  result.machine.reaper = reaper;
  if (!reaper) say("workers run without tini: nothing reaps what Chromium orphans but the machine's init");
  const workerOptions = { cpuProfDir, ...(reaper ? { reaper } : {}) };
  const liveWorkers = () => services.filter((s) => s.name.startsWith("worker") && !s.exited).map((s) => s.pid);
  const chromium = trackChromium(liveWorkers, runMarker);
  const db = createDb(database.url, { poolSize: 2 });
  try {
    const gateway = await startGatewayProcess(gatewayEnv, { cpuProfDir });
    services.push(gateway.service);
    let pool: Service[] = [];
    for (let i = 0; i < workers; i++) {
      const worker = await startWorkerProcess(`worker-${i + 1}`, workerEnv(), workerOptions);
      // stopped at the end whatever happens to the next one
      services.push(worker);
      pool.push(worker);
    }
    say(`gateway ${gateway.url} (pid ${gateway.service.pid}), workers ${pool.map((w) => w.nodePid).join(", ")}`);
    const user = await createUserService(db).create(`bench-${run}@example.com`, "agency");
    const { key } = await createKeyService({ db, maxKeysPerUser: 10 }).create(await personalKeyOwner(db, user), {});
    const keyed = { "x-api-key": key };

    if (endpointSeconds > 0) {
      say("endpoints: /healthz, a 404 with a key, evaluate against bare express");
      result.endpoints = await measureEndpoints(
        { url: gateway.url, pid: gateway.service.nodePid },
        keyed,
        endpointConnections,
        endpointSeconds,
      );
    }

    const urls = Array.from({ length: rounds }, () => pages.map((page) => site.url(`/${page}/`))).flat();
    if (modes.length > 0 && urls.length > 0) {
      say(`bare Playwright render: ${urls.length} renders, ${connections} at a time`);
      const bare = await bareRender({
        executablePath: resolveChromiumPath(env.CHROMIUM_PATH),
        urls,
        concurrency: connections,
      });
      result.bareRender = { ...bare, latencyMs: latency(bare.ms), concurrency: connections };
    }

    for (const mode of modes) {
      if (urls.length === 0) break;
      say(`${mode}: ${urls.length} scans, ${connections} connections, ${pool.length} workers`);
      // each worker's first scans of a mode warm its code paths
      await driveScans({
        gatewayUrl: gateway.url,
        headers: {},
        targets: urls.slice(0, pool.length * 2),
        mode,
        connections,
      });
      const watch = watchTrees(pool);
      const scans = await driveScans({ gatewayUrl: gateway.url, headers: {}, targets: urls, mode, connections });
      const usage = watch.stop();
      result.modes.push(modeResult(mode, scans.results, scans.wallMs, usage, pool, connections));
    }

    const pagesDir = join(corpusDir(), "pages");
    if (result.modes.length > 0) result.perPage = perPageRows(pagesDir, pages, result.bareRender, result.modes);
    if (result.perPage && result.modes.some((m) => m.mode === "full")) {
      const found = findLighthouse(args.lighthouse ?? resolve(ROOT, "../lh12"));
      if ("skipped" in found) {
        say(found.skipped);
        result.lighthouse = found;
      } else {
        const heavy = heaviestPages(pagesDir, pages, int("lighthouse-pages"));
        say(`Lighthouse ${found.version} SEO-only on ${heavy.join(", ")}, one at a time`);
        result.lighthouse = await compareLighthouse({
          ...found,
          chromePath: resolveChromiumPath(env.CHROMIUM_PATH),
          pages: heavy,
          urlOf: (page) => site.url(`/${page}/`),
          rows: result.perPage,
        });
      }
    }

    // what the scans just stored cost in Postgres (pg_column_size: as stored, compressed or not)
    if (result.modes.length > 0) {
      const rows = await db.$queryRaw<Array<{ mode: string; scans: bigint; checks: number; row: number }>>`
        SELECT mode::text AS mode, count(*) AS scans, avg(pg_column_size(checks))::float8 AS checks,
               avg(pg_column_size(s.*))::float8 AS row
        FROM scans s WHERE status = 'completed' AND checks IS NOT NULL GROUP BY mode ORDER BY mode`;
      result.storage = rows.map((row) => ({
        mode: row.mode,
        scans: Number(row.scans),
        checksBytes: row.checks,
        rowBytes: row.row,
      }));
    }

    const throughputScans = int("throughput");
    if (throughputScans > 0 || soakScans > 0 || int("overhead") > 0) {
      for (const worker of pool.slice(1)) await worker.stop();
      pool = pool.slice(0, 1);
    }
    if (throughputScans > 0 && pages.length > 0) {
      const targets = Array.from({ length: throughputScans }, (_, i) => site.url(`/${pages[i % pages.length]}/`));
      say(`throughput: ${targets.length} quick scans, one worker process`);
      // two connections: one scan running, the next already queued, so the worker never idles
      const scans = await driveScans({ gatewayUrl: gateway.url, headers: {}, targets, mode: "quick", connections: 2 });
      result.throughput = {
        workers: 1,
        scans: scans.results.length,
        statuses: statusCounts(scans.results),
        scansPerMinute: (scans.results.filter((r) => r.status === 200).length / scans.wallMs) * 60_000,
      };
    }

    if (int("overhead") > 0 && pages.length > 0 && pool.length > 0) {
      const targets = Array.from({ length: int("overhead") }, (_, i) => site.url(`/${pages[i % pages.length]}/`));
      say(`overhead: ${targets.length} quick scans one at a time, one worker`);
      const scans = await driveScans({ gatewayUrl: gateway.url, headers: {}, targets, mode: "quick", connections: 1 });
      const ok = scans.results.filter((r) => r.status === 200);
      result.overhead = {
        scans: scans.results.length,
        statuses: statusCounts(scans.results),
        latencyMs: latency(ok.map((r) => r.ms)),
        gatewayOverheadMs: gatewayOverhead(scans.results, pool),
      };
    }

    const hostileRounds = int("hostile");
    if (hostileRounds > 0) {
      for (const worker of pool) await worker.stop();
      pool = [];
      const scanTimeoutMs = int("hostile-timeout-ms");
      say(`hostile targets: ${hostileRounds} full scans of each, one at a time, SCAN_TIMEOUT_MS=${scanTimeoutMs}`);
      const worker = await startWorkerProcess(
        "worker-hostile",
        workerEnv({ SCAN_TIMEOUT_MS: String(scanTimeoutMs) }),
        workerOptions,
      );
      services.push(worker);
      result.hostile = await measureHostile({
        gatewayUrl: gateway.url,
        siteUrl: site.url,
        rounds: hostileRounds,
        scanTimeoutMs,
        headers: keyed,
      });
      await worker.stop();
    }

    if (soakScans > 0 && pages.length > 0) {
      for (const worker of pool) await worker.stop();
      pool = [];
      const every = hangRate > 0 ? Math.round(1 / hangRate) : Number.POSITIVE_INFINITY;
      let hangs = 0;
      const targets = Array.from({ length: soakScans }, (_, i) => {
        if ((i + 1) % every !== 0) return site.url(`/${pages[i % pages.length]}/`);
        hangs += 1;
        return site.url(hangs % 2 ? "/bench-hang/document/" : "/bench-hang/render/");
      });
      say(`soak: ${soakScans} quick scans on a fresh worker, ${hangs} hanging`);
      const scanTimeoutMs = int("soak-timeout-ms");
      result.soak = await soak({
        gatewayUrl: gateway.url,
        targets,
        hangs,
        census: chromium.census,
        scanTimeoutMs,
        startWorker: async () => {
          const env = workerEnv({ SCAN_TIMEOUT_MS: String(scanTimeoutMs) });
          const worker = await startWorkerProcess("worker-soak", env, workerOptions);
          services.push(worker);
          return worker;
        },
      });
    }
  } finally {
    chromium.stop();
    hostile.close();
    await Promise.all(services.map((service) => service.stop()));
    await db.$disconnect();
    await site.close();
    await dropQueue(redisUrl, queuePrefix);
    await database.drop();
  }

  result.machine.loadAverageEnd = loadavg();
  if (args.before) {
    const before = JSON.parse(readFileSync(args.before, "utf8")) as Partial<BenchResult>;
    result.before = { file: args.before, throughputPerMinute: before.throughput?.scansPerMinute ?? null };
  }
  result.targets = targetsOf(result);
  const table = renderTable(result);
  mkdirSync(join(ROOT, "docs/reports"), { recursive: true });
  writeFileSync(join(ROOT, "docs/reports/bench.json"), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(ROOT, "docs/reports/bench.md"), table);
  process.stdout.write(table);
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
