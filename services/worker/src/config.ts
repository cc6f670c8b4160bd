import { CommonConfig, intFrom, OpsConfig, parseConfig } from "@scan/platform";
import { ScanSettings } from "@scan/scanner";
import { z } from "zod";

/** The worker's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  ...CommonConfig,
  ...ScanSettings,
  /** concurrent scans per process; more than one render per core lowers throughput */
  WORKER_CONCURRENCY: intFrom(1, 1, 32),
  BROWSER_RECYCLE_AFTER: intFrom(200, 1, 100_000),
  /** how long a DNS answer (or a failure, for a tenth of it) is reused across scans */
  DNS_CACHE_TTL_MS: intFrom(60_000, 0, 3_600_000),
  /** how long a subresource's host may take to resolve before the render blocks the request */
  SUBRESOURCE_DNS_TIMEOUT_MS: intFrom(1_000, 50, 30_000),
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000, 1_000, 300_000),
  /** how often the worker sweeps for scans whose job was lost (Redis restarted, worker died twice) */
  REAPER_INTERVAL_MS: intFrom(30_000, 100, 3_600_000),
  /** a queued or running scan unchanged this long is checked; default 2 × (SCAN_TIMEOUT_MS + 10 s) */
  ORPHAN_AFTER_MS: z.coerce.number().int().min(100).max(86_400_000).optional(),
  ...OpsConfig,
  /** the worker's own port for /metrics, /healthz and /readyz (0: any free port) */
  METRICS_PORT: intFrom(9464, 0, 65535),
  METRICS_HOST: z.string().default("0.0.0.0"),
  /** callback deliveries: attempts in all, the first retry's delay (doubling each time), one POST's limit */
  WEBHOOK_ATTEMPTS: intFrom(8, 1, 25),
  WEBHOOK_BACKOFF_MS: intFrom(5_000, 10, 3_600_000),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100, 60_000),
  WEBHOOK_CONCURRENCY: intFrom(4, 1, 64),
  /** largest gzipped snapshot kept for the fix and content generators (scans that ask for it) */
  SNAPSHOT_MAX_BYTES: intFrom(4 * 1024 * 1024, 64 * 1024, 64 * 1024 * 1024),
  /** how long a kept snapshot is readable before it is deleted, in seconds */
  SNAPSHOT_RETENTION_S: intFrom(3_600, 60, 30 * 86_400),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => parseConfig(Config, env, "worker");
