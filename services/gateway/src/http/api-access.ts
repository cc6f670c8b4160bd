import { AppError, waitInWords } from "@scan/contract";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { ANONYMOUS, type Authenticator, type Caller, type UserCaller } from "../access/authenticate";
import { clientBucket } from "../access/client-ip";
import { UNKNOWN_STATE_RETRY_S, unknownRateLimitState } from "../access/rate-limit-memory";
import { type RateLimiter, type RateLimitState, type RateSubject, rateLimitHeaders } from "../access/rate-limiter";
import { ACCESS_PARAM } from "../access/scan-access";
import type { Route } from "./route";
import { pathTable } from "./route-paths";
import { assertNotForeign } from "./session-access";

declare global {
  namespace Express {
    interface Locals {
      caller: Caller;
      /** the caller's rate-limit window after this request was counted */
      rateLimit: RateLimitState;
      /**
       * Gives back the point this request spent of the rate limit, for an answer that costs
       * nothing (a 304, an idempotent replay); at most once, never failing the request.
       */
      giveBack?: () => Promise<void>;
    }
  }
}

export type ApiAccessDeps = {
  /** the API's routes: who each admits decides how a request on its path is authenticated */
  routes: readonly Route[];
  auth: Authenticator;
  limiter: RateLimiter;
  log: Logger;
  /**
   * The dashboard session a request's cookie names, as its user: asked only on a path whose
   * route is `account-or-cookie` (a browser's EventSource sends no header of ours), when the
   * request carries no other credential.
   */
  sessionCaller?: (req: Request) => Promise<UserCaller | null>;
  /** told of every request the rate limit refuses, with the caller's plan (or anonymous), for the metrics */
  onRejected?: (plan: string) => void;
};

/** Requests that only read: a dashboard session's are counted on the session's own budget. */
const READS = new Set(["GET", "HEAD"]);

/**
 * What a caller's requests are counted against: its key, its user (key endpoints, and every
 * change a dashboard session makes: a scan started there costs one request of the plan, as over
 * the API), a dashboard session's reads in the session's own window, or its address; an
 * anonymous read by an access link (`byLink`) in the address's window of reads.
 */
export const subjectOf = (caller: Caller, req: Request, byLink = false): RateSubject => {
  switch (caller.kind) {
    case "key":
      return { kind: "key", keyId: caller.keyId, plan: caller.plan, form: caller.defaultForm };
    case "user":
      if (caller.sessionId !== null && READS.has(req.method))
        return { kind: "session-read", sessionId: caller.sessionId };
      return { kind: "user", userId: caller.userId, plan: caller.plan };
    case "anonymous":
      // req.ip honours TRUST_PROXY hops; with none trusted it is the socket's address
      return { kind: byLink ? "ip-read" : "ip", bucket: clientBucket(req.ip) };
  }
};

/** The cookie's session, for a request from this gateway's own pages only: another origin's page never rides on it. */
const byCookie = async (
  req: Request,
  sessionCaller: (req: Request) => Promise<UserCaller | null>,
): Promise<UserCaller | null> => {
  assertNotForeign(req);
  return sessionCaller(req);
};

/** Whether the request presents an access link (the `access` query parameter, once). */
const presentsLink = (req: Request): boolean => typeof req.query[ACCESS_PARAM] === "string";
/** The request's point of the rate limit, handed back once; the headers then show the count after it. */
const givingBack = (
  limiter: RateLimiter,
  subject: RateSubject,
  spent: RateLimitState,
  res: Response,
  log: Logger,
): (() => Promise<void>) => {
  let given = false;
  return async () => {
    if (given) return;
    given = true;
    try {
      const state = await limiter.refund(subject, 1, spent);
      if (state && !res.headersSent) {
        for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
      }
    } catch (error) {
      // the counters went away meanwhile: the request stays counted, the answer is still given
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "rate-limit refund failed");
    }
  };
};

/**
 * Mounted on /api/v1 before everything else there: authenticates, counts the request against
 * its rate limit, and sets the X-RateLimit-* headers, so every response under /api/v1 (errors
 * included) carries them. A request whose credentials are refused is counted as anonymous, per
 * client address, so guessing keys or tokens spends the anonymous allowance. The routes'
 * declarations say the rest: a path at or under a `user-jwt` route (the key endpoints), or at
 * an `operator` route, takes a JWT instead of an API key; every other path takes an API key or
 * a dashboard session's JWT; and anonymous callers reach only paths with an `anyone` route
 * (POST /api/v1/scan). A dashboard session's read of a route declared `uncountedForSessions`
 * (the Account view) is not counted: its headers show the session's budget as it stands. This
 * runs before express matches a route, so an unknown path is
 * refused like any other, and a refused caller's body is never read.
 */
export const apiAccess = ({ routes, auth, limiter, log, onRejected, sessionCaller }: ApiAccessDeps): RequestHandler => {
  const table = pathTable(routes.map((route) => ({ path: route.path, value: route })));
  const open = routes
    .filter((route) => route.authorization === "anyone")
    .map((route) => `${route.method.toUpperCase()} ${route.path}`);
  /** an anonymous caller's access link opens this request's route */
  const linkOpens = (path: string, req: Request): boolean =>
    presentsLink(req) &&
    table
      .at(path)
      .some((route) => route.authorization === "account-or-link" && route.method === req.method.toLowerCase());
  /** the request's route takes the session cookie in place of a header (a HEAD is its GET's) */
  const cookieOpens = (path: string, req: Request): boolean => {
    const method = req.method === "HEAD" ? "get" : req.method.toLowerCase();
    return table.at(path).some((route) => route.authorization === "account-or-cookie" && route.method === method);
  };
  /** the request reads a route declared uncounted for dashboard sessions (every GET route its path may be) */
  const uncountedRead = (path: string, req: Request): boolean => {
    if (!READS.has(req.method)) return false;
    const reads = table.at(path).filter((route) => route.method === "get");
    return reads.length > 0 && reads.every((route) => route.uncountedForSessions);
  };
  return async (req, res, next) => {
    // a CORS preflight carries no credentials and does no work: neither authenticated nor counted
    if (res.locals.preflight) return next();
    const path = `${req.baseUrl}${req.path}`;
    const takesJwt =
      table.atOrUnder(path).some((route) => route.authorization === "user-jwt") ||
      table.at(path).some((route) => route.authorization === "operator");
    let caller: Caller = ANONYMOUS;
    let refusal: AppError | null = null;
    try {
      caller = takesJwt
        ? await auth.byToken(req.get("authorization"))
        : ((await auth.byAccount({ authorization: req.get("authorization"), apiKey: req.get("x-api-key") })) ??
          (sessionCaller && cookieOpens(path, req) ? await byCookie(req, sessionCaller) : null) ??
          ANONYMOUS);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal = error;
    }
    if (caller.kind === "key" && !res.locals.formExplicit && caller.defaultForm) res.locals.form = caller.defaultForm;

    const subject = subjectOf(caller, req, caller.kind === "anonymous" && linkOpens(path, req));
    // a session's read of such a route spends nothing: its headers show the session's budget as it stands
    const counted = !(subject.kind === "session-read" && uncountedRead(path, req));
    let state: RateLimitState;
    try {
      state = counted ? await limiter.consume(subject) : { ...(await limiter.peek(subject)), allowed: true };
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "rate limiter unavailable");
      const unknown = unknownRateLimitState(limiter.limitOf(subject));
      throw new AppError("service_unavailable", "The rate limiter is unavailable", "Try again in a few seconds.", {
        ...rateLimitHeaders(unknown),
        "Retry-After": String(UNKNOWN_STATE_RETRY_S),
      });
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
    res.locals.rateLimit = state;
    if (state.allowed && counted) res.locals.giveBack = givingBack(limiter, subject, state, res, log);
    if (!state.allowed) {
      onRejected?.(caller.kind === "anonymous" ? "anonymous" : caller.plan);
      const who =
        subject.kind === "session-read"
          ? "this dashboard session's reads"
          : caller.kind === "anonymous"
            ? "this address"
            : caller.kind === "key"
              ? "this API key"
              : "this user";
      throw new AppError(
        "rate_limited",
        `Rate limit of ${state.limit} requests per ${limiter.windowS === 3_600 ? "hour" : `${limiter.windowS} seconds`} reached for ${who}`,
        `Try again in ${waitInWords(state.retryAfterS ?? 1)}${caller.kind === "anonymous" ? ", or send an API key for a higher limit" : ""}.`,
        { "Retry-After": String(state.retryAfterS) },
      );
    }
    if (refusal) throw refusal;
    if (
      caller.kind === "anonymous" &&
      !table.at(path).some((route) => route.authorization === "anyone") &&
      !linkOpens(path, req)
    ) {
      const byLink = table.at(path).some((route) => route.authorization === "account-or-link");
      throw new AppError(
        "unauthenticated",
        "This endpoint needs an API key",
        `Send an API key in Authorization: Bearer <key> or X-API-Key: <key>; only ${open.join(", ")} ${open.length === 1 ? "is" : "are"} open without one${byLink ? ", and an anonymous scan is read with the whole link in the Location header its POST answered" : ""}.`,
      );
    }
    res.locals.caller = caller;
    next();
  };
};
