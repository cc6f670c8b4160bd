import { createDb } from "@scan/db";
import { asyncStdout, createLogger, onShutdownSignals } from "@scan/platform";
import { Redis } from "ioredis";
import { loadConfig } from "./config";
import { startOpsServer } from "./infra/ops-server";
import { createScanWorker } from "./worker";

const main = async () => {
  const config = loadConfig(process.env);
  const log = createLogger({ service: "worker", level: config.LOG_LEVEL }, asyncStdout());
  const db = createDb(config.DATABASE_URL);
  // BullMQ workers block on Redis: they need maxRetriesPerRequest null
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const scanWorker = createScanWorker({ config, db, connection, log });
  const ops = await startOpsServer({
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
    registry: scanWorker.metrics.registry,
    readiness: scanWorker.readiness,
    metricsToken: config.METRICS_TOKEN,
  });
  log.info({ concurrency: config.WORKER_CONCURRENCY, ops: ops.url }, "worker started");

  onShutdownSignals({
    log,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    close: async () => {
      await scanWorker.close(config.SHUTDOWN_TIMEOUT_MS);
      await ops.close();
      await db.$disconnect();
      connection.disconnect();
    },
  });
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
