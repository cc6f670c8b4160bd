import type { Db } from "@scan/db";

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Runs `work` in a transaction holding a per-owner (a workspace's, a user's), per-purpose advisory lock, so that a
 * count-then-insert (monthly quota, key cap) cannot be raced past by concurrent requests,
 * across any number of gateway processes.
 */
export const withUserLock = <T>(db: Db, purpose: string, ownerId: string, work: (tx: Tx) => Promise<T>): Promise<T> =>
  db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${purpose}:${ownerId}`}, 0))`;
      return work(tx);
    },
    // a burst from one user queues on the lock and the pool; each holder is brief
    { maxWait: 10_000, timeout: 10_000 },
  );
