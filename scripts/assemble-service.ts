/**
 * Lays out one compiled service as its image runs it: `tsx scripts/assemble-service.ts <gateway|worker>
 * <dir>` (after `pnpm build`) writes <dir>/services/<name>/ with dist/ and the service's production
 * dependencies (`pnpm deploy --prod`, for the modules the bundle leaves out), and for the gateway
 * <dir>/prisma/migrations. The Dockerfiles run this in their build stage and copy <dir> to /app;
 * tests/production-build.test.ts runs the same layout, so what is tested is what is shipped.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "./build";

export type ServiceName = "gateway" | "worker";

/** The service's directory inside the layout, where `node dist/main.js` is run. */
export const serviceDir = (dir: string, service: ServiceName): string => join(dir, "services", service);

export const assembleService = (service: ServiceName, dir: string): string => {
  const target = serviceDir(dir, service);
  const dist = join(ROOT, "services", service, "dist");
  if (!existsSync(join(dist, "main.js")))
    throw new Error(`services/${service}/dist/main.js is missing: run pnpm build`);
  rmSync(target, { recursive: true, force: true });
  execFileSync("pnpm", ["--filter", `@scan/${service}`, "deploy", "--prod", target], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  // the TypeScript sources are in the bundle; only dist/ runs
  rmSync(join(target, "src"), { recursive: true, force: true });
  cpSync(dist, join(target, "dist"), { recursive: true });
  if (service === "gateway") {
    cpSync(join(ROOT, "prisma", "migrations"), join(dir, "prisma", "migrations"), { recursive: true });
  }
  return target;
};

if (require.main === module) {
  const [service, dir] = process.argv.slice(2);
  if ((service !== "gateway" && service !== "worker") || !dir) {
    process.stderr.write("usage: tsx scripts/assemble-service.ts <gateway|worker> <dir>\n");
    process.exit(2);
  }
  process.stdout.write(`${assembleService(service, resolve(dir))}\n`);
}
