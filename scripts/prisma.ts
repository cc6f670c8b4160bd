/**
 * Runs the Prisma CLI for this workspace, offline-safe.
 *
 *   tsx scripts/prisma.ts generate         generate the client (needs no database)
 *   tsx scripts/prisma.ts migrate deploy   apply prisma/migrations to DATABASE_URL
 *   tsx scripts/prisma.ts <anything else>  passed to the Prisma CLI unchanged
 *
 * The Prisma CLI downloads a native schema engine on first use, even for `generate`, which
 * never runs it. Where that download is impossible and no engine is cached, the CLI is
 * pointed at a placeholder that explains itself if it is ever run. `migrate deploy` goes
 * through @scan/db/migrate, which keeps Prisma's own history table, so the stock
 * `prisma migrate deploy` and this one agree about what is applied.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const DB_PACKAGE = join(ROOT, "packages/db");

const cachedSchemaEngine = (): boolean => {
  const prismaCli = require.resolve("prisma/package.json", { paths: [DB_PACKAGE] });
  const enginesDir = join(dirname(require.resolve("@prisma/engines/package.json", { paths: [prismaCli] })));
  return existsSync(enginesDir) && readdirSync(enginesDir).some((file) => file.startsWith("schema-engine-"));
};

const runCli = (args: string[]): number => {
  const env = { ...process.env };
  if (!env.PRISMA_SCHEMA_ENGINE_BINARY && !cachedSchemaEngine()) {
    env.PRISMA_SCHEMA_ENGINE_BINARY = join(ROOT, "scripts/schema-engine-unavailable");
  }
  const cli = join(dirname(require.resolve("prisma/package.json", { paths: [DB_PACKAGE] })), "build/index.js");
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: ROOT, env, stdio: "inherit" });
  return result.status ?? 1;
};

const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  if (args[0] === "migrate" && args[1] === "deploy") {
    const url = process.env.DATABASE_URL;
    if (!url) {
      console.error("DATABASE_URL is not set: point it at the Postgres database to migrate");
      return 1;
    }
    // loaded here, not at the top: `generate` must run before anything that needs the client
    const { migrateDeploy } = await import("@scan/db");
    const applied = await migrateDeploy(url);
    console.log(applied.length ? `applied ${applied.join(", ")}` : "no pending migrations");
    return 0;
  }
  return runCli(args);
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
