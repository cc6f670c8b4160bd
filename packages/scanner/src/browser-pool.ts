import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";

/** Flags for a headless Chromium in a closed network: no phoning home, no first-run work. */
export const BASE_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-extensions",
  "--mute-audio",
];

/**
 * Chromium's WebMCP (`document.modelContext`, `<form toolname>` tools and the CDP WebMCP
 * domain's `toolsAdded`): behind this feature flag in Chromium 156. Without it the page has no
 * `modelContext` and the WebMCP checks can only say so. The flag adds the API and nothing else a
 * scan reads (quick scans of the 168 corpus pages judged alike with and without it but for one
 * `ttfb`, a timing: docs/reports/lighthouse-agentic-corpus.md).
 */
export const WEBMCP_FLAG = "--enable-features=WebMCP";

/**
 * Where Chromium is: the configured path, else Playwright's own browser when installed,
 * else Debian's headless shell, else Debian's Chromium.
 *
 * The headless shell (Debian's chromium-headless-shell, the browser Playwright itself runs
 * headless) is Blink without the desktop browser around it: on the corpus it rendered a full
 * scan in a third of the time and CPU of the full browser in its headless mode, with the same
 * DOM. /usr/lib/chromium/chromium starts faster than the /usr/bin wrapper script.
 */
export const resolveChromiumPath = (configured: string | undefined): string => {
  if (configured) return configured;
  const candidates = [
    safePlaywrightPath(),
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ];
  const found = candidates.find((path): path is string => typeof path === "string" && existsSync(path));
  if (!found) {
    throw new Error(
      "Chromium not found: install it (Debian: apt-get install chromium-headless-shell) or set CHROMIUM_PATH",
    );
  }
  return found;
};

const safePlaywrightPath = (): string | undefined => {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
};

export type RestartReason = "recycle" | "crash";

export type BrowserPoolOptions = {
  executablePath: string;
  /** relaunch after this many scans, so a slow leak in the browser cannot grow for ever */
  recycleAfter: number;
  onLaunch?: (browser: Browser) => void;
  /** a browser replaced an earlier one: `recycle` after recycleAfter scans, `crash` after it died */
  onRestart?: (reason: RestartReason) => void;
  /** open the next scan's context ahead of time (default true) */
  spare?: boolean;
  /** every scan's context is created with these */
  contextOptions?: BrowserContextOptions;
  /** the proxy every browser request goes through (the egress proxy's URL) */
  proxyServer?: () => Promise<string>;
  /** launch with WEBMCP_FLAG (default true) */
  webmcp?: boolean;
};

/**
 * A fresh context with one page, for one scan. `release` closes the context; the scan does not
 * wait for that (a heavy page takes a few hundred ms to tear down), the pool does at shutdown.
 */
export type ScanPage = { context: BrowserContext; page: Page; release: () => void };

/** closing a context takes milliseconds; longer means the renderer is stuck */
const CLOSE_TIMEOUT_MS = 5_000;
/** opening a context takes tens of milliseconds; this long means the browser is gone */
const OPEN_TIMEOUT_MS = 5_000;

/**
 * One Chromium per worker process, shared by its concurrent scans (each in its own context).
 * A browser that dies is relaunched on the next acquire; one that has served `recycleAfter`
 * scans is replaced once the scans using it have finished.
 *
 * Opening a context and its first page starts a renderer process, which costs a quick scan
 * about a third of its time. So when a scan takes its context, the pool opens the next
 * scan's one beside it; each scan still gets a context no other scan has used.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private served = 0;
  /** scans running on each browser, so a retired one closes once its last scan ends */
  private readonly users = new Map<Browser, number>();
  private readonly retired = new Set<Browser>();
  private readonly closing = new Set<Promise<void>>();
  private spare: { browser: Browser; ready: Promise<ScanPage | null> } | null = null;
  private closed = false;
  /** every browser not yet disconnected: the current one and retired ones finishing their scans */
  private readonly live = new Set<Browser>();
  private readonly contexts = new Set<BrowserContext>();
  /** why the next launch happens; any launch after the first that is not a recycle replaces a dead browser */
  private nextLaunch: "first" | RestartReason = "first";
  private lastLaunchFailed = false;
  launches = 0;

  constructor(private readonly options: BrowserPoolOptions) {}

  /** Browsers running now (a retired one counts until its last scan has ended). */
  get browserCount(): number {
    return this.live.size;
  }

  /** Browser contexts open now, the spare one included. */
  get contextCount(): number {
    return this.contexts.size;
  }

  /** A browser has been launched and the latest launch did not fail: the worker can scan. */
  get ready(): boolean {
    return !this.closed && this.launches > 0 && !this.lastLaunchFailed;
  }

  /** Runs fn with the current browser; the browser is not closed while fn runs. */
  async use<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
    const browser = await this.current();
    this.users.set(browser, (this.users.get(browser) ?? 0) + 1);
    this.served += 1;
    if (this.served >= this.options.recycleAfter) this.retire(browser);
    try {
      return await fn(browser);
    } finally {
      const left = (this.users.get(browser) ?? 1) - 1;
      if (left > 0) this.users.set(browser, left);
      else {
        this.users.delete(browser);
        if (this.retired.delete(browser)) await browser.close().catch(() => undefined);
      }
    }
  }

  /** A fresh context and page on this browser: the spare one when it is ready, else a new one. */
  async openPage(browser: Browser): Promise<ScanPage> {
    const spare = this.spare?.browser === browser ? this.spare : null;
    if (spare) this.spare = null;
    const taken = spare ? await spare.ready : null;
    // the next scan's context opens while this scan renders
    this.prepareSpare(browser);
    if (taken && !taken.page.isClosed() && browser.isConnected()) return taken;
    // a browser that died without saying so can leave newContext waiting for ever: bounded, and
    // a browser that cannot open a context in that time is closed, so the retry gets a new one
    let timer: NodeJS.Timeout | undefined;
    const opening = this.createPage(browser);
    try {
      return await Promise.race([
        opening,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no browser context within ${OPEN_TIMEOUT_MS} ms`)),
            OPEN_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      opening.then(
        (late) => late.release(),
        () => undefined,
      );
      await browser.close().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async createPage(browser: Browser): Promise<ScanPage> {
    const context = await browser.newContext(this.options.contextOptions);
    this.contexts.add(context);
    context.once("close", () => this.contexts.delete(context));
    const release = () => {
      const closed = Promise.race([
        context.close().catch(() => undefined),
        new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
      ]).then(() => {
        this.closing.delete(closed);
      });
      this.closing.add(closed);
    };
    try {
      return { context, page: await context.newPage(), release };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  private prepareSpare(browser: Browser): void {
    if (
      this.options.spare === false ||
      this.closed ||
      this.spare ||
      this.retired.has(browser) ||
      !browser.isConnected()
    )
      return;
    this.spare = { browser, ready: this.createPage(browser).catch(() => null) };
  }

  private async dropSpare(): Promise<void> {
    const spare = this.spare;
    this.spare = null;
    const ready = await spare?.ready;
    await ready?.context.close().catch(() => undefined);
  }

  /** Launches the browser ahead of the first scan, so that scan does not pay for the start. */
  async warm(): Promise<void> {
    this.prepareSpare(await this.current());
  }

  private async current(): Promise<Browser> {
    // a browser killed from outside is noticed here even before its "disconnected" event
    const cached = await this.browser?.catch(() => null);
    if (cached && !cached.isConnected()) this.browser = null;
    if (!this.browser) {
      const launching = this.launch();
      this.browser = launching;
      // a failed launch must not stay cached: the next scan tries again
      launching.catch(() => {
        if (this.browser === launching) this.browser = null;
      });
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    const args = [...BASE_ARGS];
    // the sandbox needs user namespaces that root in a container does not get
    if (process.getuid?.() === 0) args.push("--no-sandbox");
    if (this.options.webmcp ?? true) args.push(WEBMCP_FLAG);
    if (this.options.proxyServer) {
      // loopback too: Chromium sends it around a proxy unless told otherwise
      args.push(`--proxy-server=${await this.options.proxyServer()}`, "--proxy-bypass-list=<-loopback>");
    }
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath: this.options.executablePath, args, headless: true });
    } catch (error) {
      this.lastLaunchFailed = true;
      throw error;
    }
    this.lastLaunchFailed = false;
    this.launches += 1;
    this.served = 0;
    this.live.add(browser);
    if (this.nextLaunch !== "first") this.options.onRestart?.(this.nextLaunch);
    this.nextLaunch = "crash";
    browser.on("disconnected", () => {
      this.live.delete(browser);
      for (const context of browser.contexts()) this.contexts.delete(context);
      // a spare on a dead browser would stop the next browser from getting one
      if (this.spare?.browser === browser) this.spare = null;
      this.retired.delete(browser);
      void this.browser?.then((current) => {
        if (current === browser) this.browser = null;
      });
    });
    this.options.onLaunch?.(browser);
    return browser;
  }

  /** The next scan gets a new browser; this one closes when its last scan ends. */
  private retire(browser: Browser): void {
    if (this.spare?.browser === browser) void this.dropSpare();
    this.browser = null;
    this.served = 0;
    this.nextLaunch = "recycle";
    this.retired.add(browser);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.dropSpare();
    await Promise.all(this.closing);
    const current = await this.browser?.catch(() => null);
    this.browser = null;
    const all = new Set([...this.retired, ...this.users.keys()]);
    if (current) all.add(current);
    this.retired.clear();
    await Promise.all([...all].map((b) => b.close().catch(() => undefined)));
  }
}
