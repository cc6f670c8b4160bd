import { CommonConfig, parseConfig } from "@scan/platform";
// the settings alone: a run through the API never loads the scanner and its browser driver
import { ScanSettings } from "@scan/scanner/settings";
import { z } from "zod";

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/**
 * The client's environment. With SCAN_API_URL it talks to that API; without, it scans in
 * this process with the scanner's settings (and their defaults), as the worker reads them.
 */
export const CliConfig = z.object({
  ...ScanSettings,
  SCAN_ALLOWLIST: CommonConfig.SCAN_ALLOWLIST,
  SCAN_PORTS: CommonConfig.SCAN_PORTS,
  SCAN_API_URL: optional(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://127.0.0.1:3000" }),
  ).describe(
    "the API the client calls; unset, it scans in-process (then `CHROMIUM_PATH`, `SCAN_ALLOWLIST`, `SCAN_PORTS`, `SCAN_TIMEOUT_MS`, `SETTLE_*_MS`, `MAX_*`, `BROWSER_WEBMCP` and `QUICK_RENDER` apply as for the worker)",
  ),
  SCAN_API_KEY: optional(z.string()).describe(
    "sent as `Authorization: Bearer <key>`; with it the client follows the scan asynchronously, without it it takes the API's synchronous answer (client)",
  ),
});
export type CliConfig = z.infer<typeof CliConfig>;

export const loadConfig = (env: NodeJS.ProcessEnv): CliConfig => parseConfig(CliConfig, env, "scan");
