import { z } from "zod";

const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** The worker's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .default("redis://127.0.0.1:6379"),
  /** BullMQ key prefix; separate prefixes are separate queues on one Redis */
  QUEUE_PREFIX: z.string().min(1).default("bull"),
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
  /** exact host:port pairs that may be scanned although private (tests, self-hosting) */
  SCAN_ALLOWLIST: z.string().default(""),
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000, 1_000, 300_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n  ");
    throw new Error(`invalid worker configuration:\n  ${problems}`);
  }
  return parsed.data;
};
