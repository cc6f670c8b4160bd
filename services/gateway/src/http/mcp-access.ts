import { AppError, waitInWords } from "@scan/contract";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { Authenticator, KeyCaller, KeyCarriers } from "../access/authenticate";
import { clientBucket } from "../access/client-ip";
import { type RateLimiter, type RateLimitState, type RateSubject, rateLimitHeaders } from "../access/rate-limiter";

export type McpAccessDeps = { auth: Authenticator; limiter: RateLimiter; log: Logger };

const KEY_HINT =
  "Send an API key in Authorization: Bearer <key>, X-API-Key: <key>, or as ?key=<key> on the tool server's URL.";

/** The `key` query parameter: one value, or several equal ones; different values are two keys. */
const queryKey = (value: unknown): string | undefined => {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return undefined;
  const distinct = new Set(value.filter((item): item is string => typeof item === "string"));
  if (distinct.size > 1) throw new AppError("unauthenticated", "Two different API keys were sent", KEY_HINT);
  return [...distinct][0];
};

export type McpAccess = {
  /** The key as each carrier sent it: Authorization, X-API-Key and the `key` query parameter. */
  carriersOf: (req: Request) => KeyCarriers;
  /** Whether any carrier holds a key at all. */
  sentKey: (carriers: KeyCarriers) => boolean;
  /** The key holder behind a request; anyone else is counted against their address and refused. */
  authenticate: (req: Request, res: Response, carriers: KeyCarriers) => Promise<KeyCaller>;
  /** Counts `calls` tools/call messages against the key and sets the X-RateLimit-* headers. */
  count: (res: Response, caller: KeyCaller, calls: number) => Promise<void>;
};

/**
 * Authentication and rate limits for the tool server, in its own terms (the routes render the
 * refusals as JSON-RPC errors). Every request needs an API key, from any of the three carriers
 * (docs/spec/public-scanning-api.md §5.1 and §5.2). A request with no key, or a refused one, is counted against its address's
 * anonymous allowance, as on the REST API, so guessing keys here is throttled too. A key's own
 * allowance is spent by tools/call alone, one per call: the handshake, tools/list and the SSE
 * stream cost nothing, so a client's connection does not eat into a plan's hourly scans.
 */
export const createMcpAccess = ({ auth, limiter, log }: McpAccessDeps): McpAccess => {
  const window = limiter.windowS === 3_600 ? "hour" : `${limiter.windowS} seconds`;

  const counters = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "rate limiter unavailable");
      throw new AppError("service_unavailable", "The rate limiter is unavailable", "Try again in a few seconds.");
    }
  };

  const show = (res: Response, state: RateLimitState) => {
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
  };

  const refuseOver = (state: RateLimitState, who: string, hint: string) => {
    if (state.allowed) return;
    throw new AppError(
      "rate_limited",
      `Rate limit of ${state.limit} requests per ${window} reached for ${who}`,
      `Try again in ${waitInWords(state.retryAfterS ?? 1)}${hint}.`,
      { "Retry-After": String(state.retryAfterS) },
    );
  };

  const carriersOf = (req: Request): KeyCarriers => ({
    authorization: req.get("authorization"),
    apiKey: req.get("x-api-key"),
    query: queryKey(req.query.key),
  });

  const sentKey = (carriers: KeyCarriers): boolean =>
    [carriers.authorization, carriers.apiKey, carriers.query].some((value) => value !== undefined && value !== "");

  /** The key holder behind a request; anyone else is counted against their address and refused. */
  const authenticate = async (req: Request, res: Response, carriers: KeyCarriers): Promise<KeyCaller> => {
    let refusal: AppError | null = null;
    try {
      const caller = await auth.byKey(carriers);
      if (caller) return caller;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal = error;
    }
    // req.ip honours TRUST_PROXY hops; with none trusted it is the socket's address
    const subject: RateSubject = { kind: "ip", bucket: clientBucket(req.ip) };
    const state = await counters(() => limiter.consume(subject));
    show(res, state);
    refuseOver(state, "this address", "");
    throw refusal ?? new AppError("unauthenticated", "The tool server needs an API key", KEY_HINT);
  };

  /**
   * Counts `calls` tools/call messages against the key (each one, even when a later one in a
   * batch is refused) and sets the X-RateLimit-* headers; with none, only sets the headers.
   */
  const count = async (res: Response, caller: KeyCaller, calls: number): Promise<void> => {
    const subject: RateSubject = { kind: "key", keyId: caller.keyId, plan: caller.plan, form: caller.defaultForm };
    if (calls === 0) {
      show(res, { ...(await counters(() => limiter.peek(subject))), retryAfterS: null });
      return;
    }
    for (let index = 0; index < calls; index += 1) {
      const state = await counters(() => limiter.consume(subject));
      show(res, state);
      refuseOver(state, "this API key", "");
    }
  };

  return { carriersOf, sentKey, authenticate, count };
};
