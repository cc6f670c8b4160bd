/**
 * Applies pending migrations to DATABASE_URL, as the gateway image's migration step does
 * (`node dist/migrate.js`; in the workspace `pnpm db:migrate`). Prisma's advisory lock makes
 * replicas that start together wait in turn.
 */
import { migrateDeploy } from "@scan/db";
import { CommonConfig, parseConfig } from "@scan/platform";
import { z } from "zod";

const Config = z.object({ DATABASE_URL: CommonConfig.DATABASE_URL });

const main = async () => {
  const config = parseConfig(Config, process.env, "migrate");
  const applied = await migrateDeploy(config.DATABASE_URL);
  process.stdout.write(applied.length ? `applied ${applied.join(", ")}\n` : "no pending migrations\n");
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
