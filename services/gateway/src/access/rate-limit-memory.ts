import type { RateLimitState, RateSubject } from "./rate-limiter";

/** How many subjects' last read states are kept; the oldest is forgotten first. */
const REMEMBERED_SUBJECTS = 10_000;
/** When nothing is known of a subject's window: look again this soon (the 503's Retry-After too). */
export const UNKNOWN_STATE_RETRY_S = 5;

/**
 * A window nothing is known of (the counters did not answer): the configured limit, nothing
 * promised (Remaining 0), and a Reset a few seconds away, when the caller should look again.
 */
export const unknownRateLimitState = (limit: number, nowMs = Date.now()): RateLimitState => ({
  allowed: false,
  limit,
  remaining: 0,
  resetAt: Math.ceil(nowMs / 1000) + UNKNOWN_STATE_RETRY_S,
  retryAfterS: null,
});

const subjectKey = (subject: RateSubject): string => {
  switch (subject.kind) {
    case "key":
      return `key:${subject.keyId}:${subject.plan}:${subject.form ?? ""}`;
    case "user":
      return `user:${subject.userId}:${subject.plan}`;
    case "sign-in-account":
      return `sign-in-account:${subject.account}`;
    case "session-read":
      return `session-read:${subject.sessionId}`;
    default:
      return `${subject.kind}:${subject.bucket}`;
  }
};

/**
 * The state shown when the counters cannot be read in time: the last state this process read
 * for the subject while its window lasts (requests counted since then are not in it; the
 * counted request itself is always judged on the live count), else unknownRateLimitState.
 */
export const createRateLimitMemory = (limitOf: (subject: RateSubject) => number, capacity = REMEMBERED_SUBJECTS) => {
  const states = new Map<string, RateLimitState>();
  const remember = (subject: RateSubject, state: RateLimitState) => {
    const key = subjectKey(subject);
    states.delete(key);
    states.set(key, state);
    if (states.size > capacity) {
      const oldest = states.keys().next().value;
      if (oldest !== undefined) states.delete(oldest);
    }
  };
  const fallback = (subject: RateSubject, nowMs = Date.now()): RateLimitState => {
    const known = states.get(subjectKey(subject));
    if (known && known.resetAt * 1000 > nowMs) return { ...known, retryAfterS: null };
    return unknownRateLimitState(limitOf(subject), nowMs);
  };
  return { remember, fallback };
};
