/**
 * `pnpm bench --startup`: the compiled services (their images' layout, `node dist/main.js`)
 * against the same services run from TypeScript through tsx, as the images ran them before:
 * time from spawn to the first 200 of /readyz, and memory once ready (after a short settle).
 * Runs alternate the order of the two, so neither always starts on a warmer page cache.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleService, type ServiceName, serviceDir } from "../assemble-service";
import { buildService, SERVICE_BUILDS } from "../build";
import { descendants, procStat, pssBytes } from "./procfs";
import { spawnService } from "./stack";

export type Runtime = "tsx" | "compiled";

export type StartupSample = {
  /** spawn to the first 200 from /readyz */
  readyMs: number;
  /** CPU time the tree had used by then: unlike the wall time, hardly moved by a busy machine */
  cpuMs: number;
  /** the service's node process */
  rssMB: number;
  /** every process of its tree (the worker's Chromium included), resident */
  treeRssMB: number;
  /** the same tree, proportional: shared pages split between the processes sharing them */
  treePssMB: number;
  processes: number;
};

export type StartupRow = {
  service: ServiceName;
  runtime: Runtime;
  samples: StartupSample[];
  median: StartupSample;
};

export type StartupResult = { runs: number; settleMs: number; bundleMB: Record<string, number>; rows: StartupRow[] };

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const medianOf = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const MB = 1024 * 1024;

const startOnce = async (
  service: ServiceName,
  runtime: Runtime,
  env: NodeJS.ProcessEnv,
  layout: string,
  settleMs: number,
): Promise<StartupSample> => {
  const port = String(await freePort());
  const ports =
    service === "gateway" ? { PORT: port, HOST: "127.0.0.1" } : { METRICS_PORT: port, METRICS_HOST: "127.0.0.1" };
  const started = performance.now();
  const child = spawnService(
    service,
    `${service}-${runtime}`,
    { ...env, ...ports },
    {
      ...(runtime === "compiled" ? { compiledIn: serviceDir(layout, service) } : {}),
    },
  );
  try {
    let readyMs: number | null = null;
    while (readyMs === null) {
      if (child.exited) throw new Error(`${service} (${runtime}) exited before it was ready`);
      if (performance.now() - started > 60_000) throw new Error(`${service} (${runtime}) not ready in 60 s`);
      const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) readyMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const cpuMs = descendants([child.pid]).reduce((sum, proc) => sum + proc.cpuMs, 0);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const tree = descendants([child.pid]);
    return {
      readyMs,
      cpuMs,
      rssMB: (procStat(child.nodePid)?.rssBytes ?? 0) / MB,
      treeRssMB: tree.reduce((sum, proc) => sum + proc.rssBytes, 0) / MB,
      treePssMB: tree.reduce((sum, proc) => sum + pssBytes(proc.pid), 0) / MB,
      processes: tree.length,
    };
  } finally {
    await child.stop();
  }
};

export const measureStartup = async ({
  env,
  runs,
  settleMs,
  say,
}: {
  env: NodeJS.ProcessEnv;
  runs: number;
  settleMs: number;
  say: (message: string) => void;
}): Promise<StartupResult> => {
  say("building and laying out the compiled services");
  const builds = await Promise.all(SERVICE_BUILDS.map(buildService));
  const bundleMB: Record<string, number> = {};
  for (const [index, build] of builds.entries()) {
    const { service } = SERVICE_BUILDS[index] as (typeof SERVICE_BUILDS)[number];
    const main = Object.entries(build.metafile?.outputs ?? {}).find(([file]) => file.endsWith("/main.js"));
    bundleMB[service] = (main?.[1].bytes ?? 0) / MB;
  }
  const layout = mkdtempSync(join(tmpdir(), "aeo-scan-image-"));
  try {
    for (const service of ["gateway", "worker"] as const) assembleService(service, layout);
    const samples = new Map<string, StartupSample[]>();
    for (let run = 0; run < runs; run++) {
      for (const service of ["gateway", "worker"] as const) {
        const order: Runtime[] = run % 2 === 0 ? ["tsx", "compiled"] : ["compiled", "tsx"];
        for (const runtime of order) {
          const sample = await startOnce(service, runtime, env, layout, settleMs);
          say(
            `${service} ${runtime} run ${run + 1}: ready in ${sample.readyMs.toFixed(0)} ms (${sample.cpuMs.toFixed(0)} ms CPU), node RSS ${sample.rssMB.toFixed(0)} MB`,
          );
          const key = `${service}/${runtime}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
        }
      }
    }
    const rows: StartupRow[] = [...samples].map(([key, list]) => {
      const [service, runtime] = key.split("/") as [ServiceName, Runtime];
      const median = (pick: (sample: StartupSample) => number) => medianOf(list.map(pick));
      return {
        service,
        runtime,
        samples: list,
        median: {
          readyMs: median((s) => s.readyMs),
          cpuMs: median((s) => s.cpuMs),
          rssMB: median((s) => s.rssMB),
          treeRssMB: median((s) => s.treeRssMB),
          treePssMB: median((s) => s.treePssMB),
          processes: median((s) => s.processes),
        },
      };
    });
    return { runs, settleMs, bundleMB, rows };
  } finally {
    rmSync(layout, { recursive: true, force: true });
  }
};

export type Machine = { cpus: number; loadAverage: number[]; node: string };

export const renderStartup = (result: StartupResult, machine: Machine): string => {
  const range = (row: StartupRow, pick: (sample: StartupSample) => number) => {
    const values = row.samples.map(pick);
    return `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
  };
  const lines = [
    `# Start time and memory: compiled vs tsx`,
    "",
    `Medians of ${result.runs} starts each (range in brackets); CPU is user + system time of the service's process tree at the first 200 of /readyz, memory ${result.settleMs} ms later.`,
    `Bundles: gateway ${result.bundleMB.gateway?.toFixed(1)} MiB, worker ${result.bundleMB.worker?.toFixed(1)} MiB (dist/main.js).`,
    `Node.js ${machine.node}, ${machine.cpus} cores, load average ${machine.loadAverage.map((v) => v.toFixed(1)).join(" ")} at the end: the wall times move with the machine's load, the CPU times hardly.`,
    "",
    "| service | runtime | spawn to ready (ms) | CPU to ready (ms) | node RSS (MB) | tree RSS (MB) | tree PSS (MB) | processes |",
    "|---|---|---|---|---|---|---|---|",
    ...result.rows.map(
      (row) =>
        `| ${row.service} | ${row.runtime} | ${row.median.readyMs.toFixed(0)} (${range(row, (s) => s.readyMs)}) | ${row.median.cpuMs.toFixed(0)} (${range(row, (s) => s.cpuMs)}) | ${row.median.rssMB.toFixed(0)} (${range(row, (s) => s.rssMB)}) | ${row.median.treeRssMB.toFixed(0)} | ${row.median.treePssMB.toFixed(0)} | ${row.median.processes} |`,
    ),
    "",
  ];
  return lines.join("\n");
};
