import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { AppError } from "@scan/contract";
import type { Logger } from "pino";
import { type Browser, chromium, type Route } from "playwright-core";
import { LOGO_PATH, type Logo } from "./branding";

/** What one PDF is made of: the print view's path in the dashboard, its data, and the logo it shows. */
export type PrintJob = {
  /** `/print/audits/<id>` or `/print/scans/<id>`: the dashboard's print view of the report */
  path: string;
  /** the JSON the print view draws (it asks for `/app/print-data.json`) */
  data: unknown;
  logo: Logo | null;
};

export type ReportRenderer = {
  /** The print view rendered to a PDF (A4) by this process's Chromium. */
  pdf: (job: PrintJob) => Promise<Buffer>;
  close: () => Promise<void>;
};

export type RendererOptions = {
  /** the dashboard's build (services/dashboard/dist) */
  dashboardDir: string;
  /** Chromium to run; unset, Debian's headless shell or chromium where installed */
  chromiumPath?: string;
  /** PDFs made at once; more wait their turn */
  concurrency: number;
  /** the longest one PDF may take, waiting included */
  timeoutMs: number;
  /**
   * closes the browser once no report has been made for this long (a worker prints a report per
   * scheduled audit, and keeps no idle Chromium beside its scanner's); unset: kept while the process runs
   */
  idleCloseMs?: number;
  log: Logger;
};

/**
 * The origin the print view is loaded from. Nothing is fetched from the network: every request of
 * the page is answered here, from the dashboard's built files and the report's data, and a
 * request to any other origin is refused, so a report can neither leak nor depend on the network.
 */
const ORIGIN = "http://report.invalid";
export const PRINT_DATA_PATH = "/app/print-data.json";

const CHROMIUM_CANDIDATES = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
];

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

const unavailable = (why: string) =>
  new AppError(
    "service_unavailable",
    `Reports cannot be made here: ${why}`,
    "The operator installs Chromium (Debian: apt-get install chromium-headless-shell) or sets CHROMIUM_PATH, and builds the dashboard; the CSV, SARIF and JUnit exports work meanwhile.",
    // every 503 says when to ask again; an installation takes the operator a while
    { "Retry-After": "300" },
  );

/**
 * Client reports as PDFs: the dashboard's print view, opened in a fresh context of one Chromium
 * kept per process, printed with `page.pdf()`. The browser starts on the first report and again
 * if it went away; each report's context is closed however it ends.
 */
export const createReportRenderer = ({
  dashboardDir,
  chromiumPath,
  concurrency,
  timeoutMs,
  idleCloseMs,
  log,
}: RendererOptions): ReportRenderer => {
  let browser: Promise<Browser> | null = null;
  let running = 0;
  const waiting: (() => void)[] = [];
  let idle: NodeJS.Timeout | null = null;

  const closeBrowser = async () => {
    const open = browser;
    browser = null;
    if (open) await (await open.catch(() => null))?.close();
  };

  const executable = () => chromiumPath ?? CHROMIUM_CANDIDATES.find((path) => existsSync(path));

  const browserOf = (): Promise<Browser> => {
    const path = executable();
    if (!path) throw unavailable("no Chromium is installed");
    browser ??= chromium.launch({ executablePath: path, headless: true }).then((launched) => {
      launched.on("disconnected", () => {
        browser = null;
      });
      return launched;
    });
    browser.catch(() => {
      browser = null;
    });
    return browser;
  };

  const turn = async (deadline: number) => {
    if (idle) {
      clearTimeout(idle);
      idle = null;
    }
    if (running < concurrency) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          waiting.splice(waiting.indexOf(go), 1);
          reject(
            new AppError("service_unavailable", "Too many reports are being made at once", "Try again shortly.", {
              "Retry-After": "5",
            }),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      const go = () => {
        clearTimeout(timer);
        running += 1;
        resolve();
      };
      waiting.push(go);
    });
  };
  const done = () => {
    running -= 1;
    waiting.shift()?.();
    if (idleCloseMs !== undefined && running === 0 && waiting.length === 0) {
      idle = setTimeout(() => {
        idle = null;
        closeBrowser().catch(() => {});
      }, idleCloseMs);
      idle.unref();
    }
  };

  const fileOf = async (path: string): Promise<{ body: Buffer; type: string } | null> => {
    const inside = path.slice("/app/".length);
    const file = normalize(join(dashboardDir, inside));
    if (!file.startsWith(`${normalize(dashboardDir)}${sep}`) || !existsSync(file)) return null;
    return { body: await readFile(file), type: TYPES[extname(file)] ?? "application/octet-stream" };
  };

  const answer = (job: PrintJob, blocked: string[]) => async (route: Route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) {
      blocked.push(url.origin);
      return route.abort("blockedbyclient");
    }
    if (url.pathname === PRINT_DATA_PATH)
      return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(job.data) });
    if (url.pathname.startsWith(`${LOGO_PATH}/`) && job.logo)
      return route.fulfill({ status: 200, contentType: job.logo.type, body: job.logo.bytes });
    if (url.pathname.startsWith("/app/assets/") || url.pathname === "/app/favicon.svg") {
      const file = await fileOf(url.pathname);
      return file
        ? route.fulfill({ status: 200, contentType: file.type, body: file.body })
        : route.fulfill({ status: 404 });
    }
    if (url.pathname.startsWith("/app/")) {
      const index = await fileOf("/app/index.html");
      return index
        ? route.fulfill({ status: 200, contentType: index.type, body: index.body })
        : route.fulfill({ status: 404 });
    }
    return route.fulfill({ status: 404 });
  };

  const pdf = async (job: PrintJob): Promise<Buffer> => {
    if (!existsSync(join(dashboardDir, "index.html"))) throw unavailable("the dashboard is not built");
    const deadline = Date.now() + timeoutMs;
    await turn(deadline);
    const started = Date.now();
    const blocked: string[] = [];
    const context = await (await browserOf()).newContext({ javaScriptEnabled: true, serviceWorkers: "block" });
    try {
      await context.route("**/*", answer(job, blocked));
      const page = await context.newPage();
      page.setDefaultTimeout(Math.max(1_000, deadline - Date.now()));
      await page.goto(`${ORIGIN}/app${job.path}?source=renderer`);
      await page.waitForSelector("[data-print-ready]");
      const failed = await page.locator("[data-print-error]").count();
      if (failed > 0)
        throw new Error(
          `the print view could not draw the report: ${await page.locator("[data-print-error]").textContent()}`,
        );
      await page.emulateMedia({ media: "print" });
      const file = await page.pdf({
        format: "A4",
        printBackground: true,
        margin: { top: "14mm", bottom: "14mm", left: "12mm", right: "12mm" },
        tagged: true,
        outline: true,
      });
      log.info(
        { path: job.path, bytes: file.length, ms: Date.now() - started, blocked: blocked.length },
        "report PDF made",
      );
      return file;
    } finally {
      await context.close().catch(() => {});
      done();
    }
  };

  return {
    pdf,
    close: async () => {
      if (idle) clearTimeout(idle);
      idle = null;
      await closeBrowser();
    },
  };
};
