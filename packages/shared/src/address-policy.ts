import ipaddr from "ipaddr.js";

/**
 * Scan targets must be public: a scanner that fetches what it is told is otherwise a way into
 * the network it runs in (cloud metadata, databases, admin panels). The only exception is an
 * explicit allowlist of exact `host:port` pairs, for tests and self-hosted setups.
 */

/** ipaddr.js range names that are public unicast; every other range is refused. */
const PUBLIC_RANGES = new Set(["unicast"]);

/** true for loopback, private, link-local, unique-local, multicast, reserved and unspecified addresses. */
export const isNonPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:10.0.0.1 and friends are IPv4 addresses in disguise
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return !PUBLIC_RANGES.has(parsed.range());
};

/** `host:port` with the URL's effective port (80/443 when the URL leaves it out). */
export const hostPortOf = (url: URL): string => {
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return `${url.hostname}:${port}`;
};

/** Parses `SCAN_ALLOWLIST`: comma-separated exact `host:port` pairs, blank entries ignored. */
export const parseAllowlist = (value: string | undefined): ReadonlySet<string> =>
  new Set(
    (value ?? "")
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== ""),
  );

/** An IP literal as written in a URL host, without IPv6 brackets; null for a name. */
export const ipLiteralOf = (hostname: string): string | null => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
};

export type Resolve = (hostname: string) => Promise<string[]>;

export type TargetVerdict = { allowed: true; addresses: string[] } | { allowed: false; reason: string };

/**
 * Decides whether a URL may be fetched. An allowlisted `host:port` is always allowed. An IP
 * literal (in any spelling the URL parser accepts: decimal, octal, hex) must be public. A
 * name must resolve, and every address it resolves to must be public; a name that does not
 * resolve is reported with `reason` starting "unresolvable".
 */
export const vetTarget = async (url: URL, allowlist: ReadonlySet<string>, resolve: Resolve): Promise<TargetVerdict> => {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { allowed: false, reason: `scheme ${url.protocol} is not allowed` };
  }
  const literal = ipLiteralOf(url.hostname);
  if (allowlist.has(hostPortOf(url).toLowerCase())) return { allowed: true, addresses: literal ? [literal] : [] };
  if (literal) {
    return isNonPublicAddress(literal)
      ? { allowed: false, reason: `${url.hostname} is a private or reserved address` }
      : { allowed: true, addresses: [literal] };
  }
  let addresses: string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    return { allowed: false, reason: `unresolvable: ${url.hostname} has no DNS record` };
  }
  if (addresses.length === 0) return { allowed: false, reason: `unresolvable: ${url.hostname} has no DNS record` };
  const blocked = addresses.find(isNonPublicAddress);
  if (blocked)
    return { allowed: false, reason: `${url.hostname} resolves to a private or reserved address (${blocked})` };
  return { allowed: true, addresses };
};
