/**
 * Measures what the Kubernetes requests and limits are made of: `pnpm measure [--pages N]`.
 *
 * Runs the gateway and one worker as the containers do (compiled, `node dist/main.js` in the
 * layout of their images, NODE_ENV=production behind one trusted proxy; separate processes, each
 * with its children), serves the corpus on 127.0.0.1, and scans N corpus pages in full mode,
 * one at a time, through the API. Samples every process of each service's tree every 100 ms:
 * RSS, and PSS (shared pages split between the processes that share them, which is close to
 * what a memory cgroup charges; Chromium's processes share most of their libraries), and CPU
 * time. Writes docs/reports/resources.md. Needs PostgreSQL and Redis as the tests do.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { migrateDeploy } from "@scan/db";
import { Client } from "pg";
import { corpusPages, percentile, serveCorpus } from "../tests/support/corpus";
import { startFixtureServer } from "../tests/support/fixture-server";
import { assembleService, serviceDir } from "./assemble-service";
import { buildService, SERVICE_BUILDS } from "./build";

const ROOT = resolve(__dirname, "..");
const { values: args } = parseArgs({ options: { pages: { type: "string", default: "20" } } });

const TICKS = 100; // USER_HZ on Linux

const freePort = (): Promise<number> =>
  new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

const parents = (): Map<number, number> => {
  const map = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // gone already
    }
  }
  return map;
};

const tree = (root: number): number[] => {
  const ppid = parents();
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const [pid, parent] of ppid) if (parent === found[i]) found.push(pid);
  }
  return found;
};

type Usage = { rssMiB: number; pssMiB: number; cpuSeconds: number; processes: number };

const usage = (root: number): Usage => {
  let rss = 0;
  let pss = 0;
  let ticks = 0;
  let processes = 0;
  for (const pid of tree(root)) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the command
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      processes += 1;
    } catch {
      // exited between listing and reading
    }
  }
  return { rssMiB: rss / 1024, pssMiB: pss / 1024, cpuSeconds: ticks / TICKS, processes };
};

/** The service compiled, started as its image starts it, from the image's layout under `layout`. */
const service = (name: "gateway" | "worker", layout: string, env: NodeJS.ProcessEnv): ChildProcess =>
  spawn(process.execPath, ["dist/main.js"], {
    cwd: serviceDir(layout, name),
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });

const waitReady = async (url: string) => {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
};

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

const main = async () => {
  await Promise.all(SERVICE_BUILDS.map(buildService));
  const layout = mkdtempSync(join(tmpdir(), "aeo-scan-image-"));
  process.on("exit", () => rmSync(layout, { recursive: true, force: true }));
  assembleService("gateway", layout);
  assembleService("worker", layout);
  const base = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `scan_measure_${randomBytes(4).toString("hex")}`;
  const databaseUrl = new URL(base);
  databaseUrl.pathname = `/${name}`;
  await migrateDeploy(databaseUrl.toString());
  const site = await startFixtureServer({}, serveCorpus);
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    QUEUE_PREFIX: `measure-${randomBytes(4).toString("hex")}`,
    SCAN_ALLOWLIST: site.hostPort,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    // a production gateway wants its JWT key configured
    JWT_SECRET: randomBytes(32).toString("hex"),
  };
  const gateway = service("gateway", layout, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    // as behind the Ingress: requests come with its X-Forwarded-Proto
    TRUST_PROXY: "1",
    // every page is scanned anonymously from this one address: counted apart from other runs
    RATE_LIMIT_PREFIX: `${env.QUEUE_PREFIX}:ratelimit`,
    RATE_LIMIT_ANONYMOUS: "1000000",
  });
  const worker = service("worker", layout, { ...env, METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1" });
  const api = `http://127.0.0.1:${port}`;
  try {
    await waitReady(api);
    await waitReady(`http://127.0.0.1:${metricsPort}`);
    await settle(3_000);
    const idle = { gateway: usage(gateway.pid!), worker: usage(worker.pid!) };

    const pages = corpusPages().slice(0, Number(args.pages));
    const samples = { gateway: [] as Usage[], worker: [] as Usage[] };
    const sampler = setInterval(() => {
      samples.gateway.push(usage(gateway.pid!));
      samples.worker.push(usage(worker.pid!));
    }, 100);
    const cpuBefore = { gateway: idle.gateway.cpuSeconds, worker: usage(worker.pid!).cpuSeconds };
    const started = performance.now();
    for (const page of pages) {
      const response = await fetch(`${api}/api/v1/scan`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
        body: JSON.stringify({ url: site.url(`/${page}/`), mode: "full" }),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${page}: HTTP ${response.status} ${text.slice(0, 300)}`);
    }
    const wall = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = { gateway: usage(gateway.pid!), worker: usage(worker.pid!) };

    const row = (label: string, values: Usage[], pick: (u: Usage) => number) => {
      const list = values.map(pick);
      return `| ${label} | ${percentile(list, 50).toFixed(0)} | ${percentile(list, 95).toFixed(0)} | ${Math.max(...list).toFixed(0)} |`;
    };
    const cores = (service: "gateway" | "worker") =>
      ((after[service].cpuSeconds - cpuBefore[service]) / wall).toFixed(2);
    const report = `# Resource use of the gateway and the worker

\`pnpm measure --pages ${pages.length}\` on ${new Date().toISOString().slice(0, 10)}: each service started as its
container runs it (compiled: \`node dist/main.js\`, \`NODE_ENV=production\`), ${pages.length} corpus pages scanned in full mode one after
another through the API (${wall.toFixed(1)} s), every process of each service's tree sampled every 100 ms.
PSS splits shared pages between the processes sharing them, which is close to what the memory
cgroup of a container charges; RSS counts shared pages once per process.

## Idle (ready, browser launched, before any scan)

| service | processes | RSS MiB | PSS MiB |
|---|---|---|---|
| gateway | ${idle.gateway.processes} | ${idle.gateway.rssMiB.toFixed(0)} | ${idle.gateway.pssMiB.toFixed(0)} |
| worker | ${idle.worker.processes} | ${idle.worker.rssMiB.toFixed(0)} | ${idle.worker.pssMiB.toFixed(0)} |

## While scanning (MiB over ${samples.worker.length} samples)

| worker | median | p95 | max |
|---|---|---|---|
${row("PSS", samples.worker, (u) => u.pssMiB)}
${row("RSS", samples.worker, (u) => u.rssMiB)}
${row("processes", samples.worker, (u) => u.processes)}

| gateway | median | p95 | max |
|---|---|---|---|
${row("PSS", samples.gateway, (u) => u.pssMiB)}
${row("RSS", samples.gateway, (u) => u.rssMiB)}

CPU while scanning: worker ${cores("worker")} cores, gateway ${cores("gateway")} cores (CPU seconds over wall seconds).
`;
    writeFileSync(join(ROOT, "docs/reports/resources.md"), report);
    process.stdout.write(report);
  } finally {
    gateway.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.all(
      [gateway, worker].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))),
    );
    await site.close();
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
