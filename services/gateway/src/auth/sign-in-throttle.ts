import { AppError, waitInWords } from "@scan/contract";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import { clientBucket } from "../access/client-ip";
import { type RateLimiter, type RateLimitState, type RateSubject, rateLimitHeaders } from "../access/rate-limiter";
import { sha256Hex } from "../access/session-service";

/** An account's counter: a digest of its email, so Redis holds no address, and unknown emails count alike. */
const accountSubject = (email: string): RateSubject => ({ kind: "sign-in-account", account: sha256Hex(email) });

/** Of several counters, the one the headers show: a refusing one (the longest wait first), else the one with least left. */
const shown = (states: readonly RateLimitState[]): RateLimitState =>
  states.reduce((worst, state) => {
    if (worst.allowed !== state.allowed) return state.allowed ? worst : state;
    if (!state.allowed) return (state.retryAfterS ?? 0) > (worst.retryAfterS ?? 0) ? state : worst;
    return state.remaining < worst.remaining ? state : worst;
  });

export type SignInThrottle = {
  /** Counts an attempt from the request's address (and at `account`, when given) and shows the count in headers; 429 once over. */
  attempt: (req: Request, res: Response, account?: { email: string }) => Promise<void>;
  /** Clears the account's count after a successful sign-in; a Redis failure is logged, not thrown. */
  succeeded: (email: string) => Promise<void>;
};

/**
 * The throttle on password guessing, through the API's Redis rate limiter and with its
 * headers: attempts from each client address (sign-in, sign-up, reset) and at each account
 * (sign-in, password change) are counted before any password is checked, so a refused
 * attempt costs no argon2 work. A successful sign-in clears its account's count.
 */
export const createSignInThrottle = ({ limiter, log }: { limiter: RateLimiter; log: Logger }): SignInThrottle => {
  const attempt = async (req: Request, res: Response, account?: { email: string }): Promise<void> => {
    const subjects: RateSubject[] = [{ kind: "sign-in-address", bucket: clientBucket(req.ip) }];
    if (account) subjects.push(accountSubject(account.email));
    let states: RateLimitState[];
    try {
      states = await Promise.all(subjects.map((subject) => limiter.consume(subject)));
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "sign-in throttle unavailable");
      throw new AppError("service_unavailable", "The sign-in throttle is unavailable", "Try again in a few seconds.", {
        "Retry-After": "5",
      });
    }
    const state = shown(states);
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
    if (state.allowed) return;
    const byAccount = account !== undefined && states[1] !== undefined && !states[1].allowed;
    throw new AppError(
      "rate_limited",
      byAccount ? "Too many sign-in attempts for this account" : "Too many attempts from this address",
      `Try again in ${waitInWords(state.retryAfterS ?? 1)}.`,
      { "Retry-After": String(state.retryAfterS) },
    );
  };

  const succeeded = async (email: string): Promise<void> => {
    await limiter.clear(accountSubject(email)).catch((error: unknown) => {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "sign-in count not cleared");
    });
  };

  return { attempt, succeeded };
};
