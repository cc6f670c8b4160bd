/**
 * Fills a demo user with sites, tracked keywords and 90 days of AI-engine citation tracks, and
 * prints a new API key to try the API with. Applies pending migrations first.
 *
 *   pnpm -s seed [--email demo@example.com] [--plan pro] [--replace]
 *
 * Reads DATABASE_URL. A user who already has sites is left alone unless --replace is given,
 * which deletes that user's sites (with their keywords and citation tracks) first.
 */
import { parseArgs } from "node:util";
import { AppError, Plan } from "@scan/contract";
import { problemSentence } from "@scan/contract/wait";
import { createDb, migrateDeploy } from "@scan/db";
import { CommonConfig, parseConfig } from "@scan/platform";
import { z } from "zod";
import { seedDemoUser } from "./seed/demo-seed";

const Config = z.object({ DATABASE_URL: CommonConfig.DATABASE_URL, PORT: z.string().default("3000") });

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      email: { type: "string", default: "demo@example.com" },
      plan: { type: "string", default: "pro" },
      replace: { type: "boolean", default: false },
    },
  });
  const plan = Plan.safeParse(values.plan);
  if (!plan.success) fail(`--plan must be one of ${Plan.options.join(", ")}`);
  const config = parseConfig(Config, process.env, "seed");
  await migrateDeploy(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, { poolSize: 2 });
  try {
    const seeded = await seedDemoUser(db, { email: values.email, plan: plan.data ?? "pro", replace: values.replace });
    const base = `http://localhost:${config.PORT}/api/v1`;
    process.stdout.write(
      [
        `Seeded ${seeded.user.email} (${seeded.user.plan}): ${seeded.sites} sites, ${seeded.keywords} keywords, ${seeded.citations} citation tracks.`,
        "",
        "API key (shown once; only its hash is stored):",
        `  ${seeded.key}`,
        "",
        "Try it with the gateway running:",
        `  curl -H "X-API-Key: ${seeded.key}" "${base}/sites"`,
        `  curl -H "X-API-Key: ${seeded.key}" "${base}/keywords?limit=5"`,
        `  curl -H "X-API-Key: ${seeded.key}" "${base}/citations?engine=perplexity&date_range=7d"`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    if (error instanceof AppError) fail(problemSentence(error.message, error.hint));
    throw error;
  } finally {
    await db.$disconnect();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
