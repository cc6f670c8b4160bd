import type { ServerResponse } from "node:http";
import { type Handler, hang, html } from "./fixture-server";

/**
 * Hostile and broken targets, served by the fault tests (tests/faults-targets.test.ts: every scan
 * ends with a verdict or upstream_failure) and by the benchmark (scripts/bench/hostile.ts: how
 * soon, against the scan's budget). `close` stops the trickling answers.
 */
export const hostileTargets = () => {
  const timers = new Set<NodeJS.Timeout>();
  const trickle = (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<!doctype html><html><head><title>slow</title>");
    const timer = setInterval(() => res.write("<p>.</p>"), 100);
    timers.add(timer);
    res.on("close", () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };
  const huge = `<!doctype html><html lang="en"><head><title>A very large page</title></head><body>${"<p>Ten megabytes of paragraphs, one after another.</p>".repeat(200_000)}</body></html>`;
  const routes: Record<string, Handler> = {
    "/hang": hang,
    "/trickle": trickle,
    "/huge": html(huge),
    "/hang-after-headers": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.flushHeaders();
    },
    // the parser stops at a script that never arrives: the title after it is never parsed
    "/blocked-parser": html(
      `<!doctype html><html lang="en"><head><script src="/hang"></script><title>A title behind a stuck script</title></head><body><h1>Behind it</h1><p>${"words ".repeat(80)}</p></body></html>`,
    ),
    "/endless-script": html(
      `<!doctype html><html><head><title>Spins for ever</title></head><body><p>${"words ".repeat(80)}</p><script>for(;;){}</script></body></html>`,
    ),
  };
  /** /redirect/N redirects to /redirect/N+1, for ever; anything else is 404 */
  const fallback: Handler = (req, res) => {
    const match = /^\/redirect\/(\d+)$/.exec(req.url ?? "");
    if (!match) return void res.writeHead(404).end();
    res.writeHead(302, { location: `/redirect/${Number(match[1]) + 1}` }).end();
  };
  const close = () => {
    for (const timer of timers) clearInterval(timer);
    timers.clear();
  };
  return { routes, fallback, close };
};

/**
 * What each hostile target is given to end in, beyond the worker's SCAN_TIMEOUT_MS (storing and
 * judging included): a 10 MB page and a page whose script never yields take longer to judge.
 */
export const HOSTILE_BUDGET_EXTRA_MS: Record<string, number> = {
  "/hang": 4_000,
  "/hang-after-headers": 4_000,
  "/trickle": 4_000,
  "/huge": 10_000,
  "/redirect/0": 4_000,
  "/endless-script": 8_000,
  "/blocked-parser": 4_000,
};
