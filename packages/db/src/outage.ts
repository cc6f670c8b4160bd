/** Prisma error codes that mean the database could not be reached or answered too late. */
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
/** Driver adapter failures (under Prisma's P1001 family) that mean the same. */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** What node-postgres and the socket say when the server went away mid-query or refuses connections. */
const UNREACHABLE_MESSAGES =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)/;

/**
 * What a database that is up but has no connection free in time says: node-postgres's pool
 * (a query waited its `connectionTimeoutMillis`, or a new connection was not accepted within
 * it), Prisma's transaction manager (a transaction could not start within `maxWait`, or ran
 * past its `timeout`), and the query engine's pool (P2024).
 */
const BUSY_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

type Failure = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
  cause?: unknown;
};

/**
 * Whether Prisma itself (this one error, not its causes) says it could not reach the database:
 * it could not connect, or the driver adapter lost the connection (a pool that timed out is `isDatabaseBusy`).
 */
export const isPrismaConnectionFailure = (error: unknown): boolean => {
  if (error === null || typeof error !== "object") return false;
  const failure = error as Failure;
  const name = typeof failure.name === "string" ? failure.name : "";
  if (name === "PrismaClientInitializationError") return true;
  if (name === "PrismaClientKnownRequestError" && UNREACHABLE_CODES.has(String(failure.code))) return true;
  const kind = failure.meta?.driverAdapterError?.cause?.kind;
  return typeof kind === "string" && UNREACHABLE_KINDS.has(kind);
};

/**
 * Whether an error (or a cause under it) says the database is busy: every connection was in use
 * for longer than a query may wait for one. The request was fine and nothing of it was stored;
 * the same request shortly after is likely to succeed.
 */
export const isDatabaseBusy = (error: unknown, depth = 0): boolean => {
  if (error === null || typeof error !== "object" || depth > 3) return false;
  const failure = error as Failure;
  if (failure.name === "PrismaClientKnownRequestError" && failure.code === "P2024") return true;
  if (typeof failure.message === "string" && BUSY_MESSAGES.test(failure.message)) return true;
  return isDatabaseBusy(failure.cause, depth + 1);
};

/**
 * Whether an error says Postgres could not be reached (down, restarting, connection cut, pool
 * exhausted), as opposed to a real error about the query or its data. The first is worth
 * waiting out; the second is not.
 */
export const isDatabaseUnreachable = (error: unknown, depth = 0): boolean => {
  if (error === null || typeof error !== "object" || depth > 3) return false;
  const failure = error as Failure;
  if (isPrismaConnectionFailure(failure) || isDatabaseBusy(failure)) return true;
  // a Postgres error with a SQLSTATE is an answer from the server, not its absence (57P01-03 aside)
  if (typeof failure.code === "string" && /^57P0[123]$/.test(failure.code)) return true;
  if (typeof failure.message === "string" && UNREACHABLE_MESSAGES.test(failure.message)) return true;
  return isDatabaseUnreachable(failure.cause, depth + 1);
};
