import type { Redis } from "ioredis";

/**
 * Takes a slot for one page of a host, or says how long to wait for one. A host has at most
 * `limit` pages being fetched at once across every worker, and with a Crawl-delay a page starts
 * no sooner than that delay after the previous one. A slot is a lease: a worker killed under a
 * page gives its slot back when the lease runs out. Taking a slot again under the same id (a
 * retried job) renews it.
 *
 * KEYS: the host's slots (sorted set, member → lease end), the host's next allowed start.
 * ARGV: now, member, lease ms, limit, delay ms. Returns 0 (taken) or the ms to wait.
 */
const ACQUIRE = `
local now = tonumber(ARGV[1])
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
  return 0
end
local nextAt = tonumber(redis.call('GET', KEYS[2]) or '0')
if nextAt > now then return nextAt - now end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return -1 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease)
local delay = tonumber(ARGV[5])
if delay > 0 then redis.call('SET', KEYS[2], now + delay, 'PX', delay) end
return 0
`;

/** how long a page waits to look again when every slot of its host is taken */
const FULL_WAIT_MS = 500;

export type HostSlots = {
  /** 0 when the slot is taken, else how many ms to wait before asking again */
  acquire: (origin: string, holder: string, crawlDelayMs: number) => Promise<number>;
  release: (origin: string, holder: string) => Promise<void>;
};

export const createHostSlots = ({
  redis,
  prefix,
  limit,
  leaseMs,
}: {
  redis: Pick<Redis, "eval" | "zrem">;
  /** the queue prefix: each deployment (and test) keeps its own slots */
  prefix: string;
  limit: number;
  leaseMs: number;
}): HostSlots => {
  const keys = (origin: string) => [`${prefix}:audit-host:${origin}`, `${prefix}:audit-host-next:${origin}`];
  return {
    acquire: async (origin, holder, crawlDelayMs) => {
      const [slots, next] = keys(origin);
      const answer = Number(
        await redis.eval(ACQUIRE, 2, slots as string, next as string, Date.now(), holder, leaseMs, limit, crawlDelayMs),
      );
      if (answer === 0) return 0;
      // jitter, so pages waiting for one host do not all ask again in the same instant
      return (answer < 0 ? FULL_WAIT_MS : answer) + Math.floor(Math.random() * 100);
    },
    release: async (origin, holder) => {
      const [slots] = keys(origin);
      await redis.zrem(slots as string, holder);
    },
  };
};
