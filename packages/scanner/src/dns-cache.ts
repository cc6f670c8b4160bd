import type { Resolve } from "@scan/platform";

export type CachingResolverOptions = {
  /** how long an answer is reused */
  ttlMs: number;
  /** how long "does not resolve" is reused; short, so a fixed record is seen soon */
  negativeTtlMs: number;
  /** entries kept at most; the oldest go first */
  maxEntries: number;
  now?: () => number;
};

type Entry = { expires: number; answer: Promise<string[]> };

/**
 * A resolver that remembers answers, including failures, for a short time, and lets each
 * caller bound its wait. A page asks for dozens of third-party hosts and the next page for
 * the same ones; one slow or dead resolver answer (glibc waits 5 s per try) must not stall
 * every render that names the host, nor hold the worker's lookup threads again and again.
 */
export const createCachingResolver = (
  lookup: Resolve,
  { ttlMs, negativeTtlMs, maxEntries, now = Date.now }: CachingResolverOptions,
) => {
  const entries = new Map<string, Entry>();

  const answerFor = (hostname: string): Promise<string[]> => {
    const key = hostname.toLowerCase();
    const cached = entries.get(key);
    if (cached && cached.expires > now()) return cached.answer;
    if (cached) entries.delete(key);
    // a lookup in flight is shared: its entry lives until it settles, then gets its TTL
    const answer = lookup(key);
    const entry: Entry = { expires: Number.POSITIVE_INFINITY, answer };
    entries.set(key, entry);
    answer.then(
      () => {
        entry.expires = now() + ttlMs;
      },
      () => {
        entry.expires = now() + negativeTtlMs;
      },
    );
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    return answer;
  };

  /** The addresses of a name, or a rejection when it does not resolve within timeoutMs. */
  return (timeoutMs: number): Resolve =>
    (hostname) =>
      new Promise<string[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${hostname} did not resolve in ${timeoutMs} ms`)), timeoutMs);
        answerFor(hostname).then(
          (addresses) => {
            clearTimeout(timer);
            resolve(addresses);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
};
