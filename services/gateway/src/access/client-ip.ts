import ipaddr from "ipaddr.js";

/**
 * The anonymous rate-limit bucket of a client address. IPv4 (and IPv4-mapped IPv6) counts per
 * address; IPv6 counts per /64, since one subscriber is handed a whole /64 and could otherwise
 * step through 2^64 addresses for fresh limits.
 */
export const clientBucket = (address: string | undefined): string => {
  if (!address || !ipaddr.isValid(address)) return `unknown:${address ?? ""}`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
};
