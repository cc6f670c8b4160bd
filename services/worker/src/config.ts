import { CommonConfig, intFrom, parseConfig } from "@scan/shared/config";
import { z } from "zod";

/** The worker's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  ...CommonConfig,
  CHROMIUM_PATH: z.string().min(1).optional(),
  /** concurrent scans per process; more than one render per core lowers throughput */
  WORKER_CONCURRENCY: intFrom(1, 1, 32),
  /** the whole capture of one page, fetch and render; keep below the gateway's SCAN_WAIT_MS */
  SCAN_TIMEOUT_MS: intFrom(20_000, 1_000, 120_000),
  SETTLE_QUICK_MS: intFrom(3_000, 100, 60_000),
  SETTLE_FULL_MS: intFrom(8_000, 100, 60_000),
  MAX_HTML_BYTES: intFrom(5 * 1024 * 1024, 64 * 1024, 50 * 1024 * 1024),
  MAX_REDIRECTS: intFrom(10, 0, 20),
  BROWSER_RECYCLE_AFTER: intFrom(200, 1, 100_000),
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000, 1_000, 300_000),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => parseConfig(Config, env, "worker");
