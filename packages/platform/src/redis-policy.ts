import type { Logger } from "pino";

/** What a Redis answers to INFO: ioredis's `info(section)`, or anything that can send it. */
export type RedisInfo = { info: (section: string) => Promise<string> };

/**
 * The queue keeps jobs, their locks and their history in Redis, none of it with a copy
 * elsewhere: a Redis that evicts keys when memory fills (any `maxmemory-policy` but
 * `noeviction`; even the volatile-* ones, which take the job locks) silently loses scans. Asks
 * INFO (CONFIG is often disabled on managed Redis) and warns when the policy evicts; answers
 * the policy, or null when Redis did not say. Never throws: a Redis that is away now is the
 * readiness probe's business.
 */
export const warnIfRedisEvicts = async (redis: RedisInfo, log: Logger): Promise<string | null> => {
  let info: string;
  try {
    info = await redis.info("memory");
  } catch (error) {
    log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "could not read Redis's maxmemory-policy",
    );
    return null;
  }
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1] ?? null;
  if (policy && policy !== "noeviction") {
    log.warn(
      { maxmemoryPolicy: policy },
      "Redis evicts keys when its memory fills (maxmemory-policy is not noeviction): queued scans can be lost; set maxmemory-policy noeviction",
    );
  }
  return policy;
};
