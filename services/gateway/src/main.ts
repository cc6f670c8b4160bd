import { createDb } from "@scan/db";
import { asyncStdout, createLogger, onShutdownSignals } from "@scan/platform";
import { loadConfig } from "./config";
import { startGateway } from "./gateway";

const main = async () => {
  const config = loadConfig(process.env);
  const log = createLogger({ service: "gateway", level: config.LOG_LEVEL }, asyncStdout());
  const db = createDb(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    poolWaitMs: config.DATABASE_POOL_WAIT_MS,
  });
  const gateway = await startGateway({ config, db, log });
  log.info({ url: gateway.url }, `gateway listening on ${gateway.url}`);

  onShutdownSignals({
    log,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    close: async () => {
      await gateway.close();
      await db.$disconnect();
    },
  });
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
