import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Flags for a headless Chromium in a closed network: no phoning home, no first-run work. */
const BASE_ARGS = [
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
 * Where Chromium is: the configured path, else Playwright's own browser when installed,
 * else Debian's. /usr/lib/chromium/chromium starts faster than the /usr/bin wrapper script.
 */
export const resolveChromiumPath = (configured: string | undefined): string => {
  if (configured) return configured;
  const candidates = [
    safePlaywrightPath(),
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ];
  const found = candidates.find((path): path is string => typeof path === "string" && existsSync(path));
  if (!found) {
    throw new Error("Chromium not found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH");
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

export type BrowserPoolOptions = {
  executablePath: string;
  /** relaunch after this many scans, so a slow leak in the browser cannot grow for ever */
  recycleAfter: number;
  onLaunch?: (browser: Browser) => void;
};

/**
 * One Chromium per worker process, shared by its concurrent scans (each in its own context).
 * A browser that dies is relaunched on the next acquire; one that has served `recycleAfter`
 * scans is replaced once the scans using it have finished.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private served = 0;
  /** scans running on each browser, so a retired one closes once its last scan ends */
  private readonly users = new Map<Browser, number>();
  private readonly retired = new Set<Browser>();
  launches = 0;

  constructor(private readonly options: BrowserPoolOptions) {}

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

  private current(): Promise<Browser> {
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
    const browser = await chromium.launch({ executablePath: this.options.executablePath, args, headless: true });
    this.launches += 1;
    this.served = 0;
    browser.on("disconnected", () => {
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
    this.browser = null;
    this.served = 0;
    this.retired.add(browser);
  }

  async close(): Promise<void> {
    const current = await this.browser?.catch(() => null);
    this.browser = null;
    const all = new Set([...this.retired, ...this.users.keys()]);
    if (current) all.add(current);
    this.retired.clear();
    await Promise.all([...all].map((b) => b.close().catch(() => undefined)));
  }
}
