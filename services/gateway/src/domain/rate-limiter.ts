import type { Plan } from "@scan/contract";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** Requests per window: anonymous callers per IP, everyone else by plan (docs/spec/public-scanning-api.md §8). */
export type RateLimitTable = { anonymous: number } & Record<Plan, number>;

/** What is counted: an anonymous client's address bucket, an API key, or a signed-in user (key endpoints). */
export type RateSubject =
  | { kind: "ip"; bucket: string }
  | { kind: "key"; keyId: string; plan: Plan }
  | { kind: "user"; userId: string; plan: Plan };

export type RateLimitState = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** epoch seconds at which the window resets */
  resetAt: number;
  /** whole seconds to wait, rounded up; set when refused */
  retryAfterS: number | null;
};

export type RateLimiterDeps = { redis: Redis; prefix: string; windowS: number; limits: RateLimitTable };

/**
 * Fixed-window counters in Redis through rate-limiter-flexible: one Lua script increments and
 * reads a counter atomically, so any number of gateway processes sharing the Redis count
 * together and exactly. A window starts with the subject's first counted request. The counter
 * of a key or user is one per subject whatever the plan, so a plan change takes effect at once.
 */
export const createRateLimiter = ({ redis, prefix, windowS, limits }: RateLimiterDeps) => {
  const make = (points: number, scope: string) =>
    new RateLimiterRedis({
      storeClient: redis,
      points,
      duration: windowS,
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

  const pick = (subject: RateSubject): [RateLimiterRedis, string] => {
    switch (subject.kind) {
      case "ip":
        return [anonymous, subject.bucket];
      case "key":
        return [keys[subject.plan], subject.keyId];
      case "user":
        return [users[subject.plan], subject.userId];
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
    const msLeft = result ? Math.max(result.msBeforeNext, 0) : windowS * 1000;
    const remaining = result ? result.remainingPoints : limiter.points;
    return {
      allowed: remaining > 0,
      limit: limiter.points,
      remaining,
      resetAt: Math.ceil((Date.now() + msLeft) / 1000),
      retryAfterS: null,
    };
  };

  /**
   * Gives back `points` the subject spent in the window `spent` describes (a request that turns
   * out to cost nothing: a 304, an idempotent replay), and answers the state after it. A window
   * that has ended (or ends within a second) is left alone: a reward there would open the next
   * window with points to spare. Throws when Redis cannot be reached.
   */
  const refund = async (
    subject: RateSubject,
    points: number,
    spent: RateLimitState,
  ): Promise<RateLimitState | null> => {
    if (Date.now() >= (spent.resetAt - 1) * 1000) return null;
    const [limiter, key] = pick(subject);
    const result = await limiter.reward(key, points);
    const msLeft = Math.max(result.msBeforeNext, 0);
    return {
      allowed: true,
      limit: limiter.points,
      remaining: Math.min(limiter.points, Math.max(0, result.remainingPoints)),
      resetAt: Math.ceil((Date.now() + msLeft) / 1000),
      retryAfterS: null,
    };
  };

  return { consume, peek, refund, windowS };
};

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The headers every /api/v1 response carries; Retry-After only on a refusal. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  "X-RateLimit-Limit": String(state.limit),
  "X-RateLimit-Remaining": String(state.remaining),
  "X-RateLimit-Reset": String(state.resetAt),
  ...(state.retryAfterS === null ? {} : { "Retry-After": String(state.retryAfterS) }),
});
