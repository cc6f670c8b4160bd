/**
 * The benchmark per corpus page (bare render, quick and full scans, the full scan's worker
 * phases), and Lighthouse's SEO-only run against a full scan on the heaviest pages.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { median } from "../../tests/support/corpus";
import type { BareRender } from "./baselines";
import type { ModeResult } from "./report";

export type PageRow = {
  page: string;
  htmlBytes: number;
  bareMs: number;
  quickMs: number;
  fullMs: number;
  /** the full scan's worker phases */
  captureMs: number;
  checksMs: number;
  /** the full scan's wait for axe-core after its page checks */
  agentWaitMs: number;
  storeMs: number;
};

export type LighthouseComparison = {
  version: string;
  chromePath: string;
  /** Lighthouse's wall time per page (the CLI from start to its report, Chrome's launch included) against the full scan's end-to-end p50 */
  pages: Array<{ page: string; htmlBytes: number; lighthouseMs: number; fullScanMs: number; ratio: number }>;
};

const pageOf = (pathOrUrl: string): string => pathOrUrl.replace(/^https?:\/\/[^/]+/, "").replace(/^\/|\/$/g, "");

const p50 = (values: number[]): number => (values.length ? median(values) : Number.NaN);

/** One row a page: each figure the median of that page's rounds. */
export const perPageRows = (
  pagesDir: string,
  pages: readonly string[],
  bare: BareRender | undefined,
  modes: readonly ModeResult[],
): PageRow[] => {
  const scansOf = (mode: "quick" | "full", page: string) =>
    (modes.find((m) => m.mode === mode)?.scans ?? []).filter((s) => s.status === 200 && pageOf(s.target) === page);
  return pages.map((page) => {
    const full = scansOf("full", page);
    const phase = (name: "captureMs" | "checksMs" | "agentWaitMs" | "storeMs") =>
      p50(full.flatMap((s) => (s.phases ? [s.phases[name] ?? 0] : [])));
    return {
      page,
      htmlBytes: statSync(join(pagesDir, page, "index.html")).size,
      bareMs: p50((bare?.renders ?? []).filter((r) => pageOf(r.url) === page).map((r) => r.ms)),
      quickMs: p50(scansOf("quick", page).map((s) => s.ms)),
      fullMs: p50(full.map((s) => s.ms)),
      captureMs: phase("captureMs"),
      checksMs: phase("checksMs"),
      agentWaitMs: phase("agentWaitMs"),
      storeMs: phase("storeMs"),
    };
  });
};

/** The corpus pages with the most HTML: the heaviest for a render and for the checks alike. */
export const heaviestPages = (pagesDir: string, pages: readonly string[], count: number): string[] =>
  [...pages]
    .sort((a, b) => statSync(join(pagesDir, b, "index.html")).size - statSync(join(pagesDir, a, "index.html")).size)
    .slice(0, count);

/** Where Lighthouse's CLI is in a folder it was installed in (`npm install lighthouse@12.8`), or why not. */
export const findLighthouse = (dir: string): { cli: string; version: string } | { skipped: string } => {
  const cli = join(dir, "node_modules/lighthouse/cli/index.js");
  if (!existsSync(cli))
    return {
      skipped: `Lighthouse not found at ${cli}: install it outside the repository (npm install lighthouse@12.8 in ${dir}) or pass --lighthouse <folder>`,
    };
  const version = JSON.parse(readFileSync(join(dir, "node_modules/lighthouse/package.json"), "utf8")).version as string;
  return { cli, version };
};

/** One Lighthouse SEO-only run, as a user runs the CLI: its wall time, from start to the written report. */
const lighthouseRun = (cli: string, chromePath: string, url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const flags = ["--headless", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"];
    if (process.getuid?.() === 0) flags.push("--no-sandbox");
    execFile(
      process.execPath,
      [
        cli,
        url,
        "--only-categories=seo",
        "--output=json",
        "--output-path=/dev/null",
        "--quiet",
        `--chrome-flags=${flags.map((flag) => (flag.includes(" ") ? `'${flag}'` : flag)).join(" ")}`,
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
      (error) => (error ? reject(error) : resolve(performance.now() - started)),
    );
  });

/**
 * Lighthouse SEO-only on each page, one run at a time with the workers idle, against the full
 * scan's end-to-end p50 of the same page in this run. The corpus pages name hosts this machine
 * cannot resolve; as in the bare render, those fail at once (Lighthouse would otherwise wait on
 * the resolver for each).
 */
export const compareLighthouse = async ({
  cli,
  version,
  chromePath,
  pages,
  urlOf,
  rows,
}: {
  cli: string;
  version: string;
  chromePath: string;
  pages: readonly string[];
  urlOf: (page: string) => string;
  rows: readonly PageRow[];
}): Promise<LighthouseComparison> => {
  const compared: LighthouseComparison["pages"] = [];
  for (const page of pages) {
    const row = rows.find((r) => r.page === page);
    const lighthouseMs = await lighthouseRun(cli, chromePath, urlOf(page));
    const fullScanMs = row?.fullMs ?? Number.NaN;
    compared.push({
      page,
      htmlBytes: row?.htmlBytes ?? 0,
      lighthouseMs,
      fullScanMs,
      ratio: lighthouseMs / fullScanMs,
    });
  }
  return { version, chromePath, pages: compared };
};

const f0 = (value: number) => (Number.isFinite(value) ? String(Math.round(value)) : "n/a");

export const renderLighthouse = (lighthouse: LighthouseComparison | { skipped: string } | undefined): string[] => {
  if (!lighthouse) return [];
  if ("skipped" in lighthouse) return [`Lighthouse comparison skipped: ${lighthouse.skipped}.`, ""];
  return [
    `Lighthouse ${lighthouse.version} SEO-only (\`--only-categories=seo\`, ${lighthouse.chromePath}, the CLI's wall time, Chrome's start included) against a full scan (end to end, p50 of this run) on the heaviest corpus pages:`,
    "",
    "| page | HTML KB | Lighthouse ms | full scan p50 ms | Lighthouse / full scan |",
    "|---|---|---|---|---|",
    ...lighthouse.pages.map(
      (page) =>
        `| ${page.page} | ${f0(page.htmlBytes / 1024)} | ${f0(page.lighthouseMs)} | ${f0(page.fullScanMs)} | ${page.ratio.toFixed(1)} × |`,
    ),
    "",
  ];
};

export const renderPerPage = (rows: readonly PageRow[] | undefined): string[] => {
  if (!rows || rows.length === 0) return [];
  return [
    "Per corpus page, the median of its rounds (ms); capture, checks, the wait for axe and store are the full scan's worker phases:",
    "",
    "| page | HTML KB | bare render | quick scan | full scan | full / bare | capture | checks | wait for axe | store |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${f0(r.htmlBytes / 1024)} | ${f0(r.bareMs)} | ${f0(r.quickMs)} | ${f0(r.fullMs)} | ${Number.isFinite(r.fullMs / r.bareMs) ? (r.fullMs / r.bareMs).toFixed(2) : "n/a"} | ${f0(r.captureMs)} | ${f0(r.checksMs)} | ${f0(r.agentWaitMs)} | ${f0(r.storeMs)} |`,
    ),
    "",
  ];
};
