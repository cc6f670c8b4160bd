import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureDashboardBuilt } from "./dashboard-build";

/**
 * `pnpm test`: builds the dashboard when it is stale, runs jest, then the browser tests whether
 * or not a jest suite failed, and closes with one line that reports both. Exits non-zero when
 * either failed. Arguments are passed to jest (`pnpm test tests/scan-pipeline.test.ts`).
 */

const ROOT = resolve(__dirname, "..");

export type StepOutcome = {
  name: string;
  /** the process's exit code; null when it was killed by a signal */
  code: number | null;
  passed: number | null;
  failed: number | null;
  /** test files that failed without a failing test (they did not compile or load) */
  broken?: number;
};

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number | null> =>
  new Promise((settle, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code) => settle(code));
  });

const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

const readJson = (path: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const count = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** One step's words in the closing line: `jest passed (4012 tests)` or `jest FAILED (3 of 4015 tests failed)`. */
export const describeStep = ({ name, code, passed, failed, broken = 0 }: StepOutcome): string => {
  if (passed === null || failed === null)
    return `${name} ${code === 0 ? "passed" : `FAILED (${code === null ? "killed" : `exit ${code}`})`}`;
  const files = broken > 0 ? `, ${broken} test ${broken === 1 ? "file" : "files"} did not run` : "";
  if (code === 0) return `${name} passed (${passed} tests)`;
  return `${name} FAILED (${failed} of ${passed + failed} tests failed${files})`;
};

/**
 * The closing line, the totals line (`total: N passed, N failed`, the form any test runner's
 * reader understands; a step without a report, or a test file that did not run, counts as a
 * failure there too) and the exit code of the whole command.
 */
export const summarise = (steps: readonly StepOutcome[]): { line: string; totals: string; code: number } => {
  const ok = steps.every((step) => step.code === 0);
  let passed = 0;
  let failed = 0;
  for (const step of steps) {
    passed += step.passed ?? 0;
    failed += (step.failed ?? (step.code === 0 ? 0 : 1)) + (step.broken ?? 0);
    if (step.code !== 0 && step.failed === 0 && !step.broken) failed += 1;
  }
  return {
    line: `tests: ${steps.map(describeStep).join("; ")}`,
    totals: `total: ${passed} passed, ${failed} failed`,
    code: ok ? 0 : 1,
  };
};

/** The slowest test files of a jest report, longest first: `  84.2 s  tests/corpus.test.ts`. */
export const slowestFiles = (report: Record<string, unknown> | null, root: string, most = 10): string[] => {
  const results = Array.isArray(report?.testResults) ? (report.testResults as Array<Record<string, unknown>>) : [];
  return results
    .map((result) => {
      // jest's --json report: startTime/endTime per file (perfStats in its in-process results)
      const stats = result.perfStats as { start?: number; end?: number } | undefined;
      const start = typeof result.startTime === "number" ? result.startTime : stats?.start;
      const end = typeof result.endTime === "number" ? result.endTime : stats?.end;
      const ms = typeof start === "number" && typeof end === "number" ? end - start : 0;
      const name = typeof result.name === "string" ? result.name : "?";
      return { ms, file: name.startsWith(`${root}/`) ? name.slice(root.length + 1) : name };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, most)
    .map(({ ms, file }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
};

const main = async () => {
  process.stdout.write(ensureDashboardBuilt() ? "built the dashboard\n" : "the dashboard's build is up to date\n");
  const reports = mkdtempSync(join(tmpdir(), "aeo-scan-test-"));
  try {
    const jestReport = join(reports, "jest.json");
    // two test files at a time (TEST_WORKERS): most integration files spend their time waiting on
    // a stack, a browser or a timer, so a second file uses the core the first leaves idle. Each
    // file has its own database, Redis prefix, ports and throwaway servers. A worker's heap grows
    // past Node's default limit (about 4 GB here) over many files; 8 GB lets it finish
    const workers = /^[1-9]\d*$/.test(process.env.TEST_WORKERS ?? "") ? (process.env.TEST_WORKERS as string) : "2";
    const jestCode = await run(
      bin("jest"),
      [`--maxWorkers=${workers}`, "--json", `--outputFile=${jestReport}`, ...process.argv.slice(2)],
      { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=8192`.trim() },
    );
    const jest = readJson(jestReport);
    const slowest = slowestFiles(jest, ROOT);
    if (slowest.length > 0) process.stdout.write(`\nslowest test files:\n${slowest.join("\n")}\n\n`);
    const browserReport = join(reports, "playwright.json");
    // the list reporter for the reader, the JSON one for the closing line
    const browserCode = await run(bin("playwright"), ["test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: browserReport,
    });
    const stats = readJson(browserReport)?.stats as Record<string, unknown> | undefined;
    const { line, totals, code } = summarise([
      {
        name: "jest",
        code: jestCode,
        passed: count(jest?.numPassedTests),
        failed: count(jest?.numFailedTests),
        broken: count(jest?.numRuntimeErrorTestSuites) ?? 0,
      },
      {
        name: "browser tests",
        code: browserCode,
        passed: count(stats?.expected),
        failed: stats ? (count(stats.unexpected) ?? 0) + (count(stats.flaky) ?? 0) : null,
      },
    ]);
    process.stdout.write(`\n${line}\n${totals}\n`);
    process.exitCode = code;
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
};

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
