/**
 * A bench's stack started for its API: the gateway and the workers in processes of their own
 * (./stack.ts), on an environment every bench gives them alike, and an agency account's key to
 * call the API with.
 */
import type { Db } from "@scan/db";
import { createKeyService, createUserService, personalKeyOwner } from "@scan/gateway";
import { type Service, startGatewayProcess, startWorkerProcess } from "./stack";

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field as the tests read them
type Json = Record<string, any>;

/**
 * The services' environment: the bench's database, its queue and rate-counter prefix, info logs,
 * no metrics port, and an agency rate limit no bench reaches; `more` adds or overrides.
 */
export const benchEnv = (
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  more: Record<string, string> = {},
): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "/tmp",
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: prefix,
  RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
  LOG_LEVEL: "info",
  METRICS_PORT: "0",
  RATE_LIMIT_AGENCY: "1000000",
  ...more,
});

export type ApiAnswer = { status: number; body: Json };

export type ApiStack = {
  url: string;
  workers: Service[];
  /** the agency account's API key */
  key: string;
  /** GET without a body, POST with one, unless `method` says otherwise */
  call: (path: string, body?: unknown, method?: string) => Promise<ApiAnswer>;
  /** stops the gateway and the workers */
  stop: () => Promise<void>;
};

/**
 * Starts the gateway and `workers` workers (`worker-0`, …) on `env`, and an agency account
 * (bench-<QUEUE_PREFIX>@example.com) with a key; what has started is stopped again when the rest
 * does not come up.
 */
export const startApiStack = async (db: Db, env: Record<string, string>, workers: number): Promise<ApiStack> => {
  const gateway = await startGatewayProcess(env);
  const running: Service[] = [];
  const stop = async () => {
    await Promise.all([gateway.service.stop(), ...running.map((worker) => worker.stop())]);
  };
  try {
    for (let i = 0; i < workers; i++) running.push(await startWorkerProcess(`worker-${i}`, env));
    const user = await createUserService(db).create(`bench-${env.QUEUE_PREFIX}@example.com`, "agency");
    const { key } = await createKeyService({ db, maxKeysPerUser: 10 }).create(await personalKeyOwner(db, user), {});
    const call = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") => {
      const response = await fetch(`${gateway.url}${path}`, {
        method,
        headers: { "x-api-key": key, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    return { url: gateway.url, workers: running, key, call, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
