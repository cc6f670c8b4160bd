/**
 * scan <url> [--mode quick|full] [--json] [--timeout <seconds>]
 * scan audit <url> [--mode quick|full] [--max-pages <n>] [--json] [--timeout <seconds>]
 *
 * Scans a page and prints its scores and failing checks: through the API at SCAN_API_URL
 * (with SCAN_API_KEY when set; reading a scan back needs one), or in this process when no
 * API is configured.
 */
import { parseArgs } from "node:util";
import { normaliseScanUrl, ScanMode } from "@scan/contract";
import { CliError, scanViaApi } from "./api-client";
import { auditViaApi, formatAudit } from "./audit-client";
import { loadConfig } from "./config";
import { scanInProcess } from "./in-process";
import { createProgress } from "./progress";
import { formatReport, type Report } from "./report";

const USAGE = `usage: scan <url> [--mode quick|full] [--json] [--timeout <seconds>]
       scan audit <url> [--mode quick|full] [--max-pages <n>] [--json] [--timeout <seconds>]

  audit       audit the URL's whole site through the API (needs SCAN_API_URL and SCAN_API_KEY)
  --mode      quick (the 20 core checks) or full (all 53; the default)
  --max-pages an audit's most pages (default: the plan's ceiling)
  --json      print the report as JSON on stdout
  --timeout   give up waiting after this many seconds (default 120; an audit: 3600)

SCAN_API_URL   the API to use (e.g. http://127.0.0.1:3000); unset: scan in this process
SCAN_API_KEY   sent as Authorization: Bearer <key>; with it the client follows the scan
               until it finishes, without it it takes the API's answer within its wait
`;

const parse = (argv: string[]) => {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mode: { type: "string", default: "full" },
        json: { type: "boolean", default: false },
        timeout: { type: "string" },
        "max-pages": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
};

const main = async (): Promise<number> => {
  const { values, positionals } = parse(process.argv.slice(2));
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const auditing = positionals[0] === "audit";
  if (auditing) positionals.shift();
  if (positionals.length !== 1) throw new CliError(`give one URL to ${auditing ? "audit" : "scan"}\n\n${USAGE}`, 2);
  const mode = ScanMode.safeParse(values.mode);
  if (!mode.success) throw new CliError(`--mode must be quick or full, not ${values.mode}`, 2);
  const timeoutSeconds = Number(values.timeout ?? (auditing ? 3600 : 120));
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new CliError("--timeout must be a number of seconds", 2);
  // like the API's Form B: a bare host or host/path means https
  const url = normaliseScanUrl(positionals[0] as string, "B");
  if (!url.ok) throw new CliError(`${url.reason}`, 2);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }

  if (auditing)
    return audit(config, {
      url: url.url,
      mode: mode.data,
      timeoutSeconds,
      json: values.json,
      maxPages: values["max-pages"],
    });

  const progress = createProgress(process.stderr, `scan ${url.url}`);
  let report: Report;
  try {
    report = config.SCAN_API_URL
      ? await scanViaApi(
          {
            baseUrl: config.SCAN_API_URL,
            apiKey: config.SCAN_API_KEY,
            timeoutMs: timeoutSeconds * 1000,
            pollMs: 1000,
            onProgress: progress.update,
          },
          { url: url.url, mode: mode.data },
        )
      : await scanInProcess(config, { url: url.url, mode: mode.data }, progress.update);
  } finally {
    progress.stop();
  }
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.status === "completed" ? 0 : 1;
};

const audit = async (
  config: ReturnType<typeof loadConfig>,
  input: { url: string; mode: "quick" | "full"; timeoutSeconds: number; json: boolean; maxPages: string | undefined },
): Promise<number> => {
  if (!config.SCAN_API_URL || !config.SCAN_API_KEY)
    throw new CliError("an audit runs on the service: set SCAN_API_URL and SCAN_API_KEY", 2);
  const maxPages = input.maxPages === undefined ? undefined : Number(input.maxPages);
  if (maxPages !== undefined && (!Number.isInteger(maxPages) || maxPages < 1))
    throw new CliError("--max-pages must be a whole number from 1", 2);
  const progress = createProgress(process.stderr, `audit ${new URL(input.url).origin}`);
  let audited: Awaited<ReturnType<typeof auditViaApi>>;
  try {
    audited = await auditViaApi(
      {
        baseUrl: config.SCAN_API_URL,
        apiKey: config.SCAN_API_KEY,
        timeoutMs: input.timeoutSeconds * 1000,
        pollMs: 1000,
        onProgress: progress.update,
      },
      { url: input.url, mode: input.mode, ...(maxPages ? { maxPages } : {}) },
    );
  } finally {
    progress.stop();
  }
  process.stdout.write(input.json ? `${JSON.stringify(audited, null, 2)}\n` : formatAudit(audited));
  return audited.status === "completed" ? 0 : 1;
};

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scan: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
