import { isDatabaseBusy, isPrismaConnectionFailure } from "@scan/db";

/** ioredis's words when Redis is away or too slow: offline queue off, connection closed, retries spent, a command timed out. */
const REDIS_DOWN =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries|Command timed out|ECONNREFUSED|ETIMEDOUT|ECONNRESET/;

/**
 * node-postgres's and Postgres's own words when the server went away under a query: a socket
 * closed mid-query, an administrator's shutdown, a server starting or stopping. An error that
 * reaches here with only these words (no Prisma code over it) is the database's outage too.
 */
const POSTGRES_GONE =
  /Connection terminated unexpectedly|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)/;

type Failure = { name?: unknown; message?: unknown; cause?: unknown };

/** What an outage is: the database away, the database up with no connection free in time, or Redis away. */
export type Outage = "database" | "database-busy" | "queue";

/**
 * Which dependency an error says is down or overloaded, or null when it is a bug. Either is
 * the caller's 503 (retry shortly), never a 500: the request was fine and nothing about it was
 * stored half-way.
 */
export const dependencyOutage = (error: unknown, depth = 0): Outage | null => {
  if (error === null || typeof error !== "object" || depth > 3) return null;
  const failure = error as Failure;
  if (isDatabaseBusy(failure)) return "database-busy";
  if (isPrismaConnectionFailure(failure)) return "database";
  if (typeof failure.message === "string" && POSTGRES_GONE.test(failure.message)) return "database";
  const name = typeof failure.name === "string" ? failure.name : "";
  if (name === "MaxRetriesPerRequestError") return "queue";
  if (typeof failure.message === "string" && REDIS_DOWN.test(failure.message)) return "queue";
  return dependencyOutage(failure.cause, depth + 1);
};
