import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * Starts the stack the browser tests use (tests/e2e/support/serve-stack.ts: the dashboard's
 * build, Postgres database, gateway, worker and a page to scan) in a process of its own, and
 * hands its addresses to the tests through the environment. Stops it when the run ends.
 */
const ROOT = join(__dirname, "../..");
const START_TIMEOUT_MS = 120_000;

export default async function globalSetup(): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(__dirname, "support/serve-stack.ts")],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], env: process.env },
  );
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the e2e stack did not start within 2 minutes")), START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`the e2e stack exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("E2E_READY ")) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice("E2E_READY ".length)) as Record<string, string>);
    });
  });
  Object.assign(process.env, ready);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
}
