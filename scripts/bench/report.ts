/** The benchmark's numbers, its targets (issue: fast and unbreakable), and the table. */

import { median, percentile } from "../../tests/support/corpus";
import type { BareRender } from "./baselines";
import type { HostileResult } from "./hostile";
import type { EndpointRun } from "./load";
import { type LighthouseComparison, type PageRow, renderLighthouse, renderPerPage } from "./per-page";
import type { ChromiumCensus } from "./procfs";

export type Latency = { n: number; p50: number; p95: number; p99: number; max: number };

export const latency = (values: readonly number[]): Latency => ({
  n: values.length,
  p50: median(values),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : Number.NaN,
});

export type ModeResult = {
  mode: "quick" | "full";
  workers: number;
  connections: number;
  statuses: Record<string, number>;
  /** client wall clock, request written to response read, of the 200s */
  latencyMs: Latency;
  scansPerMinute: number;
  /** whether the worker rendered the page (quick scans judge server-rendered pages without) */
  rendered: number;
  /** the worker's own phases, from its log */
  /** agentWait: a full scan's wait for axe-core after its page checks (0 for quick scans; absent in older reports) */
  workerMs: { capture: Latency; checks: Latency; agentWait?: Latency; store: Latency; total: Latency };
  /**
   * end to end minus the worker's whole hold on the job: HTTP, auth, rate limit, row, queue,
   * hand-over, wake-up, read; under this run's load (both cores busy rendering)
   */
  gatewayOverheadMs: Latency;
  /** the worker processes and their Chromium; nodeCpuMsPerScan: the worker processes alone */
  workerCpu: { cpuMs: number; cpuPercent: number; cpuMsPerScan: number; nodeCpuMsPerScan: number };
  peakWorkerRssMB: number;
  peakTreePssMB: number;
  chromiumAtEnd: number;
  /** every scan: page, status, client latency, the worker's own time (null without its log line) */
  scans: Array<{
    target: string;
    status: number;
    ms: number;
    workerMs: number | null;
    phases?: { captureMs: number; checksMs: number; agentWaitMs?: number; storeMs: number } | null;
    rendered: boolean | null;
  }>;
};

export type SoakResult = {
  scans: number;
  hangs: number;
  statuses: Record<string, number>;
  scanTimeoutMs: number;
  wallMs: number;
  rssMBAt200: number | null;
  rssMBAtEnd: number;
  rssGrowthPercent: number | null;
  treePssMBAt200: number | null;
  treePssMBAtEnd: number;
  /** the worker's RSS and its tree's PSS every 50 scans */
  memoryByScan: Array<{ scans: number; workerRssMB: number; treePssMB: number }>;
  before: ChromiumCensus;
  afterSoak: ChromiumCensus;
  afterStop: ChromiumCensus;
};

export type BenchResult = {
  startedAt: string;
  options: Record<string, unknown>;
  machine: {
    cpus: number;
    loadAverageStart: number[];
    loadAverageEnd: number[];
    node: string;
    /** the init the workers ran under (tini -s), or null */
    reaper?: string | null;
  };
  pages: number;
  bareRender?: BareRender & { latencyMs: Latency; concurrency: number };
  endpoints?: {
    healthz: EndpointRun;
    notFoundWithKey: EndpointRun;
    evaluate: EndpointRun;
    bareExpress: EndpointRun;
    connections: number;
    durationS: number;
  };
  modes: ModeResult[];
  throughput?: { workers: 1; scans: number; statuses: Record<string, number>; scansPerMinute: number };
  /** quick scans one at a time on one worker: what the gateway and the queue add to a scan */
  overhead?: { scans: number; statuses: Record<string, number>; latencyMs: Latency; gatewayOverheadMs: Latency };
  soak?: SoakResult;
  /** hostile targets: the time to each verdict against its budget */
  hostile?: HostileResult;
  /** what a stored scan costs in Postgres, by mode: the check list and the whole row (pg_column_size) */
  storage?: Array<{ mode: string; scans: number; checksBytes: number; rowBytes: number }>;
  /** per corpus page: bare render, quick and full end to end, the full scan's worker phases (p50 of its rounds) */
  perPage?: PageRow[];
  /** Lighthouse SEO-only against a full scan on the heaviest pages, or why it was not run */
  lighthouse?: LighthouseComparison | { skipped: string };
  /** the run compared with (`--before <bench.json>`): its quick scans a minute, one worker */
  before?: { file: string; throughputPerMinute: number | null };
  targets: Target[];
};

export type Target = { name: string; target: string; measured: string; pass: boolean | null };

const f0 = (value: number) => (Number.isFinite(value) ? String(Math.round(value)) : "n/a");
const f1 = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");

export const targetsOf = (result: BenchResult): Target[] => {
  const targets: Target[] = [];
  const bare = result.bareRender?.latencyMs.p50;
  for (const [mode, factor] of [
    ["quick", 1.3],
    ["full", 1.0],
  ] as const) {
    const run = result.modes.find((m) => m.mode === mode);
    if (!run || bare === undefined) continue;
    const ratio = run.latencyMs.p50 / bare;
    targets.push({
      name: `${mode} p50 vs bare render p50`,
      target: `≤ ${factor} ×`,
      measured: `${f0(run.latencyMs.p50)} / ${f0(bare)} ms = ${ratio.toFixed(2)} ×`,
      pass: ratio <= factor,
    });
  }
  const full = result.modes.find((m) => m.mode === "full");
  if (full) {
    targets.push({
      name: "full scan: the worker's checks p50 per page",
      target: "≤ 50 ms",
      measured: `${f1(full.workerMs.checks.p50)} ms (p95 ${f1(full.workerMs.checks.p95)})`,
      pass: full.workerMs.checks.p50 <= 50,
    });
  }
  if (result.lighthouse && "pages" in result.lighthouse) {
    const ratios = result.lighthouse.pages.map((page) => page.ratio);
    targets.push({
      name: `Lighthouse ${result.lighthouse.version} SEO-only / full scan p50, each of the ${ratios.length} heaviest pages`,
      target: "≥ 50 ×",
      measured: result.lighthouse.pages.map((page) => `${page.page} ${f1(page.ratio)} ×`).join(", "),
      pass: ratios.length > 0 && ratios.every((ratio) => ratio >= 50),
    });
  }
  if (result.throughput) {
    const before = result.before?.throughputPerMinute ?? null;
    targets.push({
      name: "quick scans a minute, one worker process",
      target: before === null ? "≥ 120" : `≥ ${f0(before)} (before, --before)`,
      measured: f0(result.throughput.scansPerMinute),
      pass: result.throughput.scansPerMinute >= (before ?? 120),
    });
  }
  if (result.soak) {
    const growth = result.soak.rssGrowthPercent;
    targets.push({
      name: `worker RSS growth, scan 200 → ${result.soak.scans} (medians of scans 150-250 and of the last 100)`,
      target: "< 10 %",
      measured:
        growth === null
          ? "n/a (soak under 200 scans)"
          : `${f0(result.soak.rssMBAt200 ?? 0)} → ${f0(result.soak.rssMBAtEnd)} MB = ${f1(growth)} %`,
      pass: growth === null ? null : growth < 10,
    });
    const left = result.soak.afterStop;
    targets.push({
      name: `Chromium left and zombies after ${result.soak.scans} scans, ${result.soak.hangs} hanging`,
      target: "0 and 0",
      measured: `${left.chromium} left, ${left.zombies} zombies (${result.soak.afterSoak.chromium} alive with the worker up, ${result.soak.afterSoak.zombies} zombies)`,
      pass: left.chromium === 0 && left.zombies === 0 && result.soak.afterSoak.zombies === 0,
    });
  }
  if (result.hostile) {
    const late = result.hostile.targets.filter((target) => !target.pass);
    targets.push({
      name: `hostile targets end within SCAN_TIMEOUT_MS (${result.hostile.scanTimeoutMs} ms) + their judging time, worst of each`,
      target: "all",
      measured: result.hostile.targets
        .map((target) => `${target.path} ${f0(target.worstMs)}/${f0(target.budgetMs)} ms`)
        .join(", "),
      pass: late.length === 0,
    });
  }
  if (result.endpoints) {
    const { evaluate, bareExpress } = result.endpoints;
    const share = (evaluate.requestsPerSecond / bareExpress.requestsPerSecond) * 100;
    targets.push({
      name: "POST /api/v1/aeo-2/evaluate vs bare express, requests/s",
      target: "≥ 40 %",
      measured: `${f0(evaluate.requestsPerSecond)} / ${f0(bareExpress.requestsPerSecond)} = ${f0(share)} %${
        evaluate.serverCpuUsPerRequest !== undefined && bareExpress.serverCpuUsPerRequest !== undefined
          ? ` (server CPU a request ${f0(evaluate.serverCpuUsPerRequest)} / ${f0(bareExpress.serverCpuUsPerRequest)} µs)`
          : ""
      }`,
      pass: share >= 40,
    });
  }
  if (result.overhead) {
    const o = result.overhead.gatewayOverheadMs;
    targets.push({
      name: "gateway overhead per quick scan (end to end minus the worker's time), one scan at a time, p50",
      target: "≤ 3 ms",
      measured: `${f1(o.p50)} ms (p95 ${f1(o.p95)}, ${o.n} scans)`,
      pass: o.p50 <= 3,
    });
  }
  return targets;
};

export const mb = (bytes: number) => bytes / 1024 / 1024;

export const renderTable = (result: BenchResult): string => {
  const lines: string[] = [];
  const { options } = result;
  lines.push("# Benchmark", "");
  lines.push(
    `\`pnpm bench\` ${result.startedAt}: ${result.pages} corpus pages on 127.0.0.1, gateway and ${String(options.workers)} worker process(es) (WORKER_CONCURRENCY ${String(options.workerConcurrency)}, ${result.machine.reaper ? "under tini -s" : "without an init that reaps"}), ${String(options.connections)} concurrent client connections, ${result.machine.cpus} cores, load average ${result.machine.loadAverageStart.map((l) => l.toFixed(1)).join(" ")} at start, ${result.machine.loadAverageEnd.map((l) => l.toFixed(1)).join(" ")} at end.`,
    "",
  );
  if (result.modes.length > 0 || result.bareRender) {
    lines.push(
      "| run | scans | p50 ms | p95 ms | p99 ms | scans/min | worker CPU % (ms/scan: all, node alone) | peak worker RSS MB | peak worker+Chromium PSS MB | Chromium at end |",
      "|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const run of result.modes) {
      const l = run.latencyMs;
      lines.push(
        `| ${run.mode} (${run.rendered} rendered) | ${l.n} | ${f0(l.p50)} | ${f0(l.p95)} | ${f0(l.p99)} | ${f0(run.scansPerMinute)} | ${f0(run.workerCpu.cpuPercent)} (${f0(run.workerCpu.cpuMsPerScan)}, ${f0(run.workerCpu.nodeCpuMsPerScan)}) | ${f0(run.peakWorkerRssMB)} | ${f0(run.peakTreePssMB)} | ${run.chromiumAtEnd} |`,
      );
    }
    const bare = result.bareRender;
    if (bare) {
      const l = bare.latencyMs;
      lines.push(
        `| bare Playwright render | ${l.n} | ${f0(l.p50)} | ${f0(l.p95)} | ${f0(l.p99)} | ${f0((l.n / bare.wallMs) * 60_000)} | | | | |`,
      );
    }
    lines.push("");
  }
  if (result.storage && result.storage.length > 0) {
    lines.push(
      "| stored scan | scans | check list bytes (mean) | whole row bytes (mean) | row after retention drops the list |",
      "|---|---|---|---|---|",
    );
    for (const row of result.storage) {
      lines.push(
        `| ${row.mode} | ${row.scans} | ${f0(row.checksBytes)} | ${f0(row.rowBytes)} | ${f0(row.rowBytes - row.checksBytes)} |`,
      );
    }
    lines.push("");
  }
  if (result.modes.length > 0) {
    lines.push(
      "| run | worker capture p50 / p95 ms | checks p50 / p95 | wait for axe p50 / p95 | store p50 / p95 | worker phases p50 / p95 | gateway overhead under this load, p50 ms | p95 |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const run of result.modes) {
      const w = run.workerMs;
      const both = (l: Latency | undefined) => (l ? `${f1(l.p50)} / ${f1(l.p95)}` : "n/a");
      lines.push(
        `| ${run.mode} | ${both(w.capture)} | ${both(w.checks)} | ${both(w.agentWait)} | ${both(w.store)} | ${both(w.total)} | ${f1(run.gatewayOverheadMs.p50)} | ${f1(run.gatewayOverheadMs.p95)} |`,
      );
    }
    lines.push("");
  }
  if (result.overhead) {
    const o = result.overhead;
    lines.push(
      `One scan at a time, one worker: ${o.scans} quick scans, end to end p50 ${f1(o.latencyMs.p50)} ms; gateway and queue overhead p50 ${f1(o.gatewayOverheadMs.p50)} ms, p95 ${f1(o.gatewayOverheadMs.p95)} ms, p99 ${f1(o.gatewayOverheadMs.p99)} ms.`,
      "",
    );
  }
  if (result.endpoints) {
    const e = result.endpoints;
    lines.push(
      `| endpoint (${e.connections} connections, ${e.durationS} s) | requests/s | server CPU µs/request | p50 ms | p99 ms | statuses |`,
      "|---|---|---|---|---|---|",
    );
    for (const [name, run] of [
      ["GET /healthz", e.healthz],
      ["GET /api/v1/<unknown> with a key (404)", e.notFoundWithKey],
      ["POST /api/v1/aeo-2/evaluate, agency key", e.evaluate],
      ["bare express POST, JSON", e.bareExpress],
    ] as const) {
      lines.push(
        `| ${name} | ${f0(run.requestsPerSecond)} | ${run.serverCpuUsPerRequest === undefined ? "n/a" : f0(run.serverCpuUsPerRequest)} | ${f1(run.p50Ms)} | ${f1(run.p99Ms)} | ${JSON.stringify(run.statuses)} |`,
      );
    }
    lines.push("");
  }
  if (result.soak) {
    const s = result.soak;
    lines.push(
      `Soak: ${s.scans} quick scans on one fresh worker, ${s.hangs} of them to targets that never answer (SCAN_TIMEOUT_MS ${s.scanTimeoutMs}), in ${f0(s.wallMs / 1000)} s; statuses ${JSON.stringify(s.statuses)}. Worker RSS (median of samples every 10 scans) ${s.rssMBAt200 === null ? "n/a" : f0(s.rssMBAt200)} MB around scan 200, ${f0(s.rssMBAtEnd)} MB over the last 100 scans; worker+Chromium PSS ${s.treePssMBAt200 === null ? "n/a" : f0(s.treePssMBAt200)} → ${f0(s.treePssMBAtEnd)} MB. Chromium processes of the run / zombies: before ${s.before.chromium} / ${s.before.zombies}, after the soak ${s.afterSoak.chromium} / ${s.afterSoak.zombies}, after the worker stopped ${s.afterStop.chromium} / ${s.afterStop.zombies} (zombies on the whole machine: ${s.before.zombiesOnMachine} → ${s.afterStop.zombiesOnMachine}).`,
      "",
    );
  }
  lines.push(...renderLighthouse(result.lighthouse), ...renderPerPage(result.perPage));
  lines.push("| target | wanted | measured | |", "|---|---|---|---|");
  for (const t of result.targets) {
    lines.push(`| ${t.name} | ${t.target} | ${t.measured} | ${t.pass === null ? "n/a" : t.pass ? "pass" : "MISS"} |`);
  }
  lines.push("");
  return lines.join("\n");
};
