import { type EngineConfig, EngineError, type EngineErrorKind, type EngineId } from "./engine";

export const DEFAULT_TIMEOUT_MS = 120_000;

/** Why the deadline's signal fired: the answer's own time limit, or the caller's abort. */
export type Deadline = { signal: AbortSignal; timedOut: () => boolean; aborted: () => boolean; dispose: () => void };

/** One signal for one answer: fires at the time limit or when the caller aborts, whichever is first. */
export const deadline = (timeoutMs: number, callerSignal?: AbortSignal): Deadline => {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    aborted: () => callerSignal?.aborted ?? false,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
    },
  };
};

const KEY_SHAPES = [
  /\bsk-[A-Za-z0-9_*.-]{6,}/g,
  /\bsk-ant-[A-Za-z0-9_*.-]{6,}/g,
  /\bpplx-[A-Za-z0-9_*.-]{6,}/g,
  /\bAIza[0-9A-Za-z_-]{10,}/g,
];

/**
 * A vendor's message with the key taken out: the key itself, and anything shaped like a key
 * (vendors echo a masked prefix and suffix of a wrong key, which is still part of it).
 */
export const redact = (message: string, apiKey: string): string => {
  let out = apiKey.length > 0 ? message.split(apiKey).join("[key]") : message;
  for (const shape of KEY_SHAPES) out = out.replace(shape, "[key]");
  return out.length > 300 ? `${out.slice(0, 300)}…` : out;
};

/** Milliseconds to wait from `Retry-After` (seconds or an HTTP date) or `retry-after-ms`. */
export const retryAfterMsOf = (headers: { get(name: string): string | null } | undefined, now = Date.now()) => {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/** The kind of a vendor's HTTP error status. */
export const kindOfStatus = (status: number): EngineErrorKind => {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 408 || status === 504) return "timeout";
  if (status >= 500) return "unavailable";
  return "bad_request";
};

type HttpishError = { status?: unknown; headers?: unknown; message?: unknown; name?: unknown };

/**
 * An error thrown by a vendor's client library (OpenAI's and Anthropic's share one shape: a
 * `status`, the response `headers`, the vendor's message) as the engine's error kind.
 */
export const engineErrorOf = (engine: EngineId, config: EngineConfig, error: unknown, time: Deadline): EngineError => {
  if (error instanceof EngineError) return error;
  if (time.timedOut())
    return new EngineError(
      engine,
      "timeout",
      `${engine} gave no answer within ${config.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`,
    );
  if (time.aborted()) return new EngineError(engine, "timeout", `${engine} call was cancelled`);
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpishError;
  const message = redact(typeof e.message === "string" ? e.message : String(error), config.apiKey);
  if (typeof e.status === "number") {
    const headers = e.headers as { get(name: string): string | null } | undefined;
    const kind = kindOfStatus(e.status);
    const text =
      kind === "auth" ? `${engine} refused the API key (${e.status})` : `${engine} answered ${e.status}: ${message}`;
    return new EngineError(
      engine,
      kind,
      text,
      e.status,
      kind === "rate_limited" && typeof headers?.get === "function" ? retryAfterMsOf(headers) : undefined,
    );
  }
  const name = typeof e.name === "string" ? e.name : "";
  // by name: a SyntaxError thrown by another realm's JSON.parse is no instance of this one's
  if (name === "SyntaxError") return new EngineError(engine, "malformed", `${engine} sent a body that is not JSON`);
  if (/timeout/i.test(name)) return new EngineError(engine, "timeout", `${engine} timed out: ${message}`);
  if (/abort/i.test(name)) return new EngineError(engine, "timeout", `${engine} call was cancelled`);
  return new EngineError(engine, "unavailable", `${engine} could not be reached: ${message}`);
};

/** Runs one vendor call under the answer's deadline and maps whatever it throws. */
export const underDeadline = async <T>(
  engine: EngineId,
  config: EngineConfig,
  callerSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> => {
  const time = deadline(config.timeoutMs ?? DEFAULT_TIMEOUT_MS, callerSignal);
  try {
    return await run(time.signal);
  } catch (error) {
    throw engineErrorOf(engine, config, error, time);
  } finally {
    time.dispose();
  }
};

/** A body that parsed but does not have the documented shape. */
export const malformed = (engine: EngineId, what: string) =>
  new EngineError(engine, "malformed", `${engine} sent an answer without ${what}`);

/** The region of a BCP 47 locale (`de-AT` → `AT`), for the vendors' approximate user location. */
export const countryOfLocale = (locale: string | undefined): string | undefined => {
  if (!locale) return undefined;
  try {
    return new Intl.Locale(locale).maximize().region ?? undefined;
  } catch {
    return undefined;
  }
};
