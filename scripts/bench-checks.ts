/**
 * The checks' profile: `pnpm bench:checks [--rounds 5] [--top 25] [--mode full|quick] [--served inline|thread]`
 * (docs/faults-and-benchmark.md). Runs the mode's checks over every corpus page the way the
 * worker runs them (packages/checks/src/run.ts, one prepared page per scan), browser-free, and
 * prints where the time goes: each check and each shared step of reading a page (parse,
 * main-content, segmentation, json-ld), timed exclusively (lib/profile.ts), summed over the
 * corpus and per page at p50/p95; then the pages whose checks cost most. Writes
 * docs/reports/bench-checks.json and bench-checks.md. `--served thread` hands the checks the
 * served HTML's main content read beforehand, uncounted, as the worker's served-reader thread
 * reads it while the page renders: what the checks cost the worker's main thread.
 *
 * The corpus is ../shared/corpus beside the repository (SHARED_TEST_DATA names another folder);
 * the run stops with a clear error when it is absent. As in a real scan, the rendered HTML
 * is not the served text: it is the served page parsed and serialised again (what a browser
 * hands back is a serialisation of its DOM), and the AI crawlers' fetches answer the served
 * HTML, so every step a full scan takes is taken.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Profile, preparePage, recordProfile, runChecks, servedMainText } from "@scan/checks";
import { sharedCorpus } from "@scan/checks/testing";
import type { Snapshot } from "@scan/contract";
import { median, percentile } from "../tests/support/corpus";
import { SCANNED_AT, snapshotOf } from "./verdict-changes/extract";

const ROOT = resolve(__dirname, "..");

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    top: { type: "string", default: "25" },
    mode: { type: "string", default: "full" },
    served: { type: "string", default: "inline" },
    out: { type: "string", default: join(ROOT, "docs/reports") },
  },
});
const rounds = Number(args.rounds);
const top = Number(args.top);
const mode = args.mode === "quick" ? "quick" : "full";
// inline: the checks read the served HTML themselves, as the in-process client does; thread: it
// is read beforehand and handed to them, as the worker's served-reader thread does while the page renders
const served = args.served === "thread" ? "thread" : "inline";
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number of at least 1");
if (!Number.isInteger(top) || top < 1) throw new Error("--top must be a whole number of at least 1");

/** The shared corpus (../shared/corpus beside the repository, or SHARED_TEST_DATA). */
const corpusDir = (): { dir: string; note: string } => {
  const dir = sharedCorpus("corpus");
  return { dir, note: `corpus ${dir}` };
};

/** The corpus page as the worker would capture it (verdict-changes' snapshot, the rendered HTML reserialised). */
const snapshotFor = (pages: string, name: string): Snapshot => {
  const snapshot = snapshotOf(pages, name, "reserialized");
  if (mode === "quick") return snapshot;
  const botFetches = ["GPTBot", "ClaudeBot", "PerplexityBot"].map((bot) => ({
    bot,
    userAgent: bot,
    status: 200,
    body: snapshot.rawHtml,
    error: null,
  }));
  return { ...snapshot, botFetches };
};

/** CPU time (user and system) of the process so far, in milliseconds. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * One scan's checks, timed whole and by frame (the parse of the rendered DOM included, as the
 * worker pays it): wall clock, and the process's CPU time, which a loaded machine does not
 * stretch (it counts the garbage collector's threads too).
 */
const scanOnce = (snapshot: Snapshot): { ms: number; cpu: number; profile: Profile } => {
  let ms = 0;
  let cpu = 0;
  const readings =
    served === "thread" && mode === "full" && snapshot.rawHtml !== snapshot.renderedHtml
      ? { servedText: servedMainText(snapshot.rawHtml) }
      : {};
  const profile = recordProfile(() => {
    const started = performance.now();
    const cpuStarted = cpuMs();
    runChecks(snapshot, { mode, scannedAt: SCANNED_AT, page: preparePage(snapshot, SCANNED_AT, readings) });
    ms = performance.now() - started;
    cpu = cpuMs() - cpuStarted;
  });
  return { ms, cpu, profile };
};

const round1 = (value: number): number => Math.round(value * 10) / 10;

const main = () => {
  const corpus = corpusDir();
  process.stderr.write(`[bench:checks] ${corpus.note}, ${mode} scan, ${rounds} rounds\n`);
  const pagesDir = join(corpus.dir, "pages");
  const names = readdirSync(pagesDir).sort();
  const snapshots = names.map((name) => ({ name, snapshot: snapshotFor(pagesDir, name) }));
  // one pass to compile the checks' code paths, as a running worker has
  for (const { snapshot } of snapshots) scanOnce(snapshot);

  // per page: the median of its rounds, whole and per frame
  const perPage = snapshots.map(({ name, snapshot }) => {
    const runs = Array.from({ length: rounds }, () => scanOnce(snapshot));
    const frames = new Map<string, number>();
    for (const frame of new Set(runs.flatMap((run) => [...run.profile.keys()])))
      frames.set(frame, median(runs.map((run) => run.profile.get(frame) ?? 0)));
    return { name, ms: median(runs.map((run) => run.ms)), cpu: median(runs.map((run) => run.cpu)), frames };
  });

  const allFrames = [...new Set(perPage.flatMap((page) => [...page.frames.keys()]))];
  const totalMs = perPage.reduce((sum, page) => sum + page.ms, 0);
  const frames = allFrames
    .map((frame) => {
      const values = perPage.map((page) => page.frames.get(frame) ?? 0);
      const sum = values.reduce((a, b) => a + b, 0);
      const worst = perPage.reduce((a, b) => ((b.frames.get(frame) ?? 0) > (a.frames.get(frame) ?? 0) ? b : a));
      return {
        frame,
        kind: frame.startsWith("check ") ? "check" : "shared step",
        sumMs: round1(sum),
        share: sum / totalMs,
        p50: round1(median(values)),
        p95: round1(percentile(values, 95)),
        max: round1(worst.frames.get(frame) ?? 0),
        maxPage: worst.name,
      };
    })
    .sort((a, b) => b.sumMs - a.sumMs);
  const pageMs = perPage.map((page) => page.ms);
  const pageCpu = perPage.map((page) => page.cpu);
  const totalCpu = pageCpu.reduce((sum, cpu) => sum + cpu, 0);
  const heaviest = [...perPage].sort((a, b) => b.ms - a.ms).slice(0, 5);

  const result = {
    startedAt: new Date().toISOString(),
    corpus: corpus.note,
    mode,
    served,
    rounds,
    pages: perPage.length,
    machine: { cpus: cpus().length, loadAverage: loadavg(), node: process.version },
    checksMs: { p50: round1(median(pageMs)), p95: round1(percentile(pageMs, 95)), sum: round1(totalMs) },
    checksCpuMs: { p50: round1(median(pageCpu)), p95: round1(percentile(pageCpu, 95)), sum: round1(totalCpu) },
    frames,
    perPage: perPage.map((page) => ({ page: page.name, ms: round1(page.ms), cpuMs: round1(page.cpu) })),
  };

  const lines = [
    "# Checks profile",
    "",
    `\`pnpm bench:checks\` ${result.startedAt}: ${result.pages} pages (${corpus.note}), ${mode} scan, ${served === "thread" ? "the served HTML's main content read beforehand, as the worker's thread reads it while the page renders (not counted)" : "the served HTML read by the checks themselves, as the in-process client reads it"}, median of ${rounds} rounds a page after one warm-up pass, ${result.machine.cpus} cores, load average ${result.machine.loadAverage.map((v) => v.toFixed(1)).join(" ")}, Node ${process.version}.`,
    "",
    `Checks per page (the rendered DOM's parse included), CPU time: p50 ${result.checksCpuMs.p50} ms, p95 ${result.checksCpuMs.p95} ms; ${result.checksCpuMs.sum} ms over the corpus. Wall clock: p50 ${result.checksMs.p50} ms, p95 ${result.checksMs.p95} ms; ${result.checksMs.sum} ms over the corpus.`,
    "",
    `Top ${Math.min(top, frames.length)} costs, wall clock, exclusive (a check is not charged for the shared steps it triggers):`,
    "",
    "| frame | kind | corpus ms | share | p50 ms/page | p95 ms/page | max ms (page) |",
    "|---|---|---|---|---|---|---|",
    ...frames
      .slice(0, top)
      .map(
        (f) =>
          `| ${f.frame} | ${f.kind} | ${f.sumMs} | ${(f.share * 100).toFixed(1)} % | ${f.p50} | ${f.p95} | ${f.max} (${f.maxPage}) |`,
      ),
    "",
    "Heaviest pages:",
    "",
    "| page | checks ms (wall) | top frames |",
    "|---|---|---|",
    ...heaviest.map(
      (page) =>
        `| ${page.name} | ${round1(page.ms)} | ${[...page.frames]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([frame, ms]) => `${frame} ${round1(ms)}`)
          .join(", ")} |`,
    ),
    "",
  ];
  const markdown = `${lines.join("\n")}\n`;
  mkdirSync(args.out as string, { recursive: true });
  writeFileSync(join(args.out as string, "bench-checks.json"), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(args.out as string, "bench-checks.md"), markdown);
  process.stdout.write(markdown);
};

main();
