import { isPrismaConnectionFailure } from "@scan/db";

/** ioredis's words when Redis is away: offline queue off, connection closed, retries spent. */
const REDIS_DOWN =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries|ECONNREFUSED|ETIMEDOUT|ECONNRESET/;

type Failure = { name?: unknown; message?: unknown; cause?: unknown };

/**
 * Which dependency an error says is down ("database" or "queue"), or null when it is a bug.
 * A dependency that is away is the caller's 503 (retry shortly), never a 500: the request was
 * fine and nothing about it was stored half-way.
 */
export const dependencyOutage = (error: unknown, depth = 0): "database" | "queue" | null => {
  if (error === null || typeof error !== "object" || depth > 3) return null;
  const failure = error as Failure;
  if (isPrismaConnectionFailure(failure)) return "database";
  const name = typeof failure.name === "string" ? failure.name : "";
  if (name === "MaxRetriesPerRequestError") return "queue";
  if (typeof failure.message === "string" && REDIS_DOWN.test(failure.message)) return "queue";
  return dependencyOutage(failure.cause, depth + 1);
};
