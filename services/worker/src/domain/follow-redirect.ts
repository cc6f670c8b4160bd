import { type FetchPolicy, fetchOnce } from "@scan/scanner";
import type { FollowRedirect } from "@scan/visibility";

/** what is read of a redirect link's answer: its headers matter, its body does not */
const BODY_BYTES = 16 * 1024;

/**
 * Follows one of an engine's redirect links once, as a scan's fetch is made: the link vetted by
 * the address policy and the connection pinned to the vetted addresses, no redirect followed
 * further. The answer is the `Location` of a 3xx, resolved against the link; anything else
 * (another status, no `Location`, a refused address, no answer within `timeoutMs`) is null.
 */
export const createRedirectFollower =
  (policy: FetchPolicy, timeoutMs: number): FollowRedirect =>
  async (link) => {
    const response = await fetchOnce(new URL(link), policy, {
      deadline: Date.now() + timeoutMs,
      maxBytes: BODY_BYTES,
    }).catch(() => null);
    if (!response || response.status < 300 || response.status >= 400) return null;
    const location = response.headers.location;
    if (!location) return null;
    const target = URL.parse(location, link);
    return target && (target.protocol === "http:" || target.protocol === "https:") ? target.toString() : null;
  };
