import { CommonConfig, intFrom, parseConfig } from "@scan/shared/config";
import { ResponseForm } from "@scan/shared/envelope";
import { z } from "zod";

/** The gateway's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  ...CommonConfig,
  PORT: intFrom(3000, 0, 65535),
  HOST: z.string().default("0.0.0.0"),
  /** how long POST /scan waits for the result before answering 202; below the spec's 35 s client timeout */
  SCAN_WAIT_MS: intFrom(30_000, 1, 34_000),
  /** the envelope form when a request has no X-Response-Form header */
  RESPONSE_FORM: ResponseForm.default("A"),
  /** largest JSON body accepted, in bytes */
  BODY_LIMIT_BYTES: intFrom(100 * 1024, 1024, 10 * 1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 500, 120_000),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => parseConfig(Config, env, "gateway");
