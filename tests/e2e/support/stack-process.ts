import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * The browser tests' stack (serve-stack.ts: the dashboard's build, a database, the gateway, a
 * worker and the loopback sites) in a process of its own; its addresses come back as
 * E2E_GATEWAY_URL, E2E_SITE_URL, E2E_RIVAL_SITE_URL, E2E_AUDIT_SITE_URL, E2E_HELD_SITE_URL and E2E_DATABASE_URL. The screenshot script and the benchmark
 * start the same stack.
 */
const ROOT = join(__dirname, "../../..");
const START_TIMEOUT_MS = 120_000;

export type StackProcess = { env: Record<string, string>; stop: () => Promise<void> };

export const startStackProcess = async (): Promise<StackProcess> => {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(__dirname, "serve-stack.ts")],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], env: process.env },
  );
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the stack did not start within 2 minutes")), START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`the stack exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("E2E_READY ")) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice("E2E_READY ".length)) as Record<string, string>);
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  return { env, stop };
};
