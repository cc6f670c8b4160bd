import { parseIp, type SpecialBlock, specialBlockOf } from "./special-addresses";

/**
 * Scan targets must be public: a scanner that fetches what it is told is otherwise a way into
 * the network it runs in (cloud metadata, databases, admin panels). The only exception is an
 * explicit allowlist of exact `host:port` pairs, for tests and self-hosted setups. What is not
 * public is the IANA special-purpose registries' every block (special-addresses.ts).
 */

/** The special-purpose block an address (any spelling) falls in; null when it is public or no address at all. */
export const nonPublicBlockOf = (address: string): SpecialBlock | null => {
  const parsed = parseIp(address);
  return parsed ? specialBlockOf(parsed) : null;
};

/** true for every address in a special-purpose, multicast or reserved block, and for what is no address. */
export const isNonPublicAddress = (address: string): boolean => {
  const parsed = parseIp(address);
  return parsed === null || specialBlockOf(parsed) !== null;
};

/** "(Loopback, RFC 1122 §3.2.1.3)": which block refused an address, for the caller's message */
const blockNote = (address: string): string => {
  const block = nonPublicBlockOf(address);
  return block ? ` (${block.name}, ${block.rfc})` : "";
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
  return parseIp(bare) ? bare : null;
};

/** The ports a target may use unless its `host:port` is allowlisted, or "any". */
export type PortPolicy = ReadonlySet<number> | "any";

/** Web ports only: a scanner that may knock on any port is a port scanner. */
export const DEFAULT_SCAN_PORTS: PortPolicy = new Set([80, 443, 8080, 8443]);

/** Parses `SCAN_PORTS`: comma-separated port numbers, or `*` for any port. */
export const parsePorts = (value: string): PortPolicy => {
  if (value.trim() === "*") return "any";
  const ports = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const port = Number(entry);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${entry}" is not a port`);
      return port;
    });
  return new Set(ports);
};

const effectivePort = (url: URL): number => (url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

export type Resolve = (hostname: string) => Promise<string[]>;

export type TargetVerdict = { allowed: true; addresses: string[] } | { allowed: false; reason: string };

/**
 * Decides whether a URL may be fetched, and with which addresses: a caller connects to those
 * and does not resolve the name again, so a second DNS answer (rebinding) cannot redirect it.
 * An allowlisted `host:port` is always allowed. Otherwise the port must be in `ports`, an IP
 * literal (in any spelling the URL parser accepts: decimal, octal, hex) must be public, and a
 * name must resolve with every address public; a name that does not resolve is reported with
 * `reason` starting "unresolvable".
 */
/**
 * The one address policy, as one value wherever a URL is vetted: the `host:port`s allowed
 * although private, how names are resolved, and the ports a target may use (the scan ports
 * when not given).
 */
export type AddressPolicy = {
  allowlist: ReadonlySet<string>;
  resolve: Resolve;
  ports?: PortPolicy;
};

export const vetTarget = async (
  url: URL,
  { allowlist, resolve, ports = DEFAULT_SCAN_PORTS }: AddressPolicy,
): Promise<TargetVerdict> => {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { allowed: false, reason: `scheme ${url.protocol} is not allowed` };
  }
  const literal = ipLiteralOf(url.hostname);
  if (allowlist.has(hostPortOf(url).toLowerCase())) {
    if (literal) return { allowed: true, addresses: [literal] };
    const addresses = await resolve(url.hostname).catch(() => []);
    return { allowed: true, addresses };
  }
  if (ports !== "any" && !ports.has(effectivePort(url))) {
    return { allowed: false, reason: `port ${effectivePort(url)} is not allowed (allowed: ${[...ports].join(", ")})` };
  }
  if (literal) {
    return isNonPublicAddress(literal)
      ? { allowed: false, reason: `${url.hostname} is a private or reserved address${blockNote(literal)}` }
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
    return {
      allowed: false,
      reason: `${url.hostname} resolves to a private or reserved address (${blocked})${blockNote(blocked)}`,
    };
  return { allowed: true, addresses };
};
