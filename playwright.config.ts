import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * The dashboard's end-to-end tests (tests/e2e): Debian's Chromium (never a downloaded browser)
 * against the real gateway, worker, Postgres and Redis that the global setup starts on free
 * ports. `pnpm test` runs them after jest; `pnpm test:e2e` alone.
 */
const chromium =
  process.env.CHROMIUM_PATH ??
  ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  // two cores: two browsers at once, each test file on its own user
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // waits for the page to show a state, not time bounds: a loaded machine gets there later
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: chromium },
    viewport: { width: 1280, height: 800 },
    trace: "off",
    screenshot: "off",
  },
});
