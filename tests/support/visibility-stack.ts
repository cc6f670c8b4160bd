import { type EngineServers, engineServersEnv, startEngineServers, type Vendor } from "./engine-servers";
import { startWorkerProcess, type WorkerProcess } from "./outages";
import { createTestDatabase, type TestDatabase, testRedisUrl } from "./services";
import { type Stack, startStack } from "./stack";

export type VisibilityStack = {
  servers: EngineServers;
  database: TestDatabase;
  stack: Stack;
  worker: WorkerProcess;
  redisUrl: string;
  /** the worker's whole environment: another worker of the same stack starts with it */
  workerEnv: Record<string, string>;
  /** ends the worker, the gateway, the engine servers and the database */
  close: () => Promise<void>;
};

export type VisibilityStackOptions = {
  /** the engines with the operator's keys, at the local servers */
  vendors: readonly Vendor[];
  /** hosts (or exact host:port) the gateway and the worker may scan besides public addresses */
  allowlist: string[];
  /** more of the gateway's environment */
  gatewayEnv?: Record<string, string>;
  /** more of the worker's environment (it wins over the engines' and the stack's), or that made from the servers' addresses */
  workerEnv?: Record<string, string> | ((servers: EngineServers) => Record<string, string>);
};

/** A visibility feature's whole stack: the local engines, a database, the gateway and a worker process. */
export const startVisibilityStack = async ({
  vendors,
  allowlist,
  gatewayEnv = {},
  workerEnv = {},
}: VisibilityStackOptions): Promise<VisibilityStack> => {
  const servers = await startEngineServers();
  const database = await createTestDatabase();
  const redisUrl = await testRedisUrl();
  const engines = engineServersEnv(servers, vendors);
  const secrets = { SITE_SECRETS_KEY: Buffer.alloc(32, 5).toString("base64") };
  let stack: Stack | null = null;
  let worker: WorkerProcess | null = null;
  let fullWorkerEnv: Record<string, string> = {};
  const close = async () => {
    worker?.process.kill("SIGKILL");
    await stack?.close();
    await servers.close();
    await database.drop();
  };
  try {
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl,
      allowlist,
      worker: false,
      env: { ...engines, RATE_LIMIT_PRO: "100000", RATE_LIMIT_AGENCY: "100000", ...secrets, ...gatewayEnv },
    });
    fullWorkerEnv = {
      ...engines,
      ...secrets,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: stack.prefix,
      SCAN_ALLOWLIST: allowlist.join(","),
      VISIBILITY_TIMEOUT_MS: "5000",
      ...(typeof workerEnv === "function" ? workerEnv(servers) : workerEnv),
    };
    worker = await startWorkerProcess(fullWorkerEnv);
  } catch (error) {
    // what did start is ended: a failed start leaves no server or database behind
    await close();
    throw error;
  }
  return { servers, database, stack, worker, redisUrl, workerEnv: fullWorkerEnv, close };
};
