import { RenderFailureCode, ScanMode } from "@scan/contract";
import type { Readiness } from "@scan/platform";
import type { BrowserPool } from "@scan/scanner";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export type WorkerMetrics = {
  registry: Registry;
  /** scan_duration_seconds{mode, outcome}: one scan attempt, from pick-up to stored result */
  scanDuration: Histogram<"mode" | "outcome">;
  /** scan_checks_total{area, status}: every check verdict of every completed scan */
  checksRun: Counter<"area" | "status">;
  /** scan_render_fallbacks_total{mode, reason}: completed scans judged on the served HTML because their render failed */
  renderFallbacks: Counter<"mode" | "reason">;
  /** browser_restarts_total{reason}: recycle (after BROWSER_RECYCLE_AFTER scans) or crash */
  browserRestarts: Counter<"reason">;
  /** webhook_delivery_attempts_total{result}: delivered, failed (will retry), gave_up */
  webhookAttempts: Counter<"result">;
  /** visibility_give_way_seconds{step, outcome}: a sample step's wait for interactive scans (clear, bound, stopping) */
  visibilityGiveWay: Histogram<"step" | "outcome">;
  /** browser_pool_browsers and browser_pool_contexts, read from the pool at scrape time */
  watchPool: (pool: BrowserPool) => void;
  /** dependency_up{dependency}: the readiness probes (browser, redis, postgres), asked at scrape time */
  watchDependencies: (probe: () => Promise<Readiness>) => void;
};

/** The worker's metrics, in a registry of its own, served on its metrics port. */
export const createWorkerMetrics = ({ defaults = true }: { defaults?: boolean } = {}): WorkerMetrics => {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const scanDuration = new Histogram({
    name: "scan_duration_seconds",
    help: "Scan attempts by mode and outcome (completed, upstream_failure, error), from pick-up to stored result",
    labelNames: ["mode", "outcome"] as const,
    buckets: [0.5, 1, 2, 3, 5, 8, 13, 20, 30, 45, 60, 120],
    registers,
  });
  const checksRun = new Counter({
    name: "scan_checks_total",
    help: "Checks run by completed scans, by area and verdict",
    labelNames: ["area", "status"] as const,
    registers,
  });
  const renderFallbacks = new Counter({
    name: "scan_render_fallbacks_total",
    help: "Completed scans judged on the HTML as served because their render failed, by mode and reason (a RenderFailureCode)",
    labelNames: ["mode", "reason"] as const,
    registers,
  });
  for (const mode of ScanMode.options) {
    for (const reason of RenderFailureCode.options) renderFallbacks.inc({ mode, reason }, 0);
  }
  const browserRestarts = new Counter({
    name: "browser_restarts_total",
    help: "Browsers launched to replace another: recycle (scan count reached) or crash (the browser died)",
    labelNames: ["reason"] as const,
    registers,
  });
  const webhookAttempts = new Counter({
    name: "webhook_delivery_attempts_total",
    help: "Callback POSTs by result: delivered, failed (another attempt follows), gave_up (no more attempts)",
    labelNames: ["result"] as const,
    registers,
  });
  for (const reason of ["recycle", "crash"]) browserRestarts.inc({ reason }, 0);
  const visibilityGiveWay = new Histogram({
    name: "visibility_give_way_seconds",
    help: "Time a visibility sample's step (claim, store, queue) waited for interactive scans running or waiting, by how the wait ended: clear (no scan left), bound (VISIBILITY_GIVE_WAY_MS), stopping",
    labelNames: ["step", "outcome"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers,
  });

  const watchPool = (pool: BrowserPool) => {
    new Gauge({
      name: "browser_pool_browsers",
      help: "Chromium browsers running in this worker (a recycled one counts until its last scan ends)",
      registers,
      collect() {
        this.set(pool.browserCount);
      },
    });
    new Gauge({
      name: "browser_pool_contexts",
      help: "Browser contexts open in this worker, the one prepared for the next scan included",
      registers,
      collect() {
        this.set(pool.contextCount);
      },
    });
  };

  const watchDependencies = (probe: () => Promise<Readiness>) => {
    new Gauge({
      name: "dependency_up",
      help: "1 when the dependency answered this scrape's readiness probe within READY_TIMEOUT_MS, else 0",
      labelNames: ["dependency"] as const,
      registers,
      async collect() {
        const state = await probe();
        for (const [dependency, check] of Object.entries(state.checks)) this.set({ dependency }, check.ok ? 1 : 0);
      },
    });
  };

  return {
    registry,
    scanDuration,
    checksRun,
    renderFallbacks,
    browserRestarts,
    webhookAttempts,
    visibilityGiveWay,
    watchPool,
    watchDependencies,
  };
};
