import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { Authenticator, KeyCaller } from "../access/authenticate";
import { clientBucket } from "../access/client-ip";
import { createRateLimitMemory } from "../access/rate-limit-memory";
import { type RateLimiter, type RateLimitState, type RateSubject, rateLimitHeaders } from "../access/rate-limiter";

/** A read of the counters is cosmetic: it never holds a probe or an error answer up for longer. */
const READ_BUDGET_MS = 250;

export type RateLimitShownDeps = { auth: Authenticator; limiter: RateLimiter; log: Logger };

/**
 * The X-RateLimit-* headers on responses that spend nothing (docs/spec/public-scanning-api.md
 * §8: every response carries them): probes, the API reference, unknown paths, the tool
 * server's refusals. The caller's counter is read, not counted: an API key's when the request
 * carries a valid one, else the client address's anonymous one. A response that already
 * carries the headers (the API counted the request) is left alone. The read waits at most
 * READ_BUDGET_MS; when it is slower or fails, the headers show the remembered state instead
 * (createRateLimitMemory), so no answer goes without them and none waits on Redis.
 */
export const rateLimitShown = ({ auth, limiter, log }: RateLimitShownDeps): RequestHandler => {
  const memory = createRateLimitMemory(limiter.limitOf);
  return async (req, res, next) => {
    if (res.hasHeader("X-RateLimit-Limit")) return next();
    let caller: KeyCaller | null = null;
    try {
      const query = typeof req.query.key === "string" && req.path.startsWith("/mcp") ? req.query.key : undefined;
      caller = await auth.byKey({ authorization: req.get("authorization"), apiKey: req.get("x-api-key"), query });
    } catch {
      // a refused or foreign credential (a JWT, Basic): the address's counter, as the API counts it
    }
    const subject: RateSubject = caller
      ? { kind: "key", keyId: caller.keyId, plan: caller.plan, form: caller.defaultForm }
      : { kind: "ip", bucket: clientBucket(req.ip) };
    let timer: NodeJS.Timeout | undefined;
    let state: RateLimitState | null = null;
    try {
      state = await Promise.race([
        limiter.peek(subject),
        new Promise<null>((resolve) => {
          timer = setTimeout(resolve, READ_BUDGET_MS, null);
        }),
      ]);
      if (state) memory.remember(subject, state);
    } catch (error) {
      log.debug({ err: error instanceof Error ? error.message : String(error) }, "rate counters unreadable");
    } finally {
      clearTimeout(timer);
    }
    if (!res.hasHeader("X-RateLimit-Limit")) {
      const shown = state ?? memory.fallback(subject);
      for (const [name, value] of Object.entries(rateLimitHeaders({ ...shown, retryAfterS: null }))) {
        res.setHeader(name, value);
      }
    }
    next();
  };
};
