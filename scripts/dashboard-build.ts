import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The dashboard's build, made when it is missing or older than what it is built from. */

const ROOT = resolve(__dirname, "..");
export const DASHBOARD_DIR = join(ROOT, "services/dashboard");
export const DASHBOARD_DIST = join(DASHBOARD_DIR, "dist");

/** What the build is made from: the dashboard's sources and the typed client it calls the API with. */
const SOURCES = [
  join(DASHBOARD_DIR, "src"),
  join(DASHBOARD_DIR, "public"),
  join(DASHBOARD_DIR, "index.html"),
  join(DASHBOARD_DIR, "vite.config.ts"),
  join(DASHBOARD_DIR, "package.json"),
  join(ROOT, "packages/client/src"),
];

const newest = (path: string): number => {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
};

/** Whether the build is missing or older than one of its sources. */
export const dashboardStale = (): boolean => {
  const index = join(DASHBOARD_DIST, "index.html");
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newest(source) > built);
};

/** Builds the dashboard with Vite (about a second or two); its output goes to services/dashboard/dist. */
export const buildDashboard = (): void => {
  const vite = join(DASHBOARD_DIR, "node_modules/vite/bin/vite.js");
  execFileSync(process.execPath, [vite, "build", "--logLevel", "warn"], { cwd: DASHBOARD_DIR, stdio: "inherit" });
};

/** Builds the dashboard unless its build is up to date; answers whether it built. */
export const ensureDashboardBuilt = (): boolean => {
  if (!dashboardStale()) return false;
  buildDashboard();
  return true;
};

// `pnpm dashboard:build` (and `pnpm test`, whose API tests serve /app/ too): build it if it is stale
if (require.main === module) {
  process.stdout.write(ensureDashboardBuilt() ? "built the dashboard\n" : "the dashboard's build is up to date\n");
}
