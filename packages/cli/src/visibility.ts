import { parseArgs } from "node:util";
import {
  AiEngine,
  type CitedPagesView,
  CitedPagesView as CitedPagesViewSchema,
  type VisibilityRunView,
  VisibilityRunView as VisibilityRunViewSchema,
} from "@scan/contract";
import { apiCaller, CliError, EXIT } from "./api-client";
import type { CliConfig } from "./config";
import { createProgress } from "./progress";

/**
 * `scan visibility <site-id>`: asks the AI engines a site's prompts through the API (a
 * visibility run, docs/visibility.md) or reads a run, prints each engine's mention and citation
 * rates with their 95 % Wilson intervals, and gates on the rates' point estimates.
 */

export const VISIBILITY_USAGE = `usage: scan visibility <site-id> [--wait] [options]
       scan visibility --run <run-id> [--wait] [options]

  <site-id>                 start a run of the site's prompts (a site id from GET /api/v1/sites)
  --run <run-id>            read this run instead of starting one
  --wait                    wait until the run has ended (implied by --min-citation-rate and --min-mention-rate)
  --engine <engine>         only this engine's rates (chatgpt, claude, perplexity, gemini); repeatable
  --min-citation-rate <r>   each engine's citation rate is at least r (0 to 1)
  --min-mention-rate <r>    each engine's mention rate is at least r (0 to 1)
  --cited-pages             once the run has completed, scan its cited pages (the brand's most cited, and
                            the pages cited where the brand was not) and list them side by side; implies --wait
  --json                    the run as GET /api/v1/visibility/runs/{id} answers it, with the assertions
  --timeout <seconds>       give up waiting after this many seconds (default 1800)

A rate is judged by its point estimate (answers naming or citing the brand over answers); the
95 % interval is shown beside it. Needs SCAN_API_URL and SCAN_API_KEY.

Exit codes: 0 passed, 1 a rate below its minimum, 2 bad usage, 3 no result (the run failed or
            was cancelled, an engine had no answer to judge, --timeout passed, the API refused,
            --cited-pages of a run that did not complete)
`;

export type RateAssertion = {
  engine: string;
  rate: "mention_rate" | "citation_rate";
  minimum: number;
  passed: boolean;
  /** the point estimate; null when the engine answered nothing */
  actual: number | null;
  low: number;
  high: number;
  n: number;
  message: string;
};

const usageError = (message: string) => new CliError(`${message}\n\n${VISIBILITY_USAGE}`, EXIT.usage);

const ENDED = new Set(["completed", "failed", "cancelled"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** a run's read counts against the key's hourly limit: read it seldom */
const MAX_POLL_MS = 15_000;

const rateOf = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const rate = /^(0(\.\d+)?|1(\.0+)?)$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isNaN(rate)) throw usageError(`${flag} must be a number from 0 to 1, not ${value}`);
  return rate;
};

const percent = (value: number | null) => (value === null ? "n/a" : `${(value * 100).toFixed(0)} %`);
const shown = (rate: { rate: number | null; low: number; high: number; n: number }) =>
  `${percent(rate.rate)} (${percent(rate.low)}–${percent(rate.high)}, n=${rate.n})`;

/** Each engine's rates judged against the minimums, by their point estimates. */
export const judgeRates = (
  run: VisibilityRunView,
  engines: readonly string[],
  minimums: { mention_rate?: number | undefined; citation_rate?: number | undefined },
): RateAssertion[] => {
  const out: RateAssertion[] = [];
  for (const measured of run.measures?.engines ?? []) {
    if (!engines.includes(measured.engine)) continue;
    for (const rate of ["mention_rate", "citation_rate"] as const) {
      const minimum = minimums[rate];
      if (minimum === undefined) continue;
      const { rate: actual, low, high, n } = measured[rate];
      const passed = actual !== null && actual >= minimum;
      const name = rate === "mention_rate" ? "mention rate" : "citation rate";
      out.push({
        engine: measured.engine,
        rate,
        minimum,
        passed,
        actual,
        low,
        high,
        n,
        message:
          actual === null
            ? `${measured.engine} ${name}: no answer to judge (minimum ${minimum})`
            : `${measured.engine} ${name} ${percent(actual)} (95 % ${percent(low)}–${percent(high)}) ${passed ? "≥" : "<"} minimum ${percent(minimum)}`,
      });
    }
  }
  return out;
};

/** The run as text: its state, then a line per engine with both rates and their intervals. */
export const formatRun = (run: VisibilityRunView, engines: readonly string[]): string => {
  const lines = [
    `visibility run ${run.id} of site ${run.site_id}: ${run.status}${run.error ? ` (${run.error.code}: ${run.error.message})` : ""}`,
    `${run.progress.done}/${run.progress.planned} samples answered, ${run.progress.failed} failed; ${run.tokens} tokens, $${run.cost_usd.toFixed(4)}`,
  ];
  const measured = (run.measures?.engines ?? []).filter((engine) => engines.includes(engine.engine));
  if (measured.length > 0) {
    lines.push("", "engine       mention rate (95 %)          citation rate (95 %)");
    for (const engine of measured) {
      lines.push(`${engine.engine.padEnd(12)} ${shown(engine.mention_rate).padEnd(28)} ${shown(engine.citation_rate)}`);
    }
  }
  return `${lines.join("\n")}\n`;
};

/** A score, or a dash for a page without one. */
const score = (value: number | null | undefined) => (value === null || value === undefined ? "–" : String(value));

/**
 * The run's cited pages as text: the counts, then a line per page (side, overall score, state,
 * answers citing it, address), a competitor's page followed by the checks it passes that the
 * brand's page it was compared with fails.
 */
export const formatCitedPages = (view: CitedPagesView): string => {
  const { counts } = view;
  const lines = [
    `cited pages: ${counts.pages} (${counts.completed} scanned, ${counts.pending} pending, ${counts.failed} failed, ${counts.refused} refused; ${counts.reused} recent scans reused)`,
  ];
  if (view.pages.length === 0) return `${lines.join("\n")}\n`;
  const lacksOf = new Map<string, { comparedWith: string | null; checks: string[] }>();
  for (const prompt of view.prompts)
    for (const page of prompt.competitor_pages)
      if (page.lacks && !lacksOf.has(page.url))
        lacksOf.set(page.url, { comparedWith: page.compared_with, checks: page.lacks.map((gap) => gap.check) });
  lines.push("", "side        score  state        cited  page");
  for (const page of view.pages) {
    lines.push(
      `${page.side.padEnd(11)} ${score(page.scan?.overall).padStart(5)}  ${page.state.padEnd(12)} ${String(page.citations).padStart(5)}  ${page.url}`,
    );
    if (page.refused) lines.push(`${" ".repeat(39)}refused: ${page.refused}`);
    if (page.scan?.error) lines.push(`${" ".repeat(39)}failed: ${page.scan.error.code}: ${page.scan.error.message}`);
    const lacks = lacksOf.get(page.url);
    if (lacks && lacks.checks.length > 0)
      lines.push(
        `${" ".repeat(39)}passes ${lacks.checks.length} ${lacks.checks.length === 1 ? "check" : "checks"} ${lacks.comparedWith ?? "the brand's page"} fails: ${lacks.checks.join(", ")}`,
      );
  }
  return `${lines.join("\n")}\n`;
};

export const visibilityCommand = async (argv: string[], config: () => CliConfig): Promise<number> => {
  let parsed: ReturnType<typeof parseVisibilityArgs>;
  try {
    parsed = parseVisibilityArgs(argv);
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(VISIBILITY_USAGE);
    return EXIT.ok;
  }
  const runId = values.run;
  if (runId !== undefined && positionals.length > 0) throw usageError("give a site id or --run <run-id>, not both");
  if (runId === undefined && positionals.length !== 1) throw usageError("give one site id, or --run <run-id>");
  const id = runId ?? (positionals[0] as string);
  if (!UUID.test(id)) throw usageError(`${runId === undefined ? "the site id" : "--run"} must be a UUID, not ${id}`);
  const minimums = {
    mention_rate: rateOf("--min-mention-rate", values["min-mention-rate"]),
    citation_rate: rateOf("--min-citation-rate", values["min-citation-rate"]),
  };
  for (const engine of values.engine ?? []) {
    if (!AiEngine.safeParse(engine).success)
      throw usageError(`--engine must be one of ${AiEngine.options.join(", ")}, not ${engine}`);
  }
  const timeoutSeconds = Number(values.timeout ?? 1800);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw usageError("--timeout must be a number of seconds");
  const asserting = minimums.mention_rate !== undefined || minimums.citation_rate !== undefined;
  const citedPages = values["cited-pages"];
  const wait = values.wait || asserting || citedPages;

  let env: CliConfig;
  try {
    env = config();
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
  if (!env.SCAN_API_URL || !env.SCAN_API_KEY)
    throw new CliError("a visibility run is the service's: set SCAN_API_URL and SCAN_API_KEY", EXIT.usage);
  const baseUrl = env.SCAN_API_URL;
  const call = apiCaller(baseUrl, {
    accept: "application/json",
    "x-response-form": "A",
    authorization: `Bearer ${env.SCAN_API_KEY}`,
  });
  const read = async (path: string, init?: RequestInit) =>
    VisibilityRunViewSchema.parse((await call(path, init)).body.data);

  let run =
    runId === undefined
      ? await read(`/api/v1/sites/${id}/visibility/runs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      : await read(`/api/v1/visibility/runs/${id}`);
  const location = new URL(`/api/v1/visibility/runs/${run.id}`, baseUrl);
  const engines = values.engine?.length ? values.engine : run.engines;
  const missing = engines.filter((engine) => !run.engines.includes(engine as (typeof run.engines)[number]));
  if (missing.length > 0)
    throw new CliError(
      `run ${run.id} asks ${run.engines.join(", ")}, not ${missing.join(", ")}; it goes on: GET ${location}`,
      EXIT.usage,
    );

  if (wait) {
    const progress = createProgress(process.stderr, `visibility run ${run.id}`);
    const deadline = Date.now() + timeoutSeconds * 1000;
    let pause = 1000;
    try {
      for (;;) {
        progress.update(`${run.status} ${run.progress.done + run.progress.failed}/${run.progress.planned} samples`);
        if (ENDED.has(run.status)) break;
        if (Date.now() + pause > deadline)
          throw new CliError(
            `the run did not end within ${Math.round(timeoutSeconds)} s; it goes on as ${run.id}: GET ${location}`,
          );
        await new Promise((resolve) => setTimeout(resolve, pause));
        run = await read(location.href);
        pause = Math.min(MAX_POLL_MS, Math.round(pause * 1.5));
      }
    } finally {
      progress.stop();
    }
  }
  // the start answers without measures: read them
  if (run.measures === undefined) run = await read(location.href);

  const judged = run.status === "completed" ? judgeRates(run, engines, minimums) : [];
  let cited: CitedPagesView | null = null;
  if (citedPages && run.status === "completed") {
    const pagesAt = `/api/v1/visibility/runs/${run.id}/cited-pages`;
    const readPages = async (init?: RequestInit) => CitedPagesViewSchema.parse((await call(pagesAt, init)).body.data);
    // started once: a second start answers the pages already started
    cited = await readPages({ method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const progress = createProgress(process.stderr, `cited pages of run ${run.id}`);
    const deadline = Date.now() + timeoutSeconds * 1000;
    let pause = 1000;
    try {
      for (;;) {
        progress.update(`${cited.counts.pages - cited.counts.pending}/${cited.counts.pages} pages judged`);
        if (cited.counts.pending === 0) break;
        if (Date.now() + pause > deadline)
          throw new CliError(
            `the cited pages were not all scanned within ${Math.round(timeoutSeconds)} s; their scans go on: GET ${new URL(pagesAt, baseUrl)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, pause));
        cited = await readPages();
        pause = Math.min(MAX_POLL_MS, Math.round(pause * 1.5));
      }
    } finally {
      progress.stop();
    }
  }
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ ...run, assertions: judged, ...(citedPages ? { cited_pages: cited } : {}) }, null, 2)}\n`
      : `${formatRun(run, engines)}${cited ? `\n${formatCitedPages(cited)}` : ""}`,
  );
  for (const result of judged) process.stderr.write(`${result.passed ? "✓" : "✗"} ${result.message}\n`);
  if (citedPages && !cited) {
    // a run that did not complete has neither cited pages nor judged rates
    process.stderr.write(`scan: the run ended ${run.status}: it has no cited pages to scan\n`);
    return EXIT.noResult;
  }
  if (!asserting) return run.status === "failed" || run.status === "cancelled" ? EXIT.noResult : EXIT.ok;
  if (run.status !== "completed") {
    process.stderr.write(`scan: the run ended ${run.status}: its rates are not judged\n`);
    return EXIT.noResult;
  }
  if (judged.some((result) => result.actual === null)) return EXIT.noResult;
  return judged.some((result) => !result.passed) ? EXIT.assertionFailed : EXIT.ok;
};

const parseVisibilityArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      run: { type: "string" },
      wait: { type: "boolean", default: false },
      engine: { type: "string", multiple: true },
      "min-citation-rate": { type: "string" },
      "min-mention-rate": { type: "string" },
      "cited-pages": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      timeout: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
