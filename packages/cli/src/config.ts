import { parseConfig } from "@scan/shared/config";
import { Config as WorkerConfig } from "@scan/worker/config";
import { z } from "zod";

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/**
 * The client's environment. With SCAN_API_URL it talks to that API; without, it scans in
 * this process with the worker's settings (and their defaults).
 */
export const CliConfig = WorkerConfig.pick({
  CHROMIUM_PATH: true,
  SCAN_ALLOWLIST: true,
  SCAN_PORTS: true,
  QUICK_RENDER: true,
  SCAN_TIMEOUT_MS: true,
  SETTLE_QUICK_MS: true,
  SETTLE_FULL_MS: true,
  MAX_HTML_BYTES: true,
  MAX_REDIRECTS: true,
}).extend({
  SCAN_API_URL: optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://127.0.0.1:3000" })),
  SCAN_API_KEY: optional(z.string()),
});
export type CliConfig = z.infer<typeof CliConfig>;

export const loadConfig = (env: NodeJS.ProcessEnv): CliConfig => parseConfig(CliConfig, env, "scan");
