import pino, { type DestinationStream, type Level, type Logger } from "pino";
import { CENSOR, redactText, redactValue, SECRET_PARAMS } from "./redact";

export { CENSOR, isSecretParam, redactText, redactUrl, redactValue, SECRET_PARAMS } from "./redact";

/**
 * One logger shape for every service: JSON lines, the service's name on each, and secrets
 * censored wherever a careless `log.info({ req })` or `log.info({ headers })` might put them.
 * Censoring is the safety net; the rule is still not to log credentials at all. Fields named
 * like credentials are censored by path; every string of every line (its message, its fields,
 * a child's bindings, an error's message and stack) has the secret parameters of the URLs it
 * quotes censored (./redact.ts holds the one list).
 */
const HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-csrf-token"];

export const REDACT_PATHS = [
  ...["apiKey", "api_key", "password", "secret", "token"].flatMap((field) => [field, `*.${field}`]),
  ...HEADERS.flatMap((header) => [`["${header}"]`, `*["${header}"]`, `*.headers["${header}"]`]),
  ...SECRET_PARAMS.map((name) => `*.query["${name}"]`),
];

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

/**
 * pino formats only the root logger's bindings, not a child's (`log.child({ callback })`): the
 * child method, which every descendant inherits, censors them on the way in.
 */
const censoringChildren = (logger: Logger): Logger => {
  const child = logger.child;
  logger.child = function (this: Logger, bindings, options) {
    return child.call(this, redactValue(bindings) as typeof bindings, options);
  } as typeof child;
  return logger;
};

export const createLogger = ({ service, level }: LoggerSettings, destination?: DestinationStream): Logger =>
  censoringChildren(
    pino(
      {
        level,
        base: { service },
        redact: { paths: REDACT_PATHS, censor: CENSOR },
        formatters: { log: (object) => redactValue(object) as Record<string, unknown> },
        serializers: { msg: redactText },
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      destination,
    ),
  );
