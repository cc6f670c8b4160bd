/**
 * The memory an audit's exports cost the gateway: `pnpm bench:audit-exports [--pages 10000]
 * [--site 100] [--label after] [--node-options --max-old-space-size=128]` (docs/audits.md, Exports).
 *
 * Runs a real full audit of the corpus site (tests/support/audit-site.ts, `--site` numbered
 * pages with the pages only links lead to and its planted defects) with a gateway and a worker,
 * each a process of its own on a database of its own, so that the page rows hold what real scans
 * store: checks, facts, scores, pages that failed or answered 404. It then copies that audit into
 * a completed audit of `--pages` pages, straight in the database: the source pages over and
 * over, each copy at a URL of its own. It downloads the copy's SARIF, its JUnit XML, its pages
 * CSV, then three SARIF downloads at once, each from a gateway process started for it, and
 * records for each: bytes, time to the first byte and to the last, the gateway's peak RSS
 * (VmHWM, reset before the download) over its RSS before, and its V8 heap in use
 * (`nodejs_heap_size_used_bytes` from /metrics, read every 100 ms) at its highest over before.
 * Writes docs/reports/bench-audit-exports-<label>.json and prints a markdown table.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "@scan/db";
import { createKeyService, createUserService, personalKeyOwner } from "@scan/gateway";
import { buildAuditSite } from "../tests/support/audit-site";
import { type Handler, startFixtureServer } from "../tests/support/fixture-server";
import { peakRssBytes, resetPeakRss } from "./bench/procfs";
import {
  createBenchDatabase,
  dropQueue,
  ROOT,
  type Service,
  startGatewayProcess,
  startWorkerProcess,
} from "./bench/stack";

const { values: args } = parseArgs({
  options: {
    pages: { type: "string", default: "10000" },
    site: { type: "string", default: "100" },
    label: { type: "string", default: "current" },
    /** NODE_OPTIONS of the gateway processes that export, e.g. --max-old-space-size=128 */
    "node-options": { type: "string", default: "" },
  },
});

const say = (message: string) => process.stderr.write(`[bench:audit-exports] ${message}\n`);
const databaseBase = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field
type Json = Record<string, any>;

const rssBytes = (pid: number): number => {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return match ? Number(match[1]) * 1024 : 0;
};

/** The gateway's V8 heap in use, from its own metrics; null when the read failed (the process busy past the bound). */
const heapUsed = async (gatewayUrl: string): Promise<number | null> => {
  try {
    const text = await (await fetch(`${gatewayUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    const match = text.match(/^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
};

type Download = { status: number; bytes: number; sha256: string; ttfbMs: number; ms: number; error?: string };

/** Reads a download to its end without keeping it: its size and hash. */
const download = async (url: string, key: string): Promise<Download> => {
  const started = performance.now();
  const hash = createHash("sha256");
  let bytes = 0;
  let ttfbMs = 0;
  let status = 0;
  try {
    const response = await fetch(url, { headers: { "x-api-key": key } });
    status = response.status;
    ttfbMs = Math.round(performance.now() - started);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      hash.update(chunk);
    }
    return { status, bytes, sha256: hash.digest("hex"), ttfbMs, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status,
      bytes,
      sha256: "",
      ttfbMs,
      ms: Math.round(performance.now() - started),
      error: (error as Error).message,
    };
  }
};

/** Runs the downloads at once while watching the gateway's memory. */
const measure = async (gateway: { service: Service; url: string }, urls: string[], key: string) => {
  const pid = gateway.service.nodePid;
  const heapBefore = (await heapUsed(gateway.url)) ?? 0;
  const rssBefore = rssBytes(pid);
  const peakResettable = resetPeakRss(pid);
  let heapPeak = heapBefore;
  let rssPeakSampled = rssBefore;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      rssPeakSampled = Math.max(rssPeakSampled, rssBytes(pid));
      const heap = await heapUsed(gateway.url);
      if (heap !== null) heapPeak = Math.max(heapPeak, heap);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  const downloads = await Promise.all(urls.map((url) => download(url, key)));
  watching = false;
  await watcher;
  const rssPeak = peakResettable ? peakRssBytes(pid) : rssPeakSampled;
  return {
    downloads,
    rssBeforeMb: mb(rssBefore),
    rssPeakMb: mb(rssPeak),
    rssIncreaseMb: mb(rssPeak - rssBefore),
    heapBeforeMb: mb(heapBefore),
    heapPeakMb: mb(heapPeak),
    heapIncreaseMb: mb(heapPeak - heapBefore),
    rssAfterMb: mb(rssBytes(pid)),
  };
};

const main = async () => {
  const pages = Number(args.pages);
  const routes: Record<string, Handler> = {};
  const site = await startFixtureServer({}, (req, res) => {
    const handler = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (handler) return handler(req, res);
    res.writeHead(404).end("not found");
  });
  const built = buildAuditSite(site.origin, Number(args.site));
  Object.assign(routes, built.routes);
  const database = await createBenchDatabase(databaseBase).catch(async (error: unknown) => {
    await site.close();
    throw error;
  });
  const db = createDb(database.url);
  const prefix = `bench-exports-${Date.now().toString(36)}`;
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
    SCAN_ALLOWLIST: site.hostPort,
    LOG_LEVEL: "info",
    METRICS_PORT: "0",
    AUDIT_HOST_CONCURRENCY: "4",
    RATE_LIMIT_AGENCY: "1000000",
  };
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | null = null;
  let worker: Service | null = null;
  try {
    const served = await startGatewayProcess(env);
    gateway = served;
    worker = await startWorkerProcess("worker-0", env);
    const user = await createUserService(db).create(`bench-${prefix}@example.com`, "agency");
    const { key } = await createKeyService({ db, maxKeysPerUser: 10 }).create(await personalKeyOwner(db, user), {});
    const call = async (path: string, body?: unknown) => {
      const response = await fetch(`${served.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Json;
    };

    say(`a real full audit of the corpus site's ${built.paths.length} pages`);
    const siteId = (await call("/api/v1/sites", { url: site.url("/") })).data.id as string;
    const sourceId = (await call(`/api/v1/sites/${siteId}/audits`, { mode: "full", max_pages: built.paths.length }))
      .data.id as string;
    let source: Json;
    for (;;) {
      await new Promise((done) => setTimeout(done, 500));
      source = (await call(`/api/v1/audits/${sourceId}`)).data as Json;
      if (source.status === "completed" || source.status === "failed") break;
    }
    if (source.status !== "completed") throw new Error(`the source audit ended ${source.status}`);
    await worker.stop();
    worker = null;

    say(`copying it into a completed audit of ${pages} pages`);
    const id = randomUUID();
    await db.$executeRaw`
      INSERT INTO "audits" ("id", "user_id", "site_id", "start_url", "mode", "status", "max_pages", "include",
        "exclude", "discovered", "discovery", "report", "seo", "aeo", "geo", "overall", "grade",
        "issues_critical", "issues_warning", "issues_info", "created_at", "started_at", "completed_at", "updated_at")
      SELECT ${id}::uuid, "user_id", "site_id", "start_url", "mode", "status", ${pages}, "include", "exclude",
        ${pages}, "discovery", "report", "seo", "aeo", "geo", "overall", "grade", "issues_critical",
        "issues_warning", "issues_info", now(), "started_at", "completed_at", now()
      FROM "audits" WHERE "id" = ${sourceId}::uuid`;
    const BATCH = 500;
    for (let from = 1; from <= pages; from += BATCH) {
      const to = Math.min(pages, from + BATCH - 1);
      // the source's pages in turn; each copy at a URL of its own, its final URL moved with it
      // when it answered at its own URL
      await db.$executeRaw`
        WITH "source" AS (
          SELECT row_number() OVER (ORDER BY "position") - 1 AS "k", p.* FROM "audit_pages" p
          WHERE "audit_id" = ${sourceId}::uuid
        ), "n" AS (SELECT count(*) AS "c" FROM "source")
        INSERT INTO "audit_pages" ("id", "audit_id", "url", "position", "depth", "in_sitemap", "status",
          "http_status", "final_url", "seo", "aeo", "geo", "overall", "grade", "issues_critical",
          "issues_warning", "issues_info", "checks", "facts", "error_message", "created_at", "started_at",
          "completed_at", "updated_at")
        SELECT gen_random_uuid(), ${id}::uuid, s."url" || '?copy=' || g, g, s."depth", s."in_sitemap", s."status",
          s."http_status", CASE WHEN s."final_url" = s."url" THEN s."url" || '?copy=' || g ELSE s."final_url" END,
          s."seo", s."aeo", s."geo", s."overall", s."grade", s."issues_critical", s."issues_warning",
          s."issues_info", s."checks", s."facts", s."error_message", s."created_at", s."started_at",
          s."completed_at", now()
        FROM generate_series(${from}::int, ${to}::int) g
        JOIN "source" s ON s."k" = (g - 1) % (SELECT "c" FROM "n")`;
    }
    const sizes = await db.$queryRaw<Array<{ checks: bigint; facts: bigint; judged: bigint }>>`
      SELECT sum(pg_column_size("checks"))::bigint AS "checks", sum(pg_column_size("facts"))::bigint AS "facts",
        count(*) FILTER (WHERE "status" = 'scanned' AND "http_status" BETWEEN 200 AND 299)::bigint AS "judged"
      FROM "audit_pages" WHERE "audit_id" = ${id}::uuid`;
    const stored = sizes[0];

    await served.service.stop();
    gateway = null;

    const runs: Json[] = [];
    for (const [name, paths] of [
      ["sarif", ["report?format=sarif"]],
      ["junit", ["report?format=junit"]],
      ["pages csv", ["pages?format=csv"]],
      ["sarif, 3 at once", Array.from({ length: 3 }, () => "report?format=sarif")],
    ] as const) {
      // a gateway of its own for each: what one export leaves behind is not counted in the next
      const fresh = await startGatewayProcess({ ...env, NODE_OPTIONS: args["node-options"] });
      gateway = fresh;
      const base = `${fresh.url}/api/v1/audits/${id}`;
      // its first request pays for loading and compiling what every request uses
      await fetch(base, { headers: { "x-api-key": key } }).then((response) => response.arrayBuffer());
      say(`${name}`);
      const run = await measure(
        fresh,
        paths.map((path) => `${base}/${path}`),
        key,
      );
      await fresh.service.stop();
      gateway = null;
      runs.push({ export: name, ...run });
      const first = run.downloads[0];
      say(
        `  ${first?.status} ${mb(first?.bytes ?? 0)} MB in ${first?.ms} ms (first byte ${first?.ttfbMs} ms)${first?.error ? ` error: ${first.error}` : ""}; RSS +${run.rssIncreaseMb} MB (peak ${run.rssPeakMb} MB), heap +${run.heapIncreaseMb} MB`,
      );
    }

    const results = {
      label: args.label,
      nodeOptions: args["node-options"],
      machine: { cpus: cpus().length, load: loadavg().map((x) => Math.round(x * 100) / 100) },
      audit: {
        pages,
        source: { pages: source.progress.discovered, scanned: source.progress.scanned, failed: source.progress.failed },
        judgedPages: Number(stored?.judged ?? 0),
        storedChecksMb: mb(Number(stored?.checks ?? 0)),
        storedFactsMb: mb(Number(stored?.facts ?? 0)),
      },
      runs,
    };
    const dir = join(ROOT, "docs/reports");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `bench-audit-exports-${args.label}.json`), `${JSON.stringify(results, null, 2)}\n`);
    const rows = runs.map((run) => {
      const first = run.downloads[0] as Download;
      return `| ${run.export} | ${first.status}${first.error ? ` (${first.error})` : ""} | ${mb(first.bytes)} | ${first.ttfbMs} | ${first.ms} | ${run.rssIncreaseMb} | ${run.rssPeakMb} | ${run.heapIncreaseMb} |`;
    });
    process.stdout.write(
      [
        `${pages}-page full audit (${results.audit.judgedPages} judged), label ${args.label}${args["node-options"] ? `, gateway NODE_OPTIONS=${args["node-options"]}` : ""}`,
        "",
        "| export | status | MB | first byte, ms | total, ms | RSS increase, MB | RSS peak, MB | heap increase, MB |",
        "|---|---|---|---|---|---|---|---|",
        ...rows,
        "",
      ].join("\n"),
    );
  } finally {
    await worker?.stop();
    await gateway?.service.stop();
    await db.$disconnect();
    await dropQueue(redisUrl, prefix);
    await database.drop();
    await site.close();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
