import type { Db } from "@scan/db";
import type { DbClient } from "./transitions";

/** SQLSTATEs of a transaction Postgres gave up: to break a deadlock, or a serialization failure. */
const CONFLICT_STATES = new Set(["40P01", "40001"]);

/** How many times a transaction runs at most, the first run included. */
export const TRANSACTION_ATTEMPTS = 5;

/**
 * Whether `error` says Postgres rolled the whole transaction back to break a deadlock (40P01) or
 * a serialization conflict (40001): Prisma's P2034 (a model query), or the driver adapter's
 * error with its SQLSTATE (a raw query: P2010). Any other error, a unique violation included,
 * is not one.
 */
export const isConflict = (error: unknown): boolean => {
  const known = error as {
    code?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
  } | null;
  if (!known || typeof known !== "object") return false;
  if (known.code === "P2034") return true;
  const state = known.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof state === "string") return CONFLICT_STATES.has(state);
  return typeof known.message === "string" && /\b(40P01|40001)\b|deadlock detected/.test(known.message);
};

export type TransactionOptions = {
  /** runs at most, the first included (default TRANSACTION_ATTEMPTS) */
  attempts?: number;
  /** the wait before run `attempt + 1` (default: a short, growing, jittered pause) */
  pause?: (attempt: number) => Promise<void>;
};

const jitteredPause = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));

/**
 * Runs `work` in one interactive transaction, and runs it again, from the start, when Postgres
 * gave the transaction up to break a deadlock or a serialization conflict: the rollback undid
 * everything, so running again is as if it had come later. Every operation of @scan/records
 * that writes more than one statement goes through here. `work` must hold no effect outside
 * the database (a queue, a message), since it may run more than once; after the last attempt
 * the conflict is thrown.
 */
export const transaction = async <T>(
  db: Db,
  work: (tx: DbClient) => Promise<T>,
  { attempts = TRANSACTION_ATTEMPTS, pause = jitteredPause }: TransactionOptions = {},
): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction((tx) => work(tx));
    } catch (error) {
      if (attempt >= attempts || !isConflict(error)) throw error;
      await pause(attempt);
    }
  }
};
