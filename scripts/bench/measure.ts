/** Turns one mode's responses, the workers' logs and the /proc samples into its numbers. */
import type { ScanResult } from "./load";
import { chromiumUnder, type TreeUsage } from "./procfs";
import { latency, type ModeResult, mb } from "./report";
import type { Service } from "./stack";

/**
 * agentWaitMs: how long a full scan's agentic checks waited for axe-core after the page checks
 * ended (0 for a quick scan, and in logs older than that field): part of the worker's hold on
 * the scan since axe runs beside the checks rather than inside the capture
 */
type WorkerTimings = { captureMs: number; checksMs: number; agentWaitMs: number; storeMs: number; jobMs: number };

/** the worker's phases of one scan added up: capture, checks, the wait for axe, store */
const phaseSum = (t: WorkerTimings): number => t.captureMs + t.checksMs + t.agentWaitMs + t.storeMs;

/** The worker's own phase timings per scan id, from its "scan completed" log lines. */
const workerTimings = (workers: readonly Service[]): Map<string, WorkerTimings> => {
  const timings = new Map<string, WorkerTimings>();
  for (const worker of workers) {
    for (const record of worker.logs) {
      if (record.msg !== "scan completed" || typeof record.scanId !== "string") continue;
      timings.set(record.scanId, {
        captureMs: Number(record.captureMs),
        checksMs: Number(record.checksMs),
        agentWaitMs: Number(record.agentWaitMs ?? 0),
        storeMs: Number(record.storeMs),
        // the processor's whole time, from taking the job to returning (older logs: the phases)
        jobMs: Number(record.jobMs ?? Number(record.captureMs) + Number(record.checksMs) + Number(record.storeMs)),
      });
    }
  }
  return timings;
};

/**
 * Everything a caller waits for beyond the worker's own hold on the job: the gateway's request
 * handling, storing and queueing, the queue's hand-over to the worker and back, and reading and
 * answering the result.
 */
export const gatewayOverhead = (
  results: readonly ScanResult[],
  workers: readonly Service[],
  timings = workerTimings(workers),
) =>
  latency(
    results.flatMap((r) => {
      const t = r.status === 200 && r.scanId ? timings.get(r.scanId) : undefined;
      return t ? [r.ms - t.jobMs] : [];
    }),
  );

export const modeResult = (
  mode: "quick" | "full",
  results: readonly ScanResult[],
  wallMs: number,
  usage: TreeUsage,
  workers: readonly Service[],
  connections: number,
): ModeResult => {
  const ok = results.filter((r) => r.status === 200);
  const timings = workerTimings(workers);
  const own = ok.flatMap((r) => {
    const t = r.scanId ? timings.get(r.scanId) : undefined;
    return t ? [{ ...t, total: phaseSum(t), endToEnd: r.ms }] : [];
  });
  return {
    mode,
    workers: workers.length,
    connections,
    statuses: results.reduce<Record<string, number>>((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1;
      return acc;
    }, {}),
    latencyMs: latency(ok.map((r) => r.ms)),
    scansPerMinute: (ok.length / wallMs) * 60_000,
    rendered: ok.filter((r) => r.rendered).length,
    workerMs: {
      capture: latency(own.map((t) => t.captureMs)),
      checks: latency(own.map((t) => t.checksMs)),
      agentWait: latency(own.map((t) => t.agentWaitMs)),
      store: latency(own.map((t) => t.storeMs)),
      total: latency(own.map((t) => t.total)),
    },
    gatewayOverheadMs: gatewayOverhead(results, workers, timings),
    workerCpu: {
      cpuMs: usage.cpuMs,
      cpuPercent: usage.cpuPercent,
      cpuMsPerScan: results.length ? usage.cpuMs / results.length : Number.NaN,
      nodeCpuMsPerScan: results.length ? usage.nodeCpuMs / results.length : Number.NaN,
    },
    peakWorkerRssMB: mb(usage.peakWorkerRssBytes),
    peakTreePssMB: mb(usage.peakTreePssBytes),
    chromiumAtEnd: chromiumUnder(workers.map((w) => w.pid)).length,
    scans: results.map((r) => {
      const t = r.scanId ? timings.get(r.scanId) : undefined;
      return {
        target: r.target.replace(/^https?:\/\/[^/]+/, ""),
        status: r.status,
        ms: Math.round(r.ms * 10) / 10,
        workerMs: t ? phaseSum(t) : null,
        phases: t
          ? { captureMs: t.captureMs, checksMs: t.checksMs, agentWaitMs: t.agentWaitMs, storeMs: t.storeMs }
          : null,
        rendered: r.rendered,
      };
    }),
  };
};
