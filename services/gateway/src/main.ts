import { createDb } from "@scan/db";
import { asyncStdout, createLogger } from "@scan/platform";
import { loadConfig } from "./config";
import { startGateway } from "./gateway";

const main = async () => {
  const config = loadConfig(process.env);
  const log = createLogger({ service: "gateway", level: config.LOG_LEVEL }, asyncStdout());
  const db = createDb(config.DATABASE_URL);
  const gateway = await startGateway({ config, db, log });
  log.info({ url: gateway.url }, `gateway listening on ${gateway.url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const hardStop = setTimeout(() => {
      log.error("shutdown did not finish in time; exiting");
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
    try {
      await gateway.close();
      await db.$disconnect();
    } finally {
      clearTimeout(hardStop);
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
