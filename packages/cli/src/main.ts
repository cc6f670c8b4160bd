/**
 * scan <url> [--mode quick|full] [--format text|json|csv|junit|sarif] [--output <file>]
 *            [--config <file>] [--min-score [area=]N] [--min-grade G] [--require-check id[,id]]
 *            [--assert key=level[:value]] [--timeout <seconds>] [--allow-page-failure]
 * scan audit <url> [--max-pages <n>] and the same options
 *
 * Scans a page and prints its scores and failing checks: through the API at SCAN_API_URL
 * (with SCAN_API_KEY when set; reading a scan back needs one), or in this process when no
 * API is configured. `scan audit` audits the URL's whole site through the API and judges the
 * site's scores, its site checks and each page's checks. Assertions from a config file and
 * flags gate a CI job (docs/cli.md).
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { reportCsv, siteChecks } from "@scan/audit";
import { allChecks } from "@scan/checks";
import { type AuditView, normaliseScanUrl, ScanMode } from "@scan/contract";
import {
  ANSI,
  exportedPagesOf,
  type PageReport,
  PLAIN,
  renderCsv,
  renderJson,
  renderJunit,
  renderSarif,
  renderText,
  type SarifLocations,
  streamAuditExport,
  TOOL,
  useColour,
} from "@scan/reports";
import { CliError, EXIT, scanViaApi } from "./api-client";
import {
  type Assertion,
  type AssertionResult,
  evaluateAssertions,
  evaluateAuditAssertions,
  mergeAssertions,
  readAssertions,
} from "./assertions";
import { auditPagesViaApi, auditViaApi, formatAudit } from "./audit-client";
import { type ReadPages, readAuditPages, writeParts, writePartsToFile } from "./audit-pages";
import { loadConfig } from "./config";
import { DEFAULT_CONFIG_FILE, loadConfigFile } from "./config-file";
import { assertionFlags, FlagError } from "./flags";
import type * as InProcess from "./in-process";
import { pageFailureOf } from "./page-failure";
import { createProgress } from "./progress";
import { formatSummary } from "./summary";
import { visibilityCommand } from "./visibility";

/**
 * The in-process scan (the browser pool, Playwright's driver and the capture) is loaded only by a
 * run that scans in-process, not by one through the API.
 */
const scanInProcess: typeof InProcess.scanInProcess = (...args) =>
  (require("./in-process") as typeof InProcess).scanInProcess(...args);

const FORMATS = ["text", "json", "csv", "junit", "sarif"] as const;
type Format = (typeof FORMATS)[number];

const USAGE = `usage: scan <url> [options]
       scan audit <url> [--max-pages <n>] [options]
       scan visibility <site-id> [--wait] [--min-citation-rate r] [--min-mention-rate r] [--cited-pages] (scan visibility --help)

  audit                     audit the URL's whole site through the API (needs SCAN_API_URL and SCAN_API_KEY);
                            the assertions judge the site's scores and grade, its site checks, and
                            each page check on every page
  --mode <quick|full>       quick (the 20 core checks) or full (all 57; the default)
  --max-pages <n>           an audit's most pages (default: the plan's ceiling)
  --format <format>         text (the default), json, csv, junit or sarif
  --json                    the same as --format json
  --output <file>           write the report to this file; the text report still goes to stdout
                            (an audit's csv is its site report; junit and sarif show every judged page)
  --timeout <seconds>       give up waiting after this many seconds (default 120; an audit: 3600)
  --sarif-locations <kind>  url (the default) or github: the page located without its scheme,
                            which GitHub code scanning accepts
  --allow-page-failure      a page that answers 4xx or 5xx, or does not answer, does not fail the run
                            (without it: exit 1, as Lighthouse CI does)

Assertions (exit 1 when an error-level one fails; see docs/cli.md):
  --config <file>           read mode and assertions from this file (default: ./${DEFAULT_CONFIG_FILE} if present)
  --min-score [area=]N      the overall score, or an area's (seo, aeo, geo), is at least N (0-100)
  --min-grade G             the grade is G or better (A+, A, B+, B, C, D, F)
  --require-check id[,id]   these checks pass (or do not apply); on an audit, a page check on every page
  --assert key=level[:v]    any assertion at any level, e.g. categories:seo=warn:80,
                            grade=error:B, title=error, llms-txt=warn:0.5, h1=off

Exit codes: 0 passed, 1 an error-level assertion failed or the page itself failed (4xx, 5xx,
            no answer), 2 bad usage or config, 3 no result (the scan or audit failed on the
            service's side, or could not be run or followed)

SCAN_API_URL   the API to use (e.g. http://127.0.0.1:3000); unset: scan in this process
SCAN_API_KEY   sent as Authorization: Bearer <key>; with it the client follows the scan
               until it finishes, without it it takes the API's answer within its wait
NO_COLOR, FORCE_COLOR   turn colours off, or on when not writing to a terminal
`;

const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, EXIT.usage);

const parse = (argv: string[]) => {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mode: { type: "string" },
        json: { type: "boolean", default: false },
        format: { type: "string" },
        output: { type: "string" },
        timeout: { type: "string" },
        "max-pages": { type: "string" },
        "sarif-locations": { type: "string", default: "url" },
        config: { type: "string" },
        "min-score": { type: "string", multiple: true },
        "min-grade": { type: "string" },
        "require-check": { type: "string", multiple: true },
        assert: { type: "string", multiple: true },
        "allow-page-failure": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
};

type Options = ReturnType<typeof parse>["values"];

const formatOf = (values: Options): Format => {
  if (values.json && values.format !== undefined && values.format !== "json") {
    throw usageError(`--json and --format ${values.format} contradict each other`);
  }
  const format = values.json ? "json" : (values.format ?? "text");
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw usageError(`--format must be one of ${FORMATS.join(", ")}, not ${format}`);
  }
  return format as Format;
};

const PAGE_CHECKS = allChecks.map((check) => check.id);
const SITE_CHECKS = siteChecks.map((check) => check.id);

/**
 * The assertions of the config file, then the flags' over them; a usage error names what is
 * wrong. An audit also knows the site checks' ids; a scan refuses them, saying where they run.
 */
const assertionsOf = (
  values: Options,
  fileAssertions: Record<string, unknown> | undefined,
  file: string,
  auditing: boolean,
) => {
  const known = new Set(auditing ? [...PAGE_CHECKS, ...SITE_CHECKS] : PAGE_CHECKS);
  const elsewhere = auditing ? new Set<string>() : new Set(SITE_CHECKS);
  try {
    const flags = assertionFlags({
      minScore: values["min-score"],
      minGrade: values["min-grade"],
      requireCheck: values["require-check"],
      assert: values.assert,
    });
    return mergeAssertions(
      readAssertions(fileAssertions ?? {}, known, file, elsewhere),
      readAssertions(flags, known, "flags", elsewhere),
    );
  } catch (error) {
    if (error instanceof FlagError || error instanceof Error) throw usageError(error.message);
    throw error;
  }
};

type RenderOptions = { colour: boolean; locations: SarifLocations };

const render = (
  format: Format,
  page: PageReport,
  results: AssertionResult[],
  { colour, locations }: RenderOptions,
): string => {
  switch (format) {
    case "text":
      return renderText([page], colour ? ANSI : PLAIN);
    case "json":
      return renderJson(page, { assertions: results });
    case "csv":
      return renderCsv([page]);
    case "junit":
      return renderJunit([page], TOOL);
    case "sarif":
      return renderSarif([page], TOOL, { locations });
  }
};

const main = async (): Promise<number> => {
  const argv = process.argv.slice(2);
  if (argv[0] === "visibility") return visibilityCommand(argv.slice(1), () => loadConfig(process.env));
  const { values, positionals } = parse(argv);
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  const format = formatOf(values);
  const locations = values["sarif-locations"];
  if (locations !== "url" && locations !== "github") {
    throw usageError(`--sarif-locations must be url or github, not ${locations}`);
  }
  const auditing = positionals[0] === "audit";
  if (auditing) positionals.shift();
  if (positionals.length !== 1) throw usageError(`give one URL to ${auditing ? "audit" : "scan"}`);
  const timeoutSeconds = Number(values.timeout ?? (auditing ? 3600 : 120));
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw usageError("--timeout must be a number of seconds");

  let file: ReturnType<typeof loadConfigFile>;
  try {
    file = loadConfigFile(values.config, process.cwd());
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
  const assertions: Assertion[] = assertionsOf(values, file.assertions, file.path ?? "config", auditing);
  const mode = ScanMode.safeParse(values.mode ?? file.mode ?? "full");
  if (!mode.success) throw usageError(`--mode must be quick or full, not ${values.mode}`);
  // like the API's Form B: a bare host or host/path means https
  const url = normaliseScanUrl(positionals[0] as string, "B");
  if (!url.ok) throw usageError(`${url.reason}`);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }

  if (auditing)
    return audit(config, {
      url: url.url,
      mode: mode.data,
      timeoutSeconds,
      maxPages: values["max-pages"],
      format,
      output: values.output,
      locations,
      assertions,
    });

  const progress = createProgress(process.stderr, `scan ${url.url}`);
  let page: PageReport;
  try {
    page = config.SCAN_API_URL
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

  const results = page.status === "completed" ? evaluateAssertions(assertions, page) : [];
  emit(
    format,
    values.output,
    (colour) => render(format, page, results, { colour, locations }),
    (colour) => renderText([page], colour ? ANSI : PLAIN),
    results,
  );

  const failure = pageFailureOf(page);
  const allowed = values["allow-page-failure"];
  if (failure)
    process.stderr.write(
      `scan: the page failed: ${failure}${allowed ? " Allowed by --allow-page-failure." : " Exit 1; --allow-page-failure lets it pass."}\n`,
    );
  if (failure && !allowed) return EXIT.pageFailed;
  if (page.status !== "completed") return failure ? EXIT.ok : EXIT.noResult;
  return results.some((result) => result.level === "error" && !result.passed) ? EXIT.assertionFailed : EXIT.ok;
};

/** Writes the report to --output (the text report then to stdout) or to stdout, and the assertions' summary to stderr. */
const emit = (
  format: Format,
  output: string | undefined,
  render: (colour: boolean) => string,
  text: (colour: boolean) => string,
  results: AssertionResult[],
) => {
  const stdoutColour = useColour(process.stdout.isTTY === true, process.env);
  if (output !== undefined) {
    try {
      // a file never gets colours, whatever the terminal
      writeFileSync(output, render(false));
    } catch (error) {
      throw new CliError(`cannot write ${output}: ${(error as Error).message}`, EXIT.usage);
    }
    process.stdout.write(text(stdoutColour));
    process.stderr.write(`scan: wrote the ${format} report to ${output}\n`);
  } else {
    process.stdout.write(render(stdoutColour));
  }
  process.stderr.write(formatSummary(results, useColour(process.stderr.isTTY === true, process.env) ? ANSI : PLAIN));
};

/** As `emit`, for a report written in parts as its pages are read, never held whole. */
const emitParts = async (
  format: Format,
  output: string | undefined,
  parts: AsyncIterable<string>,
  text: (colour: boolean) => string,
  results: AssertionResult[],
) => {
  if (output !== undefined) {
    try {
      await writePartsToFile(parts, output);
    } catch (error) {
      throw new CliError(`cannot write ${output}: ${(error as Error).message}`, EXIT.usage);
    }
    process.stdout.write(text(useColour(process.stdout.isTTY === true, process.env)));
    process.stderr.write(`scan: wrote the ${format} report to ${output}\n`);
  } else {
    await writeParts(parts, process.stdout);
  }
  process.stderr.write(formatSummary(results, useColour(process.stderr.isTTY === true, process.env) ? ANSI : PLAIN));
};

type AuditInput = {
  url: string;
  mode: "quick" | "full";
  timeoutSeconds: number;
  maxPages: string | undefined;
  format: Format;
  output: string | undefined;
  locations: SarifLocations;
  assertions: Assertion[];
};

const audit = async (config: ReturnType<typeof loadConfig>, input: AuditInput): Promise<number> => {
  if (!config.SCAN_API_URL || !config.SCAN_API_KEY)
    throw new CliError("an audit runs on the service: set SCAN_API_URL and SCAN_API_KEY", EXIT.usage);
  const maxPages = input.maxPages === undefined ? undefined : Number(input.maxPages);
  if (maxPages !== undefined && (!Number.isInteger(maxPages) || maxPages < 1))
    throw new CliError("--max-pages must be a whole number from 1", EXIT.usage);
  const client = { baseUrl: config.SCAN_API_URL, apiKey: config.SCAN_API_KEY };
  const progress = createProgress(process.stderr, `audit ${new URL(input.url).origin}`);
  let audited: AuditView;
  try {
    audited = await auditViaApi(
      { ...client, timeoutMs: input.timeoutSeconds * 1000, pollMs: 1000, onProgress: progress.update },
      { url: input.url, mode: input.mode, ...(maxPages ? { maxPages } : {}) },
    );
  } finally {
    progress.stop();
  }
  const { format } = input;
  const report = audited.report;
  if (audited.status !== "completed" || !report) {
    // nothing to judge or to export: the audit as it ended
    process.stdout.write(
      format === "json" ? `${JSON.stringify({ ...audited, assertions: [] }, null, 2)}\n` : formatAudit(audited),
    );
    if (input.output !== undefined)
      process.stderr.write(`scan: the audit ended ${audited.status}: no report to write to ${input.output}\n`);
    return EXIT.noResult;
  }

  // the pages, a hundred a read, read once: for the reports that show them, into a temporary file
  // they read again a pass at a time; and to name the pages a page check fell short on
  const showsPages = format === "junit" || format === "sarif";
  let pages: ReadPages | null = null;
  if (showsPages) {
    pages = await readAuditPages(auditPagesViaApi(client, audited.id), { spool: true });
    if (pages.pruned) {
      await pages.spooled?.remove();
      throw new CliError(`the checks of audit ${audited.id}'s pages were pruned: it has no ${format} report`);
    }
  }
  try {
    const judge = () =>
      evaluateAuditAssertions(input.assertions, {
        mode: audited.mode,
        report,
        shortfalls: pages?.shortfalls ?? null,
      });
    let results = judge();
    const pageChecks = new Set(report.page_checks.map((check) => check.id));
    if (pages === null && results.some((result) => !result.passed && pageChecks.has(result.key))) {
      try {
        pages = await readAuditPages(auditPagesViaApi(client, audited.id), { spool: false });
        results = judge();
      } catch (error) {
        // the verdict stands without the pages' names
        process.stderr.write(`scan: could not read the audit's pages to name them: ${(error as Error).message}\n`);
      }
    }

    const spooled = pages?.spooled;
    if (showsPages && spooled) {
      const parts = streamAuditExport(
        format,
        {
          id: audited.id,
          url: audited.url,
          mode: audited.mode,
          completedAt: audited.completed_at,
          report,
          pages: () => exportedPagesOf(spooled.read(), audited.mode),
        },
        TOOL,
        { locations: input.locations },
      );
      await emitParts(format, input.output, parts, () => formatAudit(audited), results);
    } else {
      const render = (): string => {
        switch (format) {
          case "json":
            return `${JSON.stringify({ ...audited, assertions: results }, null, 2)}\n`;
          case "csv":
            return reportCsv(report);
          default:
            return formatAudit(audited);
        }
      };
      emit(format, input.output, render, () => formatAudit(audited), results);
    }
    return results.some((result) => result.level === "error" && !result.passed) ? EXIT.assertionFailed : EXIT.ok;
  } finally {
    await pages?.spooled?.remove();
  }
};

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scan: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : EXIT.noResult;
  },
);
