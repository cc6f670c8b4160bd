/**
 * The audit benchmark: `pnpm bench:audits [--pages 100] [--modes quick,full] [--workers 1,2]
 * [--big 300] [--probes 20]` (docs/audits.md, Benchmark). Serves the corpus site of the audit
 * tests (tests/support/audit-site.ts) on 127.0.0.1, runs the gateway and the workers as processes
 * of their own on a database and queue prefix of their own, and measures:
 * - audit throughput in pages a minute, per mode and number of worker processes;
 * - the audit's overhead: the pages the quick audit with one worker fetched, scanned one by one
 *   (batches of quick scans) on one worker, against that audit;
 * - interactive quick scans (POST /api/v1/scan, waiting) while a `--big`-page quick audit runs,
 *   against the same scans with the queue idle: p50 and p95.
 * Prints the results as a markdown table and writes docs/reports/bench-audits.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "@scan/db";
import { buildAuditSite } from "../tests/support/audit-site";
import { percentile } from "../tests/support/corpus";
import { type Handler, startFixtureServer } from "../tests/support/fixture-server";
import { benchEnv, startApiStack } from "./bench/api-stack";
import { createBenchDatabase, dropQueue, ROOT } from "./bench/stack";

const { values: args } = parseArgs({
  options: {
    pages: { type: "string", default: "100" },
    modes: { type: "string", default: "quick,full" },
    workers: { type: "string", default: "1,2" },
    big: { type: "string", default: "300" },
    probes: { type: "string", default: "20" },
    "skip-interactive": { type: "boolean", default: false },
  },
});

const say = (message: string) => process.stderr.write(`[bench:audits] ${message}\n`);
const databaseBase = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field as the tests read them
type Json = Record<string, any>;

const main = async () => {
  const routes: Record<string, Handler> = {};
  const site = await startFixtureServer({}, (req, res) => {
    const handler = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (handler) return handler(req, res);
    res.writeHead(404).end("not found");
  });
  const count = Number(args.pages);
  const big = Number(args.big);
  // the big site for the interactive probes; the audits read the first `count` numbered pages of the same routes
  Object.assign(routes, buildAuditSite(site.origin, Math.max(count, big)).routes);
  const database = await createBenchDatabase(databaseBase);
  const db = createDb(database.url);
  const results: Json = {
    machine: { cpus: cpus().length, load: loadavg().map((x) => Math.round(x * 100) / 100) },
    pages: count,
  };
  const prefixes: string[] = [];

  const stackOf = async (workers: number) => {
    const prefix = `bench-audits-${Date.now().toString(36)}`;
    prefixes.push(prefix);
    const stack = await startApiStack(
      db,
      benchEnv(database.url, redisUrl, prefix, { SCAN_ALLOWLIST: site.hostPort, AUDIT_HOST_CONCURRENCY: "4" }),
      workers,
    );
    const call = async (path: string, body?: unknown) => (await stack.call(path, body)).body;
    return { call, stop: stack.stop };
  };

  /** Runs one audit to its end: pages scanned and pages a minute. */
  const audit = async (stack: Awaited<ReturnType<typeof stackOf>>, mode: "quick" | "full", maxPages: number) => {
    const siteId = (await stack.call("/api/v1/sites", { url: site.url("/") })).data.id as string;
    const started = Date.now();
    const id = (await stack.call(`/api/v1/sites/${siteId}/audits`, { mode, max_pages: maxPages })).data.id as string;
    for (;;) {
      await new Promise((done) => setTimeout(done, 500));
      const state = (await stack.call(`/api/v1/audits/${id}`)).data as Json;
      if (state.status === "completed" || state.status === "failed") {
        const ms = Date.now() - started;
        const pages = state.progress.scanned + state.progress.failed;
        return { id, status: state.status, pages, ms, perMinute: Math.round((pages / ms) * 60_000) };
      }
    }
  };

  const modes = (args.modes ?? "").split(",").filter(Boolean) as Array<"quick" | "full">;
  const workerCounts = (args.workers ?? "").split(",").map(Number);
  const maxPages = count + 19;
  results.throughput = [];
  for (const workers of workerCounts) {
    for (const mode of modes) {
      const stack = await stackOf(workers);
      try {
        say(`${mode} audit of ${maxPages} pages with ${workers} worker(s)`);
        const run = await audit(stack, mode, maxPages);
        results.throughput.push({ mode, workers, ...run });
        say(`  ${run.pages} pages in ${run.ms} ms: ${run.perMinute} pages/min`);
      } finally {
        await stack.stop();
      }
    }
  }

  // the same pages one by one: a batch of quick scans on one worker
  {
    const stack = await stackOf(1);
    try {
      // the very pages the quick audit with one worker fetched (robots.txt's blocked page aside)
      const quickAudit = (results.throughput as Json[]).find((r) => r.mode === "quick" && r.workers === 1);
      const urls = quickAudit
        ? (
            await db.auditPage.findMany({
              where: { auditId: quickAudit.id as string, status: { in: ["scanned", "failed"] } },
              select: { url: true },
            })
          ).map((row) => row.url)
        : Array.from({ length: count }, (_, i) => site.url(`/p/${i + 1}`));
      say(`${urls.length} quick scans one by one with 1 worker`);
      const started = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < urls.length; i += 100) {
        const batch = await stack.call("/api/v1/scans/batch", { urls: urls.slice(i, i + 100), mode: "quick" });
        ids.push(...(batch.data.scans as Json[]).map((scan) => scan.id as string));
      }
      for (;;) {
        await new Promise((done) => setTimeout(done, 500));
        const done = await db.scan.count({ where: { id: { in: ids }, status: { in: ["completed", "failed"] } } });
        if (done === ids.length) break;
      }
      const ms = Date.now() - started;
      const oneByOne = Math.round((ids.length / ms) * 60_000);
      const auditRate = (results.throughput as Json[]).find((r) => r.mode === "quick" && r.workers === 1)?.perMinute;
      results.overhead = { scans: ids.length, ms, perMinute: oneByOne, auditPerMinute: auditRate ?? null };
      say(`  ${oneByOne} pages/min one by one; the audit reached ${auditRate} (target ≥ 90 %)`);
    } finally {
      await stack.stop();
    }
  }

  // interactive quick scans, idle and while a big quick audit runs on two workers
  if (!args["skip-interactive"]) {
    const stack = await stackOf(2);
    try {
      const probes = Number(args.probes);
      const probe = async () => {
        const latencies: number[] = [];
        for (let i = 0; i < probes; i++) {
          const started = performance.now();
          const answer = await stack.call("/api/v1/scan", {
            url: site.url(`/extra/${(i % 10) + 1}?probe=${i}`),
            mode: "quick",
          });
          if (answer.data?.status !== "completed")
            throw new Error(`probe scan: ${JSON.stringify(answer).slice(0, 200)}`);
          latencies.push(performance.now() - started);
        }
        return { p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)) };
      };
      // a worker's first scans pay for its warm-up: not part of either measurement
      for (let i = 0; i < 3; i++)
        await stack.call("/api/v1/scan", { url: site.url(`/p/${i + 1}?warm=${i}`), mode: "quick" });
      say(`${probes} interactive quick scans, queue idle`);
      const idle = await probe();
      const siteId = (await stack.call("/api/v1/sites", { url: site.url("/") })).data.id as string;
      const auditId = (await stack.call(`/api/v1/sites/${siteId}/audits`, { mode: "quick", max_pages: big + 19 })).data
        .id as string;
      // wait until the audit has a backlog
      for (;;) {
        await new Promise((done) => setTimeout(done, 250));
        const state = (await stack.call(`/api/v1/audits/${auditId}`)).data as Json;
        if (state.progress.queued > 50) break;
      }
      say(`${probes} interactive quick scans while a ${big + 19}-page audit runs`);
      const busy = await probe();
      const state = (await stack.call(`/api/v1/audits/${auditId}`)).data as Json;
      results.interactive = {
        idle,
        duringAudit: busy,
        ratioP95: Math.round((busy.p95 / idle.p95) * 100) / 100,
        auditQueuedAfterProbes: state.progress.queued,
      };
      say(`  idle p95 ${idle.p95} ms, during the audit p95 ${busy.p95} ms (target ≤ 1.5×)`);
    } finally {
      await stack.stop();
    }
  }

  const dir = join(ROOT, "docs/reports");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "bench-audits.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  await db.$disconnect();
  for (const prefix of prefixes) await dropQueue(redisUrl, prefix);
  await database.drop();
  await site.close();
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
