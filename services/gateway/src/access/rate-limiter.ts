import type { Plan, ResponseForm } from "@scan/contract";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Requests per window (docs/spec/public-scanning-api.md §8): anonymous callers per address;
 * keys and users by plan, in the column of the envelope form the key answers in (the spec's
 * table gives Pro 1,000 an hour in Form A and 500 in Form B); and the reads of anonymous scans
 * by their access links, per address, in a window of their own; and a dashboard session's reads,
 * per session, in a window of their own.
 */
export type RateLimitTable = {
  anonymous: number;
  anonymousReads: number;
  /**
   * The reads (GET, HEAD) a dashboard session makes, per session: the dashboard's pages and
   * progress streams, counted apart from the plan's allowance so browsing never spends it.
   */
  sessionReads: number;
  byForm: Record<ResponseForm, Record<Plan, number>>;
  /** the service's form (RESPONSE_FORM): the column of users and of keys with no form of their own */
  serviceForm: ResponseForm;
};

/**
 * What is counted: an anonymous client's address bucket, the same address reading anonymous
 * scans by their access links, an API key, or a signed-in user. A key is counted in the column
 * of its own default form (`form`), a key without one and a user in the service's. And apart
 * from the API's counters, the sign-in throttle's attempts from an address and at an account (a
 * digest of its email, whether or not the account exists).
 */
export type RateSubject =
  | { kind: "ip"; bucket: string }
  | { kind: "ip-read"; bucket: string }
  | { kind: "key"; keyId: string; plan: Plan; form: ResponseForm | null }
  | { kind: "user"; userId: string; plan: Plan }
  | { kind: "session-read"; sessionId: string }
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

export type RateLimiter = {
  /** Counts `points` requests and says whether they may go on; a refused batch gets its points back. */
  consume: (subject: RateSubject, points?: number) => Promise<RateLimitState>;
  /** The subject's state without counting anything, for responses that carry the headers uncounted. */
  peek: (subject: RateSubject) => Promise<RateLimitState>;
  /** Forgets the subject's count: a successful sign-in clears its account's failed attempts. */
  clear: (subject: RateSubject) => Promise<void>;
  /** Gives back `points` spent in the window `spent` describes; null when that window has ended. */
  refund: (subject: RateSubject, points: number, spent: RateLimitState) => Promise<RateLimitState | null>;
  /** The number of requests the subject's window allows, from the configuration alone (no Redis). */
  limitOf: (subject: RateSubject) => number;
  /** the window's length in seconds */
  windowS: number;
};

/**
 * Fixed-window counters in Redis through rate-limiter-flexible: one Lua script increments and
 * reads a counter atomically, so any number of gateway processes sharing the Redis count
 * together and exactly. A window starts with the subject's first counted request. The counter
 * of a key or user is one per subject whatever the plan, so a plan change takes effect at once.
 */
export const createRateLimiter = ({ redis, prefix, windowS, limits, signIn }: RateLimiterDeps): RateLimiter => {
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
  const anonymousReads = make(limits.anonymousReads, "ip-read");
  const sessionReads = make(limits.sessionReads, "session-read");
  const byPlan = (scope: string, table: Record<Plan, number>) =>
    ({
      free: make(table.free, scope),
      starter: make(table.starter, scope),
      pro: make(table.pro, scope),
      agency: make(table.agency, scope),
    }) satisfies Record<Plan, RateLimiterRedis>;
  // one counter per key or user whatever its column: only the number it is held to differs
  const keys = { A: byPlan("key", limits.byForm.A), B: byPlan("key", limits.byForm.B) };
  const users = { A: byPlan("user", limits.byForm.A), B: byPlan("user", limits.byForm.B) };
  const signInAddresses = make(signIn.perAddress, "sign-in:ip", signIn.windowS);
  const signInAccounts = make(signIn.perAccount, "sign-in:account", signIn.windowS);

  const pick = (subject: RateSubject): [RateLimiterRedis, string] => {
    switch (subject.kind) {
      case "ip":
        return [anonymous, subject.bucket];
      case "ip-read":
        return [anonymousReads, subject.bucket];
      case "key":
        return [keys[subject.form ?? limits.serviceForm][subject.plan], subject.keyId];
      case "user":
        return [users[limits.serviceForm][subject.plan], subject.userId];
      case "session-read":
        return [sessionReads, subject.sessionId];
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

  /** The number of requests the subject's window allows, from the configuration alone (no Redis). */
  const limitOf = (subject: RateSubject): number => pick(subject)[0].points;

  return { consume, peek, clear, refund, limitOf, windowS };
};

/** The headers every /api/v1 response carries; Retry-After only on a refusal. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  "X-RateLimit-Limit": String(state.limit),
  "X-RateLimit-Remaining": String(state.remaining),
  "X-RateLimit-Reset": String(state.resetAt),
  ...(state.retryAfterS === null ? {} : { "Retry-After": String(state.retryAfterS) }),
});
