/**
 * Scan-time benchmark on the real-page corpus: `pnpm bench [--rounds N] [--workers N]`.
 *
 * Serves tests/corpus/pages on 127.0.0.1, starts the gateway and worker in this process on a
 * queue prefix and database of their own, and times quick and full scans of every page
 * through the HTTP API (client wall clock, what a caller waits). Writes reports/bench.md.
 * Needs DATABASE_URL and REDIS_URL, or PostgreSQL and Redis on their standard local ports.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "@scan/db/client";
import { migrateDeploy } from "@scan/db/migrate";
import { loadConfig as gatewayConfig } from "@scan/gateway/config";
import { startGateway } from "@scan/gateway/gateway";
import { loadConfig as workerConfig } from "@scan/worker/config";
import { createScanWorker } from "@scan/worker/worker";
import { Redis } from "ioredis";
import { Client } from "pg";
import pino from "pino";
import { corpusPages, median, percentile, serveCorpus } from "../tests/support/corpus";
import { startFixtureServer } from "../tests/support/fixture-server";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "1" },
    concurrency: { type: "string", default: "1" },
    pages: { type: "string" },
  },
});

const ROOT = resolve(__dirname, "..");

const main = async () => {
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const dbName = `scan_bench_${randomBytes(4).toString("hex")}`;
  const databaseUrl = new URL(baseUrl);
  databaseUrl.pathname = `/${dbName}`;
  await migrateDeploy(databaseUrl.toString());

  const site = await startFixtureServer({}, serveCorpus);
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString("hex")}`,
    SCAN_ALLOWLIST: site.hostPort,
    WORKER_CONCURRENCY: args.concurrency ?? "1",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
  };
  const log = pino({ level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL);
  const gateway = await startGateway({ config: gatewayConfig(env), db, log });
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const worker = createScanWorker({ config: workerConfig(env), db, connection, log });
  await worker.worker.waitUntilReady();

  const scan = async (page: string, mode: "quick" | "full"): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${gateway.url}/api/v1/scan`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: site.url(`/${page}/`), mode }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${page} ${mode}: HTTP ${response.status}`);
    return performance.now() - started;
  };

  const pages = args.pages ? args.pages.split(",") : corpusPages();
  await scan(pages[0] as string, "quick"); // the browser's first page is not a scan's cost
  const times = { quick: [] as number[], full: [] as number[] };
  const rounds = Number(args.rounds);
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      times.quick.push(await scan(page, "quick"));
      times.full.push(await scan(page, "full"));
    }
  }

  const row = (mode: "quick" | "full") => {
    const list = times[mode];
    const ms = (value: number) => String(Math.round(value));
    return `| ${mode} | ${list.length} | ${ms(median(list))} | ${ms(percentile(list, 90))} | ${ms(percentile(list, 99))} | ${ms(Math.max(...list))} |`;
  };
  const report = [
    "# Scan-time benchmark",
    "",
    `\`pnpm bench --rounds ${rounds}\`: ${pages.length} corpus pages served on 127.0.0.1, scanned one at a time`,
    "through the HTTP API, gateway and worker in one process, one Chromium (ms, client wall clock).",
    "",
    "| mode | scans | median | p90 | p99 | max |",
    "|---|---|---|---|---|---|",
    row("quick"),
    row("full"),
    "",
  ].join("\n");
  console.log(report);
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  writeFileSync(join(ROOT, "reports/bench.md"), report);

  await gateway.close();
  await worker.close(5_000);
  connection.disconnect();
  await db.$disconnect();
  await site.close();
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.end();
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
