/**
 * The yardsticks measured in the same run as the service: a bare Playwright render of the same
 * pages, and a bare express endpoint.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BASE_ARGS } from "@scan/scanner";
import { chromium } from "playwright-core";
import { ROOT } from "./stack";

/** `ms` in the order the renders ended; `renders` the same with each one's URL */
export type BareRender = {
  ms: number[];
  renders: Array<{ url: string; ms: number }>;
  wallMs: number;
  failures: number;
};

/**
 * Renders each URL the plainest way Playwright can: the worker's Chromium with the worker's
 * flags, a new context, goto (until the load event, Playwright's default), one evaluate that
 * reads the DOM. `concurrency` renders at a time in one browser, as a worker's scans share one.
 *
 * The corpus pages ask for hundreds of assets on hosts this offline machine cannot resolve.
 * Left to itself, Chromium's resolver takes up to 16 s to give up on some of them, which would
 * make a baseline of the network, not of a render; so those names fail at once here, as the
 * worker's egress proxy refuses them at once. Loopback, the corpus's own host, loads as usual.
 */
export const bareRender = async ({
  executablePath,
  urls,
  concurrency,
}: {
  executablePath: string;
  urls: readonly string[];
  concurrency: number;
}): Promise<BareRender> => {
  const args = [...BASE_ARGS];
  if (process.getuid?.() === 0) args.push("--no-sandbox");
  args.push("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1");
  const browser = await chromium.launch({ executablePath, args, headless: true });
  const render = async (url: string): Promise<number> => {
    const started = performance.now();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.evaluate(() => document.documentElement.outerHTML.length);
      return performance.now() - started;
    } finally {
      await context.close();
    }
  };
  try {
    // the browser's first page pays for starting its processes; no scan pays that
    await render(urls[0] as string);
    const ms: number[] = [];
    const renders: BareRender["renders"] = [];
    let failures = 0;
    let next = 0;
    const started = performance.now();
    const lane = async () => {
      while (next < urls.length) {
        const url = urls[next++] as string;
        try {
          const took = await render(url);
          ms.push(took);
          renders.push({ url, ms: took });
        } catch {
          failures += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
    return { ms, renders, wallMs: performance.now() - started, failures };
  } finally {
    await browser.close();
  }
};

/** Starts scripts/bench/bare-express.ts in a process of its own; answers its URL and a stop. */
export const startBareExpress = async (): Promise<{ url: string; pid: number; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/bench/bare-express.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
    lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    void exited.then(() => reject(new Error("the bare express server exited before listening")));
  });
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
};
