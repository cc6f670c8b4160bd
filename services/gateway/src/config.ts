import { ResponseForm } from "@scan/shared/envelope";
import { z } from "zod";

const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** The gateway's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .default("redis://127.0.0.1:6379"),
  QUEUE_PREFIX: z.string().min(1).default("bull"),
  PORT: intFrom(3000, 0, 65535),
  HOST: z.string().default("0.0.0.0"),
  /** how long POST /scan waits for the result before answering 202; below the spec's 35 s client timeout */
  SCAN_WAIT_MS: intFrom(30_000, 1, 34_000),
  /** the envelope form when a request has no X-Response-Form header */
  RESPONSE_FORM: ResponseForm.default("A"),
  /** largest JSON body accepted, in bytes */
  BODY_LIMIT_BYTES: intFrom(100 * 1024, 1024, 10 * 1024 * 1024),
  /** exact host:port pairs that may be scanned although private (tests, self-hosting) */
  SCAN_ALLOWLIST: z.string().default(""),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 500, 120_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n  ");
    throw new Error(`invalid gateway configuration:\n  ${problems}`);
  }
  return parsed.data;
};
