import type { Plan } from "@scan/contract";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** Requests per window: anonymous callers per IP, everyone else by plan (docs/spec/public-scanning-api.md §8). */
export type RateLimitTable = { anonymous: number } & Record<Plan, number>;

/**
 * What is counted: an anonymous client's address bucket, an API key, or a signed-in user; and
 * apart from the API's counters, the sign-in throttle's attempts from an address and at an
 * account (a digest of its email, whether or not the account exists).
 */
export type RateSubject =
  | { kind: "ip"; bucket: string }
  | { kind: "key"; keyId: string; plan: Plan }
  | { kind: "user"; userId: string; plan: Plan }
  | { kind: "sign-in-address"; bucket: string }
  | { kind: "sign-in-account"; account: string };

/** The sign-in throttle: attempts per address and per account in a window of its own. */
export type SignInLimits = { perAddress: number; perAccount: number; windowS: number };

export type RateLimitState = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** epoch seconds at which the window resets */
  resetAt: number;
  /** whole seconds to wait, rounded up; set when refused */
  retryAfterS: number | null;
};

export type RateLimiterDeps = {
  redis: Redis;
  prefix: string;
  windowS: number;
  limits: RateLimitTable;
  signIn: SignInLimits;
};

/**
 * Fixed-window counters in Redis through rate-limiter-flexible: one Lua script increments and
 * reads a counter atomically, so any number of gateway processes sharing the Redis count
 * together and exactly. A window starts with the subject's first counted request. The counter
 * of a key or user is one per subject whatever the plan, so a plan change takes effect at once.
 */
export const createRateLimiter = ({ redis, prefix, windowS, limits, signIn }: RateLimiterDeps) => {
  const make = (points: number, scope: string, duration = windowS) =>
    new RateLimiterRedis({
      storeClient: redis,
      points,
      duration,
      keyPrefix: `${prefix}:${scope}`,
      // fail at once while Redis is away, rather than queueing behind a reconnect
      rejectIfRedisNotReady: true,
    });
  const anonymous = make(limits.anonymous, "ip");
  const byPlan = (scope: string) =>
    ({
      free: make(limits.free, scope),
      starter: make(limits.starter, scope),
      pro: make(limits.pro, scope),
      agency: make(limits.agency, scope),
    }) satisfies Record<Plan, RateLimiterRedis>;
  const keys = byPlan("key");
  const users = byPlan("user");
  const signInAddresses = make(signIn.perAddress, "sign-in:ip", signIn.windowS);
  const signInAccounts = make(signIn.perAccount, "sign-in:account", signIn.windowS);

  const pick = (subject: RateSubject): [RateLimiterRedis, string] => {
    switch (subject.kind) {
      case "ip":
        return [anonymous, subject.bucket];
      case "key":
        return [keys[subject.plan], subject.keyId];
      case "user":
        return [users[subject.plan], subject.userId];
      case "sign-in-address":
        return [signInAddresses, subject.bucket];
      case "sign-in-account":
        return [signInAccounts, subject.account];
    }
  };

  /**
   * Counts `points` requests (one, or a batch's URLs) and says whether they may go on; a refused
   * batch is given its points back, so it costs nothing. Throws when Redis cannot be reached.
   */
  const consume = async (subject: RateSubject, points = 1): Promise<RateLimitState> => {
    const [limiter, key] = pick(subject);
    let result: RateLimiterRes;
    let allowed = true;
    try {
      result = await limiter.consume(key, points);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      result = error;
      allowed = false;
      if (points > 1) await limiter.reward(key, points).catch(() => undefined);
    }
    const msLeft = Math.max(result.msBeforeNext, 0);
    return {
      allowed,
      limit: limiter.points,
      remaining: allowed ? result.remainingPoints : 0,
      resetAt: Math.ceil((Date.now() + msLeft) / 1000),
      retryAfterS: allowed ? null : Math.max(1, Math.ceil(msLeft / 1000)),
    };
  };

  /**
   * The subject's state without counting anything: for responses that are not counted but
   * still carry the headers (the tool server counts tools/call, not the handshake around it).
   * Throws when Redis cannot be reached.
   */
  const peek = async (subject: RateSubject): Promise<RateLimitState> => {
    const [limiter, key] = pick(subject);
    const result = await limiter.get(key);
    // no window open: the next counted request opens one of the full length
    const msLeft = result ? Math.max(result.msBeforeNext, 0) : limiter.duration * 1000;
    const remaining = result ? result.remainingPoints : limiter.points;
    return {
      allowed: remaining > 0,
      limit: limiter.points,
      remaining,
      resetAt: Math.ceil((Date.now() + msLeft) / 1000),
      retryAfterS: null,
    };
  };

  /** Forgets the subject's count: a successful sign-in clears its account's failed attempts. Throws when Redis cannot be reached. */
  const clear = async (subject: RateSubject): Promise<void> => {
    const [limiter, key] = pick(subject);
    await limiter.delete(key);
  };

  return { consume, peek, clear, windowS };
};

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The headers every /api/v1 response carries; Retry-After only on a refusal. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  "X-RateLimit-Limit": String(state.limit),
  "X-RateLimit-Remaining": String(state.remaining),
  "X-RateLimit-Reset": String(state.resetAt),
  ...(state.retryAfterS === null ? {} : { "Retry-After": String(state.retryAfterS) }),
});
