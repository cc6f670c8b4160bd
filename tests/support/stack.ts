import { createDb } from "@scan/db";
import { type Gateway, loadConfig as gatewayConfig, startGateway } from "@scan/gateway";
import { createLogger } from "@scan/platform";
import {
  createScanWorker,
  type OpsServer,
  type ScanWorker,
  startOpsServer,
  loadConfig as workerConfig,
} from "@scan/worker";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { TEST_JWT_SECRET } from "./accounts";
import { uniquePrefix } from "./services";

export type Stack = {
  gateway: Gateway;
  worker: ScanWorker | null;
  /** the worker's metrics port (/metrics, /healthz, /readyz) */
  workerOps: OpsServer | null;
  db: ReturnType<typeof createDb>;
  prefix: string;
  close: () => Promise<void>;
};

export type StackOptions = {
  databaseUrl: string;
  redisUrl: string;
  allowlist: string[];
  env?: Record<string, string>;
  /** false: start the gateway alone (jobs stay queued) */
  worker?: boolean;
  /** where both services log; by default a logger at TEST_LOG_LEVEL (silent) */
  log?: Logger;
};

/**
 * The real gateway and worker, in this process, on a queue prefix of their own, configured
 * through the same env parsing as production.
 */
export const startStack = async ({
  databaseUrl,
  redisUrl,
  allowlist,
  env = {},
  worker = true,
  log: givenLog,
}: StackOptions): Promise<Stack> => {
  const prefix = uniquePrefix();
  const common = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    SCAN_ALLOWLIST: allowlist.join(","),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    // rate counters of their own, so no two stacks (or runs) share a count
    RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
    JWT_SECRET: TEST_JWT_SECRET,
    METRICS_PORT: "0",
    METRICS_HOST: "127.0.0.1",
    ...env,
  };
  const log = givenLog ?? createLogger({ service: "test", level: common.LOG_LEVEL as "silent" });
  const config = gatewayConfig(common);
  const db = createDb(databaseUrl, { poolSize: config.DATABASE_POOL_SIZE, poolWaitMs: config.DATABASE_POOL_WAIT_MS });
  const gateway = await startGateway({ config, db, log });
  let scanWorker: ScanWorker | null = null;
  let connection: Redis | null = null;
  let workerOps: OpsServer | null = null;
  if (worker) {
    const settings = workerConfig(common);
    connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    scanWorker = createScanWorker({ config: settings, db, connection, log });
    await scanWorker.worker.waitUntilReady();
    workerOps = await startOpsServer({
      host: settings.METRICS_HOST,
      port: settings.METRICS_PORT,
      registry: scanWorker.metrics.registry,
      readiness: scanWorker.readiness,
      metricsToken: settings.METRICS_TOKEN,
    });
  }
  return {
    gateway,
    worker: scanWorker,
    workerOps,
    db,
    prefix,
    close: async () => {
      await gateway.close();
      await workerOps?.close();
      await scanWorker?.close(5_000);
      connection?.disconnect();
      await db.$disconnect();
    },
  };
};

export type ApiResponse = { status: number; headers: Headers; body: unknown };

export const api = async (
  base: string,
  path: string,
  init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> => {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${base}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  const textBody = await response.text();
  let parsed: unknown = textBody;
  try {
    parsed = JSON.parse(textBody);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
};
