/**
 * The list phase of the benchmark (`pnpm bench --lists`, docs/faults-and-benchmark.md): one agency
 * account filled as a busy one is (thousands of scans, hundreds of sites with their keywords,
 * citation tracks and audits), then the pages a user reads timed one request at a time.
 *
 * It runs unchanged on the trees before the workspaces (a key belonged to its user) and after:
 * sites, keywords and citation tracks are recorded through the API, which both trees answer the
 * same way; scans, audits and their pages are written in SQL naming only the user, as a worker of
 * the release before the workspaces writes them (the workspaces migration's triggers place such
 * rows in the user's personal workspace), since running thousands of scans would take hours.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { createDb, type Db } from "@scan/db";
import * as gateway from "@scan/gateway";
import { Client } from "pg";
import { procStat } from "./procfs";
import { type Latency, latency } from "./report";
import { createBenchDatabase, dropQueue, ROOT, startGatewayProcess } from "./stack";

export type ListsOptions = {
  sites: number;
  /** keywords per site */
  keywords: number;
  /** citation tracks per site, checked over the last 90 days */
  citations: number;
  scans: number;
  /** sites with a weekly audit history (`history` audits each); every other site has one audit */
  auditedSites: number;
  history: number;
  /** pages per audit */
  auditPages: number;
  /** timed requests per endpoint, after `warmup` untimed rounds */
  requests: number;
  warmup: number;
};

export const LIST_DEFAULTS: ListsOptions = {
  sites: 300,
  keywords: 5,
  citations: 10,
  scans: 5000,
  auditedSites: 10,
  history: 30,
  auditPages: 20,
  requests: 60,
  warmup: 5,
};

export type ListEndpoint = { name: string; path: string };

export type ListsRun = {
  startedAt: string;
  commit: string | null;
  options: ListsOptions;
  machine: { loadAverageStart: number[]; loadAverageEnd: number[] };
  seed: { ms: number; rows: Record<string, number> };
  endpoints: Array<ListEndpoint & { status: number; latencyMs: Latency; gatewayCpuMs: number; bytes: number }>;
};

type Json = Record<string, unknown>;

const say = (message: string) => process.stderr.write(`[bench:lists] ${message}\n`);

/** The account's first key: through the key owner the tree has (a workspace after 5848ff4, the user before). */
const createAccountKey = async (db: Db, email: string): Promise<{ userId: string; key: string }> => {
  const user = await gateway.createUserService(db).create(email, "agency");
  const keys = gateway.createKeyService({ db, maxKeysPerUser: 10 });
  type Owner = Parameters<typeof keys.create>[0];
  // before the workspaces a key's owner was the user itself ({id, plan}); personalKeyOwner came with them
  const owner: Owner =
    "personalKeyOwner" in gateway ? await gateway.personalKeyOwner(db, user) : (user as unknown as Owner);
  const { key } = await keys.create(owner, {});
  return { userId: user.id, key };
};

/** Runs `work` over `items` with `concurrency` at a time, in order within each lane. */
const eachLimited = async <T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
};

/** One check result as the worker stores it: long enough that a row's `checks` weighs what a real scan's does. */
const checkResult = (i: number, full: boolean) => ({
  id: `${full ? "full" : "quick"}-check-${i}`,
  category: ["seo", "aeo", "geo"][i % 3],
  status: ["pass", "warn", "fail", "pass"][i % 4],
  score: i % 4 === 2 ? 0 : 5,
  maxScore: 5,
  severity: ["critical", "warning", "info"][i % 3],
  title: `Check ${i}: the page states what it is about in its title and first heading`,
  description: `What the check found on the page, in a sentence or two, with the element it read (${i}).`,
  fix: "What to change on the page so that the check passes, written for the person who edits it.",
});

const seed = async (
  db: Db,
  databaseUrl: string,
  call: (path: string, body: unknown) => Promise<{ status: number; body: Json }>,
  userId: string,
  options: ListsOptions,
) => {
  const started = Date.now();
  const siteUrls = Array.from({ length: options.sites }, (_, i) => `https://site-${i}.example`);
  const siteIds: string[] = [];
  await eachLimited(
    siteUrls.map((url, i) => ({ url, i })),
    4,
    async ({ url, i }) => {
      const answer = await call("/api/v1/sites", { url: `${url}/`, name: `Client site ${i}` });
      if (answer.status !== 201)
        throw new Error(`POST /api/v1/sites answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      siteIds[i] = (answer.body.data as Json).id as string;
    },
  );
  say(`${siteIds.length} sites recorded`);
  const keywordRecords = siteIds.flatMap((siteId, s) =>
    Array.from({ length: options.keywords }, (_, k) => ({
      site_id: siteId,
      keyword: `keyword ${k} of site ${s}`,
      position: 1 + ((s * 7 + k * 13) % 100),
      volume: 100 + ((s * 31 + k) % 5000),
      difficulty: (s + k * 11) % 101,
    })),
  );
  await eachLimited(keywordRecords, 4, async (record) => {
    const answer = await call("/api/v1/keywords", record);
    if (answer.status !== 201) throw new Error(`POST /api/v1/keywords answered ${answer.status}`);
  });
  say(`${keywordRecords.length} keywords recorded`);
  const engines = ["chatgpt", "claude", "perplexity", "gemini"];
  const now = Date.now();
  const trackRecords = siteIds.flatMap((siteId, s) =>
    Array.from({ length: options.citations }, (_, c) => {
      const cited = (s + c) % 3 !== 0;
      return {
        site_id: siteId,
        platform: engines[(s + c) % engines.length],
        query_text: `best tools for task ${c} (site ${s})`,
        cited,
        citation_url: cited ? `${siteUrls[s]}/page-${c}` : null,
        // spread over 90 days, so the default 30 days keeps about a third
        checked_at: new Date(now - (((s * options.citations + c) * 7919) % (90 * 24 * 60)) * 60_000).toISOString(),
      };
    }),
  );
  await eachLimited(trackRecords, 4, async (record) => {
    const answer = await call("/api/v1/citations", record);
    if (answer.status !== 201) throw new Error(`POST /api/v1/citations answered ${answer.status}`);
  });
  say(`${trackRecords.length} citation tracks recorded`);

  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const quick = JSON.stringify(Array.from({ length: 20 }, (_, i) => checkResult(i, false)));
    const full = JSON.stringify(Array.from({ length: 57 }, (_, i) => checkResult(i, true)));
    // newest first every 7 minutes: 5,000 scans span about 24 days; one in 20 failed
    await sql.query(
      `INSERT INTO scans (id, user_id, url, final_url, mode, status, seo, aeo, geo, overall, grade,
         issues_critical, issues_warning, issues_info, checks, rendered, duration_ms, error_code, error_message,
         created_at, started_at, completed_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, u, u, m::"ScanMode", st::"ScanStatus",
         CASE WHEN ok THEN 40 + g % 60 END, CASE WHEN ok THEN 30 + g % 70 END, CASE WHEN ok THEN 20 + g % 80 END,
         CASE WHEN ok THEN 30 + g % 70 END, CASE WHEN ok THEN 'B' END,
         CASE WHEN ok THEN g % 4 ELSE 0 END, CASE WHEN ok THEN g % 9 ELSE 0 END, CASE WHEN ok THEN g % 5 ELSE 0 END,
         CASE WHEN NOT ok THEN NULL WHEN m = 'full' THEN $2::jsonb ELSE $3::jsonb END,
         CASE WHEN ok THEN m = 'full' END, 900 + g % 4000,
         CASE WHEN NOT ok THEN 'upstream_failure' END, CASE WHEN NOT ok THEN 'The page did not answer in time.' END,
         t, t, t + interval '3 seconds', t + interval '3 seconds'
       FROM (SELECT g, 'https://site-' || (g % $4) || '.example/page-' || (g / $4) AS u,
               CASE WHEN g % 3 = 0 THEN 'full' ELSE 'quick' END AS m,
               CASE WHEN g % 20 = 7 THEN 'failed' ELSE 'completed' END AS st,
               g % 20 <> 7 AS ok,
               now() - g * interval '7 minutes' AS t
             FROM generate_series(1, $5) g) s`,
      [userId, full, quick, options.sites, options.scans],
    );
    // each site's scores from its latest completed full scan, as the worker's upsert leaves them
    await sql.query(
      `UPDATE sites SET latest_scan_id = l.id, latest_seo = l.seo, latest_aeo = l.aeo, latest_geo = l.geo,
         latest_mode = 'full', latest_scores_at = l.completed_at, last_scan_at = l.completed_at
       FROM (SELECT DISTINCT ON (o) substring(url from '^https://[^/]+') AS o, id, seo, aeo, geo, completed_at
             FROM scans WHERE user_id = $1 AND status = 'completed' AND mode = 'full'
             ORDER BY o, completed_at DESC) l
       WHERE sites.user_id = $1 AND sites.url = l.o`,
      [userId],
    );
    // a weekly audit history on the first sites, one audit on every other
    await sql.query(
      `INSERT INTO audits (id, user_id, site_id, start_url, mode, status, max_pages, include, exclude, discovered,
         seo, aeo, geo, overall, grade, issues_critical, issues_warning, issues_info,
         created_at, started_at, completed_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, s.id, s.url || '/', 'full', 'completed', 100, '[]', '[]', $2,
         60 + n % 40, 50 + n % 50, 40 + n % 60, 50 + n % 50, 'B', n % 3, n % 11, n % 7,
         now() - n * interval '7 days', now() - n * interval '7 days',
         now() - n * interval '7 days' + interval '20 minutes', now() - n * interval '7 days' + interval '20 minutes'
       FROM (SELECT id, url, row_number() OVER (ORDER BY created_at, id) AS r FROM sites WHERE user_id = $1) s
       CROSS JOIN LATERAL generate_series(0, CASE WHEN s.r <= $3 THEN $4 - 1 ELSE 0 END) n`,
      [userId, options.auditPages, options.auditedSites, options.history],
    );
    await sql.query(
      `INSERT INTO audit_pages (id, audit_id, url, position, depth, in_sitemap, status, http_status, final_url,
         seo, aeo, geo, overall, grade, created_at, started_at, completed_at, updated_at)
       SELECT gen_random_uuid(), a.id, a.start_url || 'page-' || p, p, CASE WHEN p = 1 THEN 0 ELSE 1 END, p > 1,
         'scanned', 200, a.start_url || 'page-' || p, 70, 60, 50, 60, 'C',
         a.created_at, a.created_at, a.completed_at, a.completed_at
       FROM audits a CROSS JOIN generate_series(1, a.discovered) p WHERE a.user_id = $1`,
      [userId],
    );
    await sql.query("ANALYZE");
    const counted = await sql.query<{ name: string; n: string }>(
      `SELECT 'scans' AS name, count(*) AS n FROM scans UNION ALL SELECT 'sites', count(*) FROM sites
       UNION ALL SELECT 'keywords', count(*) FROM keywords UNION ALL SELECT 'citation_tracks', count(*) FROM citation_tracks
       UNION ALL SELECT 'audits', count(*) FROM audits UNION ALL SELECT 'audit_pages', count(*) FROM audit_pages`,
    );
    const rows = Object.fromEntries(counted.rows.map((row) => [row.name, Number(row.n)]));
    const scan = await sql.query<{ id: string; url: string }>(
      "SELECT id, url FROM scans WHERE user_id = $1 AND status = 'completed' AND mode = 'full' ORDER BY created_at DESC LIMIT 1 OFFSET 50",
      [userId],
    );
    const history = await db.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT site_id::text AS id FROM audits WHERE user_id = $1::uuid GROUP BY site_id ORDER BY count(*) DESC LIMIT 1`,
      userId,
    );
    return {
      ms: Date.now() - started,
      rows,
      scanId: scan.rows[0]?.id as string,
      auditedSiteId: history[0]?.id as string,
      siteIds,
    };
  } finally {
    await sql.end();
  }
};

/** What a user pages through: each list's first page, a later one, and the filters its docs list. */
export const listEndpoints = (ids: { scanId: string; siteId: string; auditedSiteId: string }): ListEndpoint[] => [
  { name: "scans, page 1", path: "/api/v1/scans" },
  { name: "scans, page 100", path: "/api/v1/scans?page=100" },
  { name: "scans, status=failed", path: "/api/v1/scans?status=failed" },
  { name: "scans, site_id", path: `/api/v1/scans?site_id=${ids.siteId}` },
  { name: "scan by id (full, with checks)", path: `/api/v1/scan/${ids.scanId}` },
  { name: "sites, page 1", path: "/api/v1/sites" },
  { name: "sites, page 10", path: "/api/v1/sites?page=10" },
  { name: "sites, q", path: "/api/v1/sites?q=site-12" },
  { name: "site by id", path: `/api/v1/sites/${ids.siteId}` },
  { name: "a site's audits, page 1", path: `/api/v1/sites/${ids.auditedSiteId}/audits` },
  { name: "a site's audits, page 2", path: `/api/v1/sites/${ids.auditedSiteId}/audits?page=2&limit=10` },
  { name: "keywords, page 1", path: "/api/v1/keywords" },
  { name: "keywords, page 50", path: "/api/v1/keywords?page=50" },
  { name: "keywords, site_id", path: `/api/v1/keywords?site_id=${ids.siteId}` },
  { name: "citations, page 1 (30d)", path: "/api/v1/citations" },
  { name: "citations, 90d page 100", path: "/api/v1/citations?date_range=90d&page=100" },
  { name: "citations, engine", path: "/api/v1/citations?engine=perplexity" },
  {
    name: "citations, site_id and engine",
    path: `/api/v1/citations?site_id=${ids.siteId}&engine=perplexity&date_range=90d`,
  },
];

/** A gateway on a seeded database of its own, ready to be timed. */
export type ListsStack = {
  url: string;
  key: string;
  pid: number;
  commit: string | null;
  seed: { ms: number; rows: Record<string, number> };
  endpoints: ListEndpoint[];
  close: () => Promise<void>;
};

export const prepareLists = async (options: ListsOptions, commit: string | null): Promise<ListsStack> => {
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = `bench-lists-${randomUUID().slice(0, 8)}`;
  const database = await createBenchDatabase(baseUrl);
  const db = createDb(database.url, { poolSize: 2 });
  let stopGateway: (() => Promise<void>) | undefined;
  const close = async () => {
    await stopGateway?.();
    await db.$disconnect();
    await dropQueue(redisUrl, prefix);
    await database.drop();
  };
  try {
    const started = await startGatewayProcess({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
      // one key sends thousands of requests in a few minutes
      RATE_LIMIT_AGENCY: "1000000000",
      LOG_LEVEL: "info",
    });
    stopGateway = () => started.service.stop();
    const { userId, key } = await createAccountKey(db, `${prefix}@example.com`);
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${started.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const seeded = await seed(db, database.url, call, userId, options);
    say(`${commit ?? "this tree"} seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${JSON.stringify(seeded.rows)}`);
    const siteId = seeded.siteIds[7] ?? (seeded.siteIds[0] as string);
    return {
      url: started.url,
      key,
      pid: started.service.nodePid,
      commit,
      seed: { ms: seeded.ms, rows: seeded.rows },
      endpoints: listEndpoints({ scanId: seeded.scanId, siteId, auditedSiteId: seeded.auditedSiteId }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};

type Timing = { ms: number[]; cpuMs: number; status: number; bytes: number };

const timeOne = async (stack: ListsStack, endpoint: ListEndpoint, into: Timing | null) => {
  const cpuBefore = procStat(stack.pid)?.ownCpuMs ?? 0;
  const t0 = performance.now();
  const response = await fetch(`${stack.url}${endpoint.path}`, { headers: { "x-api-key": stack.key } });
  const text = await response.text();
  const ms = performance.now() - t0;
  const cpuAfter = procStat(stack.pid)?.ownCpuMs ?? 0;
  if (response.status !== 200) throw new Error(`${endpoint.path} answered ${response.status}: ${text.slice(0, 300)}`);
  if (!into) return;
  into.ms.push(ms);
  into.cpuMs += cpuAfter - cpuBefore;
  into.status = response.status;
  into.bytes = text.length;
};

/**
 * Times every endpoint on every stack, one request at a time: round by round, each endpoint in
 * turn (the order rotating each round), and for each endpoint every stack in turn (which goes
 * first alternating), so that stacks compared meet the same load on a shared machine.
 */
export const timeLists = async (stacks: readonly ListsStack[], options: ListsOptions): Promise<ListsRun[]> => {
  const loadAverageStart = loadavg();
  const names = (stacks[0] as ListsStack).endpoints.map((endpoint) => endpoint.name);
  const timings = stacks.map(() => names.map((): Timing => ({ ms: [], cpuMs: 0, status: 0, bytes: 0 })));
  const rounds = options.warmup + options.requests;
  say(`${names.length} endpoints on ${stacks.length} gateway(s), ${rounds} rounds, one request at a time`);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < names.length; j++) {
      const index = (j + round) % names.length;
      for (let k = 0; k < stacks.length; k++) {
        const s = (k + round + j) % stacks.length;
        const stack = stacks[s] as ListsStack;
        const timing = round < options.warmup ? null : ((timings[s] as Timing[])[index] as Timing);
        await timeOne(stack, stack.endpoints[index] as ListEndpoint, timing);
      }
    }
  }
  const loadAverageEnd = loadavg();
  return stacks.map((stack, s) => ({
    startedAt: new Date().toISOString(),
    commit: stack.commit,
    options,
    machine: { loadAverageStart, loadAverageEnd },
    seed: stack.seed,
    endpoints: stack.endpoints.map((endpoint, i) => {
      const timing = (timings[s] as Timing[])[i] as Timing;
      return {
        ...endpoint,
        status: timing.status,
        latencyMs: latency(timing.ms),
        gatewayCpuMs: timing.cpuMs / options.requests,
        bytes: timing.bytes,
      };
    }),
  }));
};

/**
 * Another checkout's stack (`--against <dir>`): its own copy of this file, run with `--serve`,
 * seeds its own database through its own services and answers one line with what to time.
 */
const serveFrom = async (dir: string, options: ListsOptions) => {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(dir, "scripts/bench/lists.ts"), "--serve", JSON.stringify(options)],
    {
      cwd: dir,
      env: process.env,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const line = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
    lines.once("line", resolveLine);
    child.once("exit", (code) => reject(new Error(`the stack in ${dir} exited (${code}) before it was ready`)));
  });
  const ready = JSON.parse(line) as Omit<ListsStack, "close">;
  return {
    ...ready,
    // closing its stdin stops it: its gateway, database and queue keys with it
    close: async () => {
      child.stdin?.end();
      await exited;
    },
  } satisfies ListsStack;
};

/** Serves this tree's stack to a `--against` run in another checkout until its stdin closes. */
const serve = async (options: ListsOptions) => {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
  const stack = await prepareLists(options, commit || null);
  const { close, ...ready } = stack;
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.stdin.resume();
  await new Promise<void>((done) => process.stdin.once("end", () => done()));
  await close();
};

/** This tree's list endpoints; with `against` (another checkout holding this file), both timed side by side. */
export const benchLists = async (
  options: ListsOptions,
  commit: string | null,
  against?: string,
): Promise<{ run: ListsRun; before?: ListsRun }> => {
  const stacks: ListsStack[] = [];
  try {
    if (against) stacks.push(await serveFrom(against, options));
    stacks.push(await prepareLists(options, commit));
    const runs = await timeLists(stacks, options);
    return against ? { before: runs[0] as ListsRun, run: runs[1] as ListsRun } : { run: runs[0] as ListsRun };
  } finally {
    for (const stack of stacks) await stack.close();
  }
};

if (process.argv[2] === "--serve" && resolve(process.argv[1] ?? "") === __filename) {
  serve({ ...LIST_DEFAULTS, ...(JSON.parse(process.argv[3] ?? "{}") as Partial<ListsOptions>) }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const load = (values: number[]) => values.map((v) => v.toFixed(1)).join(" / ");

/** The run's table; with an earlier tree's run (`--against`, or `--before <json>`), its numbers beside this one's and the ratio. */
export const renderLists = (result: ListsRun, before?: ListsRun): string => {
  const lines = [
    `List endpoints, ${result.options.requests} requests each one at a time (${before ? `${before.commit ?? "before"} and ` : ""}${result.commit ?? "this tree"}; load average ${load(result.machine.loadAverageStart)} at the start, ${load(result.machine.loadAverageEnd)} at the end)`,
    `Seeded: ${Object.entries(result.seed.rows)
      .map(([name, n]) => `${n} ${name}`)
      .join(", ")} in ${(result.seed.ms / 1000).toFixed(0)} s`,
    "",
  ];
  if (before) {
    lines.push(
      "| endpoint | p50 before ms | p50 ms | p50 ratio | p95 before ms | p95 ms | gateway CPU ms/request before | gateway CPU ms/request |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const row of result.endpoints) {
      const old = before.endpoints.find((e) => e.name === row.name);
      const ratio = old ? (row.latencyMs.p50 / old.latencyMs.p50).toFixed(2) : "–";
      lines.push(
        `| ${row.name} | ${old ? ms(old.latencyMs.p50) : "–"} | ${ms(row.latencyMs.p50)} | ${ratio} | ${old ? ms(old.latencyMs.p95) : "–"} | ${ms(row.latencyMs.p95)} | ${old ? old.gatewayCpuMs.toFixed(1) : "–"} | ${row.gatewayCpuMs.toFixed(1)} |`,
      );
    }
  } else {
    lines.push("| endpoint | p50 ms | p95 ms | gateway CPU ms/request | bytes |", "|---|---|---|---|---|");
    for (const row of result.endpoints) {
      lines.push(
        `| ${row.name} | ${ms(row.latencyMs.p50)} | ${ms(row.latencyMs.p95)} | ${row.gatewayCpuMs.toFixed(1)} | ${row.bytes} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
};
