import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * The gateway serves the dashboard's build under /app/ with its Content-Security-Policy:
 * files as they are, index.html for the dashboard's own paths, a 404 for a missing asset.
 * (The real build, in real Chromium, is the end-to-end suite's: tests/e2e.)
 */

const INDEX = `<!doctype html><html><head><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;

afterAll(() => stopContainers());

describe("the dashboard under /app/", () => {
  let database: TestDatabase;
  let built: string;
  let empty: string;
  let stack: Stack;
  let bare: Stack;

  beforeAll(async () => {
    built = mkdtempSync(join(tmpdir(), "dashboard-"));
    mkdirSync(join(built, "assets"));
    writeFileSync(join(built, "index.html"), INDEX);
    writeFileSync(join(built, "assets", "index-abc123.js"), "document.title = 'x';\n");
    writeFileSync(join(built, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    empty = mkdtempSync(join(tmpdir(), "dashboard-none-"));
    database = await createTestDatabase();
    const common = { databaseUrl: database.url, redisUrl: await testRedisUrl(), allowlist: [], worker: false };
    stack = await startStack({ ...common, env: { DASHBOARD_DIR: built } });
    bare = await startStack({ ...common, env: { DASHBOARD_DIR: empty } });
  });

  afterAll(async () => {
    await stack?.close();
    await bare?.close();
    await database?.drop();
    rmSync(built, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  const get = (base: Stack, path: string) => fetch(`${base.gateway.url}${path}`, { redirect: "manual" });

  const expectPolicy = (response: Response) => {
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-eval");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  };

  it("answers index.html for the dashboard's own paths, under the policy and never cached stale", async () => {
    for (const path of ["/app/", "/app/sign-in", "/app/scans/6b1f6a4e-3c1b-4b7e-9d7e-1f2a3b4c5d6e", "/app/sites?q=x"]) {
      const response = await get(stack, path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expectPolicy(response);
      expect(await response.text()).toBe(INDEX);
    }
  });

  it("moves /app to /app/, keeping the query", async () => {
    const response = await get(stack, "/app?next=%2Fscans");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/app/?next=%2Fscans");
  });

  it("serves the build's files, hashed assets cached for a year, and a missing asset is 404", async () => {
    const asset = await get(stack, "/app/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expectPolicy(asset);
    const icon = await get(stack, "/app/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("cache-control")).toBe("no-cache");
    const missing = await get(stack, "/app/assets/index-gone.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/json/);
  });

  it("never serves a file from outside the build", async () => {
    for (const path of [
      "/app/../package.json",
      "/app/%2e%2e/%2e%2e/package.json",
      "/app/assets/..%2f..%2fpackage.json",
    ]) {
      const response = await get(stack, path);
      expect(await response.text()).not.toContain('"name"');
    }
  });

  it("says how to build it when there is no build (503)", async () => {
    const response = await get(bare, "/app/scans");
    expect(response.status).toBe(503);
    expectPolicy(response);
    expect(await response.text()).toContain("pnpm --filter @scan/dashboard build");
  });

  it("leaves the API's paths alone", async () => {
    const response = await get(stack, "/application");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toBeNull();
  });
});
