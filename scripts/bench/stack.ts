/**
 * The stack under test, as it runs in production: a database of its own, the gateway and the
 * workers each in a process of its own, reading only their environment. A service runs from its
 * TypeScript sources (`node --import tsx <main.ts>`, so the pid is the service's own and not a
 * launcher's) or compiled, from the layout its image holds (`node dist/main.js`; see
 * scripts/assemble-service.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { migrateDeploy } from "@scan/db";
import { Redis } from "ioredis";
import { Client } from "pg";
import { allProcesses } from "./procfs";

export const ROOT = resolve(__dirname, "../..");

export type BenchDatabase = { url: string; drop: () => Promise<void> };

/** A fresh, migrated database, dropped (with its connections) by drop(). */
export const createBenchDatabase = async (baseUrl: string): Promise<BenchDatabase> => {
  const name = `scan_bench_${randomBytes(4).toString("hex")}`;
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  await migrateDeploy(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      const admin = new Client({ connectionString: baseUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
};

export type LogRecord = { msg?: string; level?: number; [field: string]: unknown };

export type Service = {
  name: string;
  /** the process started: the service's node process, or the init it runs under */
  pid: number;
  /** the service's node process */
  nodePid: number;
  child: ChildProcess;
  /** every JSON log line the service wrote, parsed */
  logs: LogRecord[];
  /** resolves with the first log record that matches */
  waitForLog: (match: (record: LogRecord) => boolean, timeoutMs: number) => Promise<LogRecord>;
  /** SIGTERM, then SIGKILL if it has not exited within the bound */
  stop: (boundMs?: number) => Promise<void>;
  exited: boolean;
};

export type SpawnOptions = {
  /**
   * an init to run the service under, as its container does (infra/worker.Dockerfile runs
   * tini): started with -s, it adopts and reaps what the service's children orphan
   */
  reaper?: string;
  /** write V8 CPU profiles of the process (one per thread) to <dir>/<label>/ when it exits */
  cpuProfDir?: string;
  /** run the compiled service in this directory (an assembled services/<name>/) instead of its sources */
  compiledIn?: string;
};

/** Starts the service (services/<name>/src/main.ts, or dist/main.js) in a process of its own with this environment. */
export const spawnService = (
  name: "gateway" | "worker",
  label: string,
  env: NodeJS.ProcessEnv,
  options: SpawnOptions = {},
): Service => {
  const nodeArgs = options.compiledIn ? [] : ["--import", "tsx"];
  if (options.cpuProfDir) {
    const dir = join(options.cpuProfDir, label);
    mkdirSync(dir, { recursive: true });
    nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
  }
  const main = options.compiledIn
    ? join(options.compiledIn, "dist/main.js")
    : join(ROOT, `services/${name}/src/main.ts`);
  const command = [process.execPath, ...nodeArgs, main];
  if (options.reaper) command.unshift(options.reaper, "-s", "--");
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: options.compiledIn ?? ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`${label} did not start`);
  const logs: LogRecord[] = [];
  const listeners = new Set<(record: LogRecord) => void>();
  const stderr: string[] = [];
  createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on("line", (line) => {
    // the gateway's request lines are thousands a second under load and nothing here reads them:
    // parsing them would take a core's share from the services being measured
    if (line.includes('"msg":"request"')) return;
    let record: LogRecord;
    try {
      record = JSON.parse(line) as LogRecord;
    } catch {
      return;
    }
    logs.push(record);
    for (const listener of listeners) listener(record);
  });
  createInterface({ input: child.stderr as NonNullable<typeof child.stderr> }).on("line", (line) => {
    stderr.push(line);
    if (stderr.length > 50) stderr.shift();
  });
  const exit = new Promise<void>((done) => child.once("exit", () => done()));
  const service: Service = {
    name: label,
    pid: child.pid,
    nodePid: child.pid,
    child,
    logs,
    exited: false,
    waitForLog: (match, timeoutMs) =>
      new Promise((resolveRecord, reject) => {
        const found = logs.find(match);
        if (found) return resolveRecord(found);
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`${label}: no expected log line in ${timeoutMs} ms; stderr: ${stderr.join("\n")}`));
        }, timeoutMs);
        const listener = (record: LogRecord) => {
          if (!match(record)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolveRecord(record);
        };
        listeners.add(listener);
        void exit.then(() => {
          if (!listeners.has(listener)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          reject(new Error(`${label} exited (${child.exitCode ?? child.signalCode}): ${stderr.join("\n")}`));
        });
      }),
    stop: async (boundMs = 30_000) => {
      if (service.exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), boundMs);
      await exit;
      clearTimeout(timer);
    },
  };
  void exit.then(() => {
    service.exited = true;
  });
  return service;
};

/** A service that did not come up is stopped before the error goes on, so nothing outlives the run. */
const stopOnFailure = async <T>(service: Service, started: Promise<T>): Promise<T> => {
  try {
    return await started;
  } catch (error) {
    await service.stop();
    throw error;
  }
};

export const startGatewayProcess = async (env: NodeJS.ProcessEnv, options: SpawnOptions = {}) => {
  const service = spawnService("gateway", "gateway", { ...env, PORT: "0", HOST: "127.0.0.1" }, options);
  const ready = await stopOnFailure(
    service,
    service.waitForLog((record) => typeof record.url === "string", 60_000),
  );
  return { service, url: ready.url as string };
};

/** A worker whose browser has launched: its first scan does not pay for the start. */
export const startWorkerProcess = async (label: string, env: NodeJS.ProcessEnv, options: SpawnOptions = {}) => {
  const service = spawnService("worker", label, env, options);
  await stopOnFailure(
    service,
    service.waitForLog((record) => record.msg === "browser launched", 60_000),
  );
  if (options.reaper) {
    const node = allProcesses().find((proc) => proc.ppid === service.pid && proc.comm === "node");
    if (!node) throw new Error(`${label}: no node process under ${options.reaper}`);
    service.nodePid = node.pid;
  }
  return service;
};

/** tini on the PATH, or null: the bench then runs workers without a reaper and says so. */
export const findReaper = (): string | null => {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = join(dir, "tini");
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
};

/** Deletes every Redis key under the run's prefix: its queue and its rate counters. */
export const dropQueue = async (redisUrl: string, prefix: string): Promise<void> => {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
};
