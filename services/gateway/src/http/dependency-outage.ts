/** Prisma error codes that mean the database could not be reached or answered too late. */
const DATABASE_DOWN_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** Driver adapter failures (under Prisma's P1001 family) that mean the same. */
const DATABASE_DOWN_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
/** ioredis's words when Redis is away: offline queue off, connection closed, retries spent. */
const REDIS_DOWN =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries|ECONNREFUSED|ETIMEDOUT|ECONNRESET/;

type Failure = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
  cause?: unknown;
};

/**
 * Which dependency an error says is down ("database" or "queue"), or null when it is a bug.
 * A dependency that is away is the caller's 503 (retry shortly), never a 500: the request was
 * fine and nothing about it was stored half-way.
 */
export const dependencyOutage = (error: unknown, depth = 0): "database" | "queue" | null => {
  if (error === null || typeof error !== "object" || depth > 3) return null;
  const failure = error as Failure;
  const name = typeof failure.name === "string" ? failure.name : "";
  if (name === "PrismaClientInitializationError") return "database";
  if (name === "PrismaClientKnownRequestError" && DATABASE_DOWN_CODES.has(String(failure.code))) return "database";
  const kind = failure.meta?.driverAdapterError?.cause?.kind;
  if (typeof kind === "string" && DATABASE_DOWN_KINDS.has(kind)) return "database";
  if (name === "MaxRetriesPerRequestError") return "queue";
  if (typeof failure.message === "string" && REDIS_DOWN.test(failure.message)) return "queue";
  return dependencyOutage(failure.cause, depth + 1);
};
