/**
 * Brings the whole service up on this machine for a newcomer: Postgres and Redis (the ones
 * configured, else local ones, else ones it can start), migrations, the dashboard's build (when
 * missing or stale), the gateway and a worker, then prints the URLs and, with `--scan <url>`,
 * scans it and prints the scores.
 *
 *   pnpm start [--scan https://example.com] [--mode quick|full] [--port 3000] [--workers 1]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDb, migrateDeploy } from "@scan/db";
import { createKeyService, createUserService, personalKeyOwner } from "@scan/gateway";
import { newSecretKey } from "@scan/platform";
import { resolveChromiumPath } from "@scan/scanner";
import { dashboardStale, ensureDashboardBuilt } from "./dashboard-build";
import { localPostgres, reachable } from "./start-postgres";

const ROOT = resolve(__dirname, "..");
// DATA_DIR is also where the gateway keeps its development JWT key
const DATA = resolve(process.env.DATA_DIR ?? join(ROOT, ".data"));

const { values: args } = parseArgs({
  options: {
    scan: { type: "string" },
    mode: { type: "string", default: "quick" },
    port: { type: "string", default: process.env.PORT ?? "3000" },
    workers: { type: "string", default: "1" },
  },
  allowPositionals: true,
});

const say = (message: string) => process.stdout.write(`[start] ${message}\n`);

const onPath = (command: string): boolean => {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

const postgres = async (): Promise<string> => {
  const started = await localPostgres({ env: process.env, dataDir: DATA, say });
  if (started.stop) cleanups.push(started.stop);
  return started.url;
};

const redis = async (): Promise<string> => {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (await reachable("127.0.0.1", 6379)) {
    say("using the Redis server on 127.0.0.1:6379");
    return "redis://127.0.0.1:6379";
  }
  const port = 63790;
  if (!onPath("redis-server")) {
    throw new Error(
      "Redis is needed: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL",
    );
  }
  say(`starting redis-server on 127.0.0.1:${port}`);
  mkdirSync(DATA, { recursive: true });
  const child = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  children.push(child);
  for (let i = 0; i < 50 && !(await reachable("127.0.0.1", port)); i++) await new Promise((r) => setTimeout(r, 100));
  return `redis://127.0.0.1:${port}`;
};

const service = (name: string, env: NodeJS.ProcessEnv): ChildProcess => {
  const child = spawn(
    process.execPath,
    [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, `services/${name}/src/main.ts`)],
    {
      env,
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  children.push(child);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping`);
      void stop(1);
    }
  });
  return child;
};

const waitForGateway = async (url: string): Promise<void> => {
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the gateway did not come up at ${url}`);
};

/** The local user whose API key `--scan` uses; the key is made afresh each time and never printed. */
const LOCAL_USER = "pnpm-start@localhost.invalid";
const LOCAL_KEY_NAME = "pnpm start --scan";

/**
 * An API key of a local Agency user for `--scan`: anonymous callers get 10 scans an hour per
 * address (docs/spec/public-scanning-api.md §8), which a few restarts would use up. The keys this made before are
 * revoked, so they do not pile up to the per-user maximum; the user's other keys are left alone.
 */
const localKey = async (databaseUrl: string): Promise<string> => {
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    const users = createUserService(db);
    const keys = createKeyService({ db, maxKeysPerUser: 1_000 });
    const user = await users.byEmailOrCreate(LOCAL_USER, "agency");
    const owner = await personalKeyOwner(db, user);
    const { keys: active } = await keys.list(owner, { page: 1, limit: 100 });
    for (const key of active.filter((k) => k.name === LOCAL_KEY_NAME)) await keys.revoke(owner, key.id);
    return (await keys.create(owner, { name: LOCAL_KEY_NAME })).key;
  } finally {
    await db.$disconnect();
  }
};

type Check = { id: string; status: string; title: string; description: string };

const scan = async (base: string, url: string, mode: string, key: string) => {
  say(`scanning ${url} (${mode}) as the local user ${LOCAL_USER}…`);
  const response = await fetch(`${base}/api/v1/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ url, mode }),
  });
  type Result = {
    scores: Record<string, number>;
    grade: string;
    checks: Check[];
    duration: number;
    renderFailure: { code: string; message: string } | null;
  };
  const body = (await response.json()) as { data?: Result; error?: { code: string; message: string } };
  if (!response.ok || !body.data?.scores) {
    say(`scan answered ${response.status}: ${JSON.stringify(body.error ?? body.data)}`);
    return;
  }
  const { scores, grade, checks, duration, renderFailure } = body.data;
  say(
    `grade ${grade}  overall ${scores.overall}  seo ${scores.seo}  aeo ${scores.aeo}  geo ${scores.geo}  (${duration} ms)`,
  );
  if (renderFailure) say(`judged on the HTML as served: ${renderFailure.message} (${renderFailure.code})`);
  for (const check of checks.filter((c) => c.status === "fail" || c.status === "warn")) {
    say(`  ${check.status.padEnd(4)} ${check.id.padEnd(24)} ${check.description}`);
  }
};

let stopping = false;
const stop = async (code: number) => {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))));
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  process.exit(code);
};

/**
 * The key that seals the credentials of sites behind a login: the configured one, else a
 * development key kept in .data/site-secrets.key (made once, readable by this user only).
 */
const siteSecretsKey = (): string => {
  if (process.env.SITE_SECRETS_KEY) return process.env.SITE_SECRETS_KEY;
  const file = join(DATA, "site-secrets.key");
  if (!existsSync(file)) {
    mkdirSync(DATA, { recursive: true });
    writeFileSync(file, `${newSecretKey()}\n`, { mode: 0o600 });
    say(`made a development SITE_SECRETS_KEY in ${file}`);
  }
  return readFileSync(file, "utf8").trim();
};

const main = async () => {
  // the worker's own lookup, so a missing browser is reported before anything starts
  resolveChromiumPath(process.env.CHROMIUM_PATH);
  const [databaseUrl, redisUrl] = await Promise.all([postgres(), redis()]);
  say("applying migrations");
  await migrateDeploy(databaseUrl);
  if (dashboardStale()) {
    say("building the dashboard (services/dashboard)");
    ensureDashboardBuilt();
  }
  // without a JWT key the gateway makes a development one in .data (never with NODE_ENV=production),
  // and this machine's own dashboard lets its first user sign up
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PORT: args.port,
    SITE_SECRETS_KEY: siteSecretsKey(),
    DATA_DIR: DATA,
    SIGN_UP: process.env.SIGN_UP ?? "open",
  };
  service("gateway", env);
  // each worker serves /metrics, /healthz and /readyz on a port of its own
  const metricsBase = Number(process.env.METRICS_PORT ?? 9464);
  for (let i = 0; i < Number(args.workers); i++) service("worker", { ...env, METRICS_PORT: String(metricsBase + i) });
  const base = `http://127.0.0.1:${args.port}`;
  // the key is made while the services start; a failure is reported where it is awaited
  const key = args.scan ? localKey(databaseUrl) : null;
  key?.catch(() => undefined);
  await waitForGateway(base);
  say(`the API is up at ${base} (POST ${base}/api/v1/scan); Ctrl-C stops everything`);
  say(`dashboard: ${base}/app/`);
  say(`metrics: ${base}/metrics, and each worker's on 127.0.0.1:${metricsBase}+`);
  say(
    `accounts: sign-up is ${env.SIGN_UP} (SIGN_UP); operators use pnpm accounts (invite, set-role, reset-link, token)`,
  );
  if (args.scan && key) await scan(base, args.scan, args.mode ?? "quick", await key);
};

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  void stop(1);
});
