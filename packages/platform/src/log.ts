import pino, { type DestinationStream, type Level, type Logger } from "pino";

/**
 * One logger shape for every service: JSON lines, the service's name on each, and secrets
 * censored wherever a careless `log.info({ req })` or `log.info({ headers })` might put them.
 * Censoring is the safety net; the rule is still not to log credentials at all.
 */
export const REDACT_PATHS = [
  "authorization",
  "cookie",
  "apiKey",
  "api_key",
  "password",
  "secret",
  "token",
  '["x-api-key"]',
  '["set-cookie"]',
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "*.api_key",
  "*.password",
  "*.secret",
  "*.token",
  '*["x-api-key"]',
  '*["set-cookie"]',
  "*.headers.authorization",
  "*.headers.cookie",
  '*.headers["x-api-key"]',
  '*.headers["set-cookie"]',
  "*.query.key",
  "*.query.api_key",
  "*.query.token",
];

export const CENSOR = "[REDACTED]";

/** Query parameters whose values are credentials (the MCP endpoint takes the API key as `key`). */
const SECRET_PARAMS = new Set(["key", "api_key", "apikey", "token", "access_token", "secret", "password", "signature"]);

/**
 * A URL or request path fit for a log line: the values of credential-bearing query parameters
 * and any user:password are replaced. Keeps a relative path relative.
 */
export const redactUrl = (input: string): string => {
  const relative = !/^[a-z][a-z0-9+.-]*:\/\//i.test(input);
  let url: URL;
  try {
    url = new URL(input, "http://relative.invalid");
  } catch {
    return input.replace(/[?#].*$/, "?[unparsable query removed]");
  }
  const credentials = url.username !== "" || url.password !== "";
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase())) url.searchParams.set(name, CENSOR);
  }
  const search = url.search.replaceAll(encodeURIComponent(CENSOR), CENSOR);
  if (relative) return `${url.pathname}${search}`;
  return `${url.protocol}//${credentials ? `${CENSOR}@` : ""}${url.host}${url.pathname}${search}`;
};

export type LoggerSettings = { service: string; level: Level | "silent" };

/**
 * Standard output written asynchronously, for the services: a line costs the request a copy
 * into a buffer, not a write system call, and lines logged while a write is in flight go out
 * together. pino flushes what is buffered when the process exits.
 */
export const asyncStdout = (): DestinationStream => pino.destination({ dest: 1, sync: false });

/**
 * A logger on the same stream as `log`, with its level and bindings, that skips the censoring
 * pass: for lines whose every field the code builds itself from values it has vetted (the
 * gateway's request lines), where censoring can find nothing and costs most of the line's time.
 * Never hand it an object from outside.
 */
export const uncensored = (log: Logger): Logger =>
  pino(
    { level: log.level, base: log.bindings(), timestamp: pino.stdTimeFunctions.isoTime },
    (log as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym],
  );

export const createLogger = ({ service, level }: LoggerSettings, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      base: { service },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
