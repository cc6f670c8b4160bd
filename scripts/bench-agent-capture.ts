/**
 * What a full scan's agent capture costs, step by step: `pnpm bench:agent-capture [--rounds 5]
 * [--pages 5] [--only current,frames-on] [--scans 5] [--scans-only] [--out file.json]`
 * (docs/reports/bench-agentic-cost.md).
 *
 * The heaviest corpus pages (by HTML size) are served from a local HTTP server and rendered in one
 * Chromium launched as the worker launches it (BrowserPool, the scanner's context options, the
 * capture's blocked resource types), each in a fresh context per variant and round, the variants
 * in a rotating order. Each render times the DevTools session's steps (session, WebMCP.enable,
 * Audits.enable), the load, the DOM's serialisation, the WebMCP and layout-shift reads, the
 * evaluation of axe-core's source and axe.run with the variant's options, and the Chromium
 * tree's CPU over the axe steps and over the whole render (from /proc, 10 ms ticks). Every
 * variant's violations (rule, node count, every target) are compared with the current options'
 * on the same page and round. Then `--scans` rounds of whole full scans of the same pages through
 * createScanner (one render at a time, as a worker): wall time, CPU of this process and its
 * Chromium, the scan's phase timings and every check's status. Prints medians per page;
 * writes docs/reports/bench-agent-capture.json (every run too).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sharedCorpus } from "@scan/checks/testing";
import {
  AGENT_AXE_RULES,
  axeSource,
  BLOCKED_RESOURCE_TYPES,
  BrowserPool,
  createScanner,
  resolveChromiumPath,
  SCANNER_USER_AGENT,
} from "@scan/scanner";
import { median } from "../tests/support/corpus";
import { descendants } from "./bench/procfs";

const ROOT = resolve(__dirname, "..");

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    pages: { type: "string", default: "5" },
    only: { type: "string" },
    /** end-to-end full scans (scanner.scan) per page and round; 0: none */
    scans: { type: "string", default: "5" },
    /** skip the step-by-step renders */
    "scans-only": { type: "boolean", default: false },
    out: { type: "string", default: join(ROOT, "docs/reports/bench-agent-capture.json") },
  },
});
const rounds = Number(args.rounds);

type Variant = {
  name: string;
  /** open the DevTools session with WebMCP and Audits enabled before navigating */
  session: boolean;
  /** axe.run's options besides runOnly and resultTypes; null: axe is not run */
  options: Record<string, unknown> | null;
  /** axe.setup(document) timed on its own before axe.run */
  setup?: boolean;
  /** what differs from the capture as it is, when the violations may differ by design */
  note?: string;
};

/** the options the capture runs axe with (agent-capture.ts, runAxe), besides runOnly and resultTypes */
const CURRENT = { iframes: false };

const VARIANTS: Variant[] = [
  { name: "current", session: true, options: CURRENT },
  { name: "frames-on", session: true, options: {}, note: "axe's default, the capture's before 36466b9" },
  { name: "preload-off", session: true, options: { ...CURRENT, preload: false } },
  {
    name: "selectors-off",
    session: true,
    options: { ...CURRENT, selectors: false, ancestry: false, xpath: false },
    note: "no targets",
  },
  { name: "setup-then-run", session: true, options: CURRENT, setup: true },
  { name: "elementRef", session: true, options: { ...CURRENT, elementRef: true } },
  { name: "performanceTimer", session: true, options: { ...CURRENT, performanceTimer: true } },
  { name: "no-session", session: false, options: CURRENT },
  { name: "session-no-axe", session: true, options: null },
  { name: "bare-render", session: false, options: null },
];
const only = args.only?.split(",");
const variants = only ? VARIANTS.filter((variant) => only.includes(variant.name)) : VARIANTS;

type Violation = { rule: string; nodes: number; targets: string[] };
type Steps = Record<string, number>;
type Trial = { page: string; round: number; variant: string; steps: Steps; violations: Violation[] | null };

const pagesDir = join(sharedCorpus("corpus"), "pages");
const heaviest = readdirSync(pagesDir)
  .map((name) => ({ name, bytes: statSync(join(pagesDir, name, "index.html")).size }))
  .sort((a, b) => b.bytes - a.bytes)
  .slice(0, Number(args.pages));

const server = createServer((request, response) => {
  const name = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname).split("/")[1] ?? "";
  const page = heaviest.find((candidate) => `/${candidate.name}/` === request.url?.split("?")[0]);
  if (!page) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(readFileSync(join(pagesDir, name, "index.html")));
});

const chromiumCpuMs = (): number =>
  descendants([process.pid])
    .filter((proc) => proc.pid !== process.pid)
    .reduce((sum, proc) => sum + proc.cpuMs, 0);

const timed = async <T>(steps: Steps, name: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    return await work();
  } finally {
    steps[name] = performance.now() - started;
  }
};

const trial = (
  pool: BrowserPool,
  origin: string,
  page: string,
  variant: Variant,
): Promise<{ steps: Steps; violations: Violation[] | null }> =>
  pool.use(async (browser) => {
    const { context, page: tab, release } = await pool.openPage(browser);
    const steps: Steps = {};
    let violations: Violation[] | null = null;
    const cpuStart = chromiumCpuMs();
    try {
      await context.route("**/*", (route) => {
        const request = route.request();
        const url = new URL(request.url());
        const blocked = BLOCKED_RESOURCE_TYPES.has(request.resourceType()) || url.origin !== origin;
        return blocked ? route.abort("blockedbyclient") : route.continue();
      });
      const session = variant.session ? await timed(steps, "cdp session", () => context.newCDPSession(tab)) : null;
      if (session) {
        session.on("WebMCP.toolsAdded" as never, (() => undefined) as never);
        session.on("Audits.issueAdded" as never, (() => undefined) as never);
        await timed(steps, "WebMCP.enable", () => session.send("WebMCP.enable" as never).catch(() => undefined));
        await timed(steps, "Audits.enable", () => session.send("Audits.enable").catch(() => undefined));
      }
      await timed(steps, "load", async () => {
        await tab.goto(`${origin}/${page}/`, { waitUntil: "commit", timeout: 30_000 });
        await tab.waitForLoadState("load", { timeout: 30_000 }).catch(() => undefined);
      });
      await timed(steps, "serialise", () =>
        tab.evaluate(() => `${document.doctype ? "<!DOCTYPE html>" : ""}${document.documentElement.outerHTML}`.length),
      );
      if (session) {
        await timed(steps, "webmcp read", () =>
          tab.evaluate(() => typeof (navigator as { modelContext?: unknown }).modelContext !== "undefined"),
        );
        await timed(steps, "layout-shift read", () =>
          tab.evaluate(() => {
            const observer = new PerformanceObserver(() => undefined);
            observer.observe({ type: "layout-shift", buffered: true });
            const count = observer.takeRecords().length;
            observer.disconnect();
            return count;
          }),
        );
      }
      if (variant.options) {
        const axeCpuStart = chromiumCpuMs();
        await timed(steps, "axe source", () => tab.evaluate(axeSource));
        steps["axe source chromium cpu"] = chromiumCpuMs() - axeCpuStart;
        if (variant.setup) {
          await timed(steps, "axe.setup", () =>
            tab.evaluate(() => {
              (window as unknown as { axe: { setup: (d: Document) => unknown } }).axe.setup(document);
            }),
          );
        }
        const ran = await timed(steps, "axe.run", () =>
          tab.evaluate(
            async ({ rules, options }) => {
              type AxeResult = { id: string; nodes: Array<{ target: unknown[] }> };
              const axe = (
                window as unknown as {
                  axe: { run: (c: Document, o: unknown) => Promise<{ violations: AxeResult[] }> };
                }
              ).axe;
              const started = performance.now();
              const results = await axe.run(document, {
                runOnly: { type: "rule", values: rules },
                resultTypes: ["violations"],
                ...options,
              });
              return {
                inPageMs: performance.now() - started,
                violations: results.violations.map((violation) => ({
                  rule: violation.id,
                  nodes: violation.nodes.length,
                  targets: violation.nodes.map((node) => (node.target ?? []).map(String).join(" ")),
                })),
              };
            },
            { rules: [...AGENT_AXE_RULES], options: variant.options ?? {} },
          ),
        );
        steps["axe.run in page"] = ran.inPageMs;
        violations = ran.violations;
        steps["axe chromium cpu"] = chromiumCpuMs() - axeCpuStart;
      }
      if (session) await timed(steps, "detach", () => session.detach());
      steps["render chromium cpu"] = chromiumCpuMs() - cpuStart;
      return { steps, violations };
    } finally {
      release();
      // the next render starts on an idle browser
      await context.close().catch(() => undefined);
    }
  });

type ScanRun = {
  page: string;
  round: number;
  wallMs: number;
  treeCpuMs: number;
  timings: Record<string, number>;
  verdicts: string;
};

/**
 * Full scans as the worker runs them (createScanner, one render at a time, the scanner's own
 * Chromium): wall time from scan() to its outcome, the CPU of this process and its Chromium
 * tree, the scan's own phase timings, and every check's status (to compare trees).
 */
const fullScans = async (origin: string, scanRounds: number): Promise<ScanRun[]> => {
  const scanner = createScanner({
    allowlist: origin.replace("http://", ""),
    ports: "*",
    egress: false,
    limits: {
      scanTimeoutMs: 20_000,
      settleTimeoutMs: { quick: 3_000, full: 8_000 },
      maxHtmlBytes: 5 * 1024 * 1024,
      maxRedirects: 10,
      quickRender: "auto",
      rendersAtOnce: 1,
    },
  });
  const runs: ScanRun[] = [];
  const treeCpu = () => {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1000 + chromiumCpuMs();
  };
  try {
    await scanner.scan({ url: `${origin}/${heaviest[0]?.name}/`, mode: "full" });
    for (let round = 0; round < scanRounds; round += 1) {
      for (const { name: page } of heaviest) {
        const cpuStart = treeCpu();
        const started = performance.now();
        const scanned = await scanner.scan({ url: `${origin}/${page}/`, mode: "full" });
        const wallMs = performance.now() - started;
        runs.push({
          page,
          round,
          wallMs,
          treeCpuMs: treeCpu() - cpuStart,
          timings: scanned.timings as Record<string, number>,
          verdicts: scanned.outcome.checks.map((check) => `${check.id}:${check.status}`).join(" "),
        });
      }
      console.error(`scans round ${round + 1}/${scanRounds} done, load ${loadavg()[0]?.toFixed(2)}`);
    }
  } finally {
    await scanner.close();
  }
  return runs;
};

const sameViolations = (a: Violation[] | null, b: Violation[] | null): boolean =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

const main = async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = resolveChromiumPath(process.env.CHROMIUM_PATH);
  const pool = new BrowserPool({
    executablePath,
    recycleAfter: 1_000_000,
    spare: false,
    webmcp: true,
    contextOptions: { userAgent: SCANNER_USER_AGENT, serviceWorkers: "block", viewport: { width: 1280, height: 800 } },
  });
  const loadBefore = loadavg()[0];
  const scanRounds = Number(args.scans);
  console.error(`chromium: ${executablePath}; pages: ${heaviest.map((p) => `${p.name} (${p.bytes} B)`).join(", ")}`);
  const trials: Trial[] = [];
  // one warm-up render, not counted: the browser's first context pays for its start
  if (!args["scans-only"]) await trial(pool, origin, heaviest[0]?.name ?? "", VARIANTS[0] as Variant);
  for (let round = 0; round < (args["scans-only"] ? 0 : rounds); round += 1) {
    for (const [index, { name: page }] of heaviest.entries()) {
      const order = variants.map((_, i) => variants[(i + round + index) % variants.length] as Variant);
      for (const variant of order) {
        const { steps, violations } = await trial(pool, origin, page, variant);
        trials.push({ page, round, variant: variant.name, steps, violations });
      }
    }
    console.error(`round ${round + 1}/${rounds} done, load ${loadavg()[0]?.toFixed(2)}`);
  }
  await pool.close();
  const scans = scanRounds > 0 ? await fullScans(origin, scanRounds) : [];
  server.close();

  const stepNames = [...new Set(trials.flatMap((t) => Object.keys(t.steps)))];
  const summary = heaviest.map(({ name: page, bytes }) => ({
    page,
    bytes,
    variants: variants.map((variant) => {
      const mine = trials.filter((t) => t.page === page && t.variant === variant.name);
      const current = trials.filter((t) => t.page === page && t.variant === "current");
      const differing = variant.options
        ? mine.filter(
            (t) => !sameViolations(t.violations, current.find((c) => c.round === t.round)?.violations ?? null),
          ).length
        : null;
      const medians = Object.fromEntries(
        stepNames
          .map((step) => [step, mine.map((t) => t.steps[step]).filter((v): v is number => v !== undefined)] as const)
          .filter(([, values]) => values.length > 0)
          .map(([step, values]) => [step, Math.round(median(values))]),
      );
      return {
        variant: variant.name,
        ...(variant.note ? { note: variant.note } : {}),
        medians,
        violationsDifferFromCurrent: differing,
      };
    }),
  }));
  const report = {
    chromium: executablePath,
    rounds,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    summary,
    scans: heaviest.map(({ name: page }) => {
      const mine = scans.filter((run) => run.page === page);
      const timingNames = [...new Set(mine.flatMap((run) => Object.keys(run.timings)))];
      return {
        page,
        wallMs: Math.round(median(mine.map((run) => run.wallMs))),
        treeCpuMs: Math.round(median(mine.map((run) => run.treeCpuMs))),
        ...Object.fromEntries(
          timingNames.map((name) => [name, Math.round(median(mine.map((run) => run.timings[name] ?? 0)))]),
        ),
        verdictSets: [...new Set(mine.map((run) => run.verdicts))],
      };
    }),
    trials,
    scanRuns: scans,
  };
  writeFileSync(args.out as string, `${JSON.stringify(report, null, 2)}\n`);
  const cols = [
    "cdp session",
    "WebMCP.enable",
    "Audits.enable",
    "load",
    "serialise",
    "layout-shift read",
    "axe source",
    "axe source chromium cpu",
    "axe.setup",
    "axe.run",
    "axe chromium cpu",
    "detach",
    "render chromium cpu",
  ];
  if (trials.length > 0) console.log(`| page | variant | ${cols.join(" | ")} | violations ≠ current |`);
  if (trials.length > 0) console.log(`|---|---|${cols.map(() => "---:").join("|")}|---:|`);
  for (const { page, variants: rows } of trials.length > 0 ? summary : []) {
    for (const row of rows) {
      const cells = cols.map((col) => (row.medians[col] === undefined ? "" : String(row.medians[col])));
      console.log(
        `| ${page} | ${row.variant} | ${cells.join(" | ")} | ${row.violationsDifferFromCurrent ?? ""}/${rounds} |`,
      );
    }
  }
  if (scans.length > 0) {
    console.log("\n| page | full scan wall | tree CPU | captureMs | checksMs | agentWaitMs | distinct verdict sets |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const row of report.scans) {
      const r = row as Record<string, unknown>;
      console.log(
        `| ${row.page} | ${row.wallMs} | ${row.treeCpuMs} | ${r.captureMs ?? ""} | ${r.checksMs ?? ""} | ${r.agentWaitMs ?? ""} | ${row.verdictSets.length} |`,
      );
    }
  }
  console.error(`load average ${loadBefore?.toFixed(2)} → ${loadavg()[0]?.toFixed(2)}`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
