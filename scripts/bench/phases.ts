/** The benchmark's phases that need more than one drive: the endpoint comparison and the soak. */
import { median } from "../../tests/support/corpus";
import { startBareExpress } from "./baselines";
import { driveEndpoint, driveScans, type EndpointRun, EVALUATE_BODY, type ScanResult } from "./load";
import { type ChromiumCensus, descendants, procStat, pssBytes } from "./procfs";
import { type BenchResult, mb, type SoakResult } from "./report";
import type { Service } from "./stack";

export const statusCounts = (results: readonly ScanResult[]): Record<string, number> =>
  results.reduce<Record<string, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});

/**
 * A drive with the serving process's CPU time per request: on a shared machine requests per
 * second move with the neighbours, the CPU a request costs the server much less.
 */
const withServerCpu = async (pid: number, drive: () => Promise<EndpointRun>): Promise<EndpointRun> => {
  const before = procStat(pid)?.cpuMs;
  const run = await drive();
  const after = procStat(pid)?.cpuMs;
  if (before === undefined || after === undefined || run.requests === 0) return run;
  return { ...run, serverCpuUsPerRequest: ((after - before) * 1000) / run.requests };
};

/**
 * The gateway on a cheap endpoint (/healthz, and a 404 that passes authentication and the rate
 * limiter), and POST /api/v1/aeo-2/evaluate with an agency key against a bare express endpoint
 * parsing the same body. Each is driven for a while first, unrecorded (a cold process runs
 * its first thousands of requests through the interpreter and fills its connection pools).
 * Evaluate and bare express then alternate twice and the better run of each is kept: the
 * machine is shared, and a neighbour's burst is not the gateway's cost.
 */
export const measureEndpoints = async (
  gateway: { url: string; pid: number },
  keyed: Record<string, string>,
  connections: number,
  durationS: number,
): Promise<NonNullable<BenchResult["endpoints"]>> => {
  const gatewayUrl = gateway.url;
  const body = JSON.stringify(EVALUATE_BODY);
  const drive = { connections, durationS };
  const warm = { connections, durationS: Math.min(durationS, 3) };
  const evaluate = { url: `${gatewayUrl}/api/v1/aeo-2/evaluate`, method: "POST", headers: keyed, body } as const;
  const notFound = { url: `${gatewayUrl}/api/v1/bench-unknown`, headers: keyed };
  await driveEndpoint({ ...evaluate, ...warm });
  await driveEndpoint({ ...notFound, ...warm });
  const healthz = await withServerCpu(gateway.pid, () => driveEndpoint({ url: `${gatewayUrl}/healthz`, ...drive }));
  const notFoundWithKey = await withServerCpu(gateway.pid, () => driveEndpoint({ ...notFound, ...drive }));
  const bare = await startBareExpress();
  const bareRuns: EndpointRun[] = [];
  const evaluateRuns: EndpointRun[] = [];
  try {
    const bareEvaluate = { url: `${bare.url}/evaluate`, method: "POST", body } as const;
    await driveEndpoint({ ...bareEvaluate, ...warm });
    for (let i = 0; i < 2; i++) {
      bareRuns.push(await withServerCpu(bare.pid, () => driveEndpoint({ ...bareEvaluate, ...drive })));
      evaluateRuns.push(await withServerCpu(gateway.pid, () => driveEndpoint({ ...evaluate, ...drive })));
    }
  } finally {
    await bare.stop();
  }
  const best = (runs: EndpointRun[]) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  return { healthz, notFoundWithKey, evaluate: best(evaluateRuns), bareExpress: best(bareRuns), ...drive };
};

/**
 * Quick scans on one fresh worker, some of them to targets that hang: the worker's RSS (and
 * its Chromium's PSS) around scan 200 and around the last, and the run's Chromium processes
 * and zombies before, after, and once the worker has stopped.
 *
 * A worker's RSS at one instant says more about when V8 last collected than about what it
 * keeps: its heap swings between about 100 and 330 MB while what survives a full collection
 * stays at 83 MB over 600 scans. So memory is sampled every 10 scans, and "at scan 200" is the
 * median of the samples from scan 150 to 250, "at scan N" that of the last 100 scans.
 */
export const soak = async ({
  gatewayUrl,
  targets,
  hangs,
  census,
  scanTimeoutMs,
  startWorker,
}: {
  gatewayUrl: string;
  targets: readonly string[];
  hangs: number;
  /** the run's Chromium processes and zombies (trackChromium) */
  census: () => ChromiumCensus;
  scanTimeoutMs: number;
  startWorker: () => Promise<Service>;
}): Promise<SoakResult> => {
  const before = census();
  const worker = await startWorker();
  const at = new Map<number, { rss: number; pss: number }>();
  const probe = (done: number) => {
    at.set(done, {
      rss: procStat(worker.nodePid)?.rssBytes ?? 0,
      pss: descendants([worker.pid]).reduce((sum, proc) => sum + pssBytes(proc.pid), 0),
    });
  };
  const run = await driveScans({
    gatewayUrl,
    headers: {},
    targets,
    mode: "quick",
    // one scan running and the next queued: the worker never waits for the client
    connections: 2,
    onResult: (_result, done) => {
      if (done % 10 === 0) probe(done);
    },
  });
  probe(targets.length);
  const afterSoak = census();
  await worker.stop();
  // a moment for whatever the worker's exit orphaned to be reparented and reaped
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const afterStop = census();
  const n = targets.length;
  const level = (from: number, to: number) => {
    const samples = [...at].filter(([scans]) => scans >= from && scans <= to).map(([, sample]) => sample);
    return { rss: median(samples.map((s) => s.rss)), pss: median(samples.map((s) => s.pss)) };
  };
  // the two windows must not overlap
  const first = n >= 350 ? level(150, 250) : undefined;
  const last = level(Math.max(n - 100, 251), n);
  return {
    scans: run.results.length,
    hangs,
    statuses: statusCounts(run.results),
    scanTimeoutMs,
    wallMs: run.wallMs,
    rssMBAt200: first ? mb(first.rss) : null,
    rssMBAtEnd: mb(last.rss),
    rssGrowthPercent: first ? ((last.rss - first.rss) / first.rss) * 100 : null,
    treePssMBAt200: first ? mb(first.pss) : null,
    treePssMBAtEnd: mb(last.pss),
    memoryByScan: [...at]
      .filter(([scans]) => scans % 50 === 0 || scans === n)
      .map(([scans, { rss, pss }]) => ({ scans, workerRssMB: mb(rss), treePssMB: mb(pss) })),
    before,
    afterSoak,
    afterStop,
  };
};
