import type { Readiness } from "@scan/platform";
import type { Queue } from "bullmq";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** The queue states exported; `prioritized` holds jobs added with a priority, apart from `waiting`. */
export const QUEUE_STATES = ["waiting", "prioritized", "active", "delayed", "failed", "completed"] as const;
type QueueState = (typeof QUEUE_STATES)[number];

export type GatewayMetrics = {
  registry: Registry;
  /** http_request_duration_seconds{method, route, status}: route is the pattern, never the raw path */
  httpDuration: Histogram<"method" | "route" | "status">;
  /**
   * rate_limit_rejections_total{plan}: every 429 the rate limiter answers is counted here,
   * with the caller's plan (`anonymous`, `free`, `starter`, `pro`, `agency`).
   */
  rateLimitRejections: Counter<"plan">;
};

export type GatewayMetricsOptions = {
  /** queues whose depth is read from Redis at each scrape */
  queues: readonly Queue[];
  /** a scrape never waits longer than this for Redis */
  timeoutMs: number;
  /** the dependency probes of /readyz (each bounded by its own timeout), asked at every scrape */
  dependencies: () => Promise<Readiness>;
  onError?: (error: unknown) => void;
  /** process and Node.js runtime metrics (process_*, nodejs_*) */
  defaults?: boolean;
};

type QueueSample = { counts: Record<QueueState, number>; workers: number | null };
type Sample = Map<string, QueueSample | null>;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

/**
 * The gateway's metrics, in a registry of its own (several gateways can share a process in
 * tests). Queue depth is read from BullMQ when Prometheus scrapes, not kept in memory, so
 * every gateway replica reports the same, true numbers: aggregate them with max, not sum.
 */
export const createGatewayMetrics = ({
  queues,
  timeoutMs,
  dependencies,
  onError = () => undefined,
  defaults = true,
}: GatewayMetricsOptions): GatewayMetrics => {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP requests by method, route pattern and status; 499 is a client that went away first",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 35],
    registers: [registry],
  });
  const rateLimitRejections = new Counter({
    name: "rate_limit_rejections_total",
    help: "Requests answered 429 by the rate limiter, by the caller's plan",
    labelNames: ["plan"] as const,
    registers: [registry],
  });

  // one read of Redis per scrape, shared by the three queue gauges below
  let sampling: Promise<Sample> | null = null;
  const sample = (): Promise<Sample> => {
    sampling ??= (async () => {
      const entries = await Promise.all(
        queues.map(async (queue): Promise<[string, QueueSample | null]> => {
          try {
            // a Redis that refuses CLIENT LIST (some managed ones) loses the worker count only
            const workers = withTimeout(queue.getWorkersCount(), timeoutMs).catch(() => null);
            const counts = await withTimeout(queue.getJobCounts(...QUEUE_STATES), timeoutMs);
            return [
              queue.name,
              {
                counts: Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as Record<QueueState, number>,
                workers: await workers,
              },
            ];
          } catch (error) {
            onError(error);
            return [queue.name, null];
          }
        }),
      );
      return new Map(entries);
    })().finally(() => {
      sampling = null;
    });
    return sampling;
  };

  new Gauge({
    name: "scan_queue_jobs",
    help: "Jobs in each BullMQ state, read from Redis at scrape time; absent while Redis does not answer",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      const counts = await sample();
      this.reset();
      for (const [queue, sampled] of counts) {
        if (!sampled) continue;
        for (const state of QUEUE_STATES) this.set({ queue, state }, sampled.counts[state]);
      }
    },
  });
  new Gauge({
    name: "scan_queue_workers",
    help: "BullMQ workers connected to the queue (Redis CLIENT LIST), read at scrape time; absent while Redis does not answer",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      const counts = await sample();
      this.reset();
      for (const [queue, sampled] of counts) if (sampled?.workers != null) this.set({ queue }, sampled.workers);
    },
  });
  new Gauge({
    name: "scan_queue_up",
    help: "1 when the queue's depth could be read from Redis at this scrape, else 0",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      const counts = await sample();
      for (const [queue, states] of counts) this.set({ queue }, states ? 1 : 0);
    },
  });

  new Gauge({
    name: "dependency_up",
    help: "1 when the dependency answered this scrape's readiness probe within READY_TIMEOUT_MS, else 0",
    labelNames: ["dependency"] as const,
    registers: [registry],
    async collect() {
      const state = await dependencies();
      for (const [dependency, check] of Object.entries(state.checks)) this.set({ dependency }, check.ok ? 1 : 0);
    },
  });

  return { registry, httpDuration, rateLimitRejections };
};
