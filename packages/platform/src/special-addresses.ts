/**
 * The address blocks a scanner must never connect to: the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries in full (iana.org/assignments/iana-ipv4-special-registry and
 * iana-ipv6-special-registry, as of 2025), plus the blocks the other IANA address-space
 * registries keep out of global unicast (multicast, reserved, and IPv6 outside 2000::/3).
 *
 * Every block is refused, including those the registry marks globally reachable (the anycast
 * service addresses, AS112, AMT, NAT64's 64:ff9b::/96): none is a page anyone scans, and the
 * transition blocks (IPv4-mapped and -compatible, NAT64, 6to4, Teredo) carry an IPv4 address
 * inside an IPv6 one, which is how a private target slips past a policy that only reads IPv4.
 */
export type SpecialBlock = {
  /** CIDR, as the registry writes it */
  block: string;
  name: string;
  /** where it is defined */
  rfc: string;
};

/** IANA IPv4 Special-Purpose Address Registry, every entry, plus multicast and reserved space. */
export const IPV4_SPECIAL_BLOCKS: readonly SpecialBlock[] = [
  { block: "0.0.0.0/32", name: '"This host on this network"', rfc: "RFC 1122 §3.2.1.3" },
  { block: "0.0.0.0/8", name: '"This network"', rfc: "RFC 791 §3.2" },
  { block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" },
  { block: "100.64.0.0/10", name: "Shared Address Space", rfc: "RFC 6598" },
  { block: "127.0.0.0/8", name: "Loopback", rfc: "RFC 1122 §3.2.1.3" },
  { block: "169.254.0.0/16", name: "Link Local", rfc: "RFC 3927" },
  { block: "172.16.0.0/12", name: "Private-Use", rfc: "RFC 1918" },
  { block: "192.0.0.0/29", name: "IPv4 Service Continuity Prefix", rfc: "RFC 7335" },
  { block: "192.0.0.8/32", name: "IPv4 dummy address", rfc: "RFC 7600" },
  { block: "192.0.0.9/32", name: "Port Control Protocol Anycast", rfc: "RFC 7723" },
  { block: "192.0.0.10/32", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155" },
  { block: "192.0.0.170/32", name: "NAT64/DNS64 Discovery", rfc: "RFC 8880, RFC 7050 §2.2" },
  { block: "192.0.0.171/32", name: "NAT64/DNS64 Discovery", rfc: "RFC 8880, RFC 7050 §2.2" },
  { block: "192.0.0.0/24", name: "IETF Protocol Assignments", rfc: "RFC 6890 §2.1" },
  { block: "192.0.2.0/24", name: "Documentation (TEST-NET-1)", rfc: "RFC 5737" },
  { block: "192.31.196.0/24", name: "AS112-v4", rfc: "RFC 7535" },
  { block: "192.52.193.0/24", name: "AMT", rfc: "RFC 7450" },
  { block: "192.88.99.2/32", name: "6a44-relay anycast address", rfc: "RFC 6751" },
  { block: "192.88.99.0/24", name: "Deprecated (6to4 Relay Anycast)", rfc: "RFC 7526" },
  { block: "192.168.0.0/16", name: "Private-Use", rfc: "RFC 1918" },
  { block: "192.175.48.0/24", name: "Direct Delegation AS112 Service", rfc: "RFC 7534" },
  { block: "198.18.0.0/15", name: "Benchmarking", rfc: "RFC 2544" },
  { block: "198.51.100.0/24", name: "Documentation (TEST-NET-2)", rfc: "RFC 5737" },
  { block: "203.0.113.0/24", name: "Documentation (TEST-NET-3)", rfc: "RFC 5737" },
  { block: "255.255.255.255/32", name: "Limited Broadcast", rfc: "RFC 8190, RFC 919 §7" },
  { block: "240.0.0.0/4", name: "Reserved", rfc: "RFC 1112 §4" },
  // not in the special-purpose registry: the IPv4 Multicast Address Space registry
  { block: "224.0.0.0/4", name: "Multicast", rfc: "RFC 5771" },
];

/** IANA IPv6 Special-Purpose Address Registry, every entry, plus what lies outside global unicast. */
export const IPV6_SPECIAL_BLOCKS: readonly SpecialBlock[] = [
  { block: "::1/128", name: "Loopback Address", rfc: "RFC 4291" },
  { block: "::/128", name: "Unspecified Address", rfc: "RFC 4291" },
  { block: "::ffff:0:0/96", name: "IPv4-mapped Address", rfc: "RFC 4291" },
  // deprecated, and not in the registry any more, but still routed by some stacks as IPv4
  { block: "::/96", name: "IPv4-compatible Address (deprecated)", rfc: "RFC 4291 §2.5.5.1" },
  { block: "64:ff9b::/96", name: "IPv4-IPv6 Translat.", rfc: "RFC 6052" },
  { block: "64:ff9b:1::/48", name: "IPv4-IPv6 Translat.", rfc: "RFC 8215" },
  { block: "100::/64", name: "Discard-Only Address Block", rfc: "RFC 6666" },
  { block: "100:0:0:1::/64", name: "Dummy IPv6 Prefix", rfc: "RFC 9780" },
  { block: "2001:1::1/128", name: "Port Control Protocol Anycast", rfc: "RFC 7723" },
  { block: "2001:1::2/128", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155" },
  { block: "2001:1::3/128", name: "DNS-SD Service Registration Protocol Anycast", rfc: "RFC 9665" },
  { block: "2001:2::/48", name: "Benchmarking", rfc: "RFC 5180" },
  { block: "2001:3::/32", name: "AMT", rfc: "RFC 7450" },
  { block: "2001:4:112::/48", name: "AS112-v6", rfc: "RFC 7535" },
  { block: "2001:10::/28", name: "Deprecated (previously ORCHID)", rfc: "RFC 4843" },
  { block: "2001:20::/28", name: "ORCHIDv2", rfc: "RFC 7343" },
  { block: "2001:30::/28", name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix", rfc: "RFC 9374" },
  { block: "2001::/32", name: "TEREDO", rfc: "RFC 4380, RFC 8190" },
  { block: "2001::/23", name: "IETF Protocol Assignments", rfc: "RFC 2928" },
  { block: "2001:db8::/32", name: "Documentation", rfc: "RFC 3849" },
  { block: "2002::/16", name: "6to4", rfc: "RFC 3056" },
  { block: "2620:4f:8000::/48", name: "Direct Delegation AS112 Service", rfc: "RFC 7534" },
  { block: "3fff::/20", name: "Documentation", rfc: "RFC 9637" },
  { block: "5f00::/16", name: "Segment Routing (SRv6) SIDs", rfc: "RFC 9602" },
  { block: "fc00::/7", name: "Unique-Local", rfc: "RFC 4193, RFC 8190" },
  { block: "fe80::/10", name: "Link-Local Unicast", rfc: "RFC 4291" },
  // not in the special-purpose registry: the IPv6 Address Space registry
  { block: "ff00::/8", name: "Multicast", rfc: "RFC 4291" },
  // global unicast is 2000::/3 only; the rest of the space is reserved by the IETF
  { block: "::/3", name: "Reserved by IETF (outside global unicast)", rfc: "RFC 4291" },
  { block: "4000::/2", name: "Reserved by IETF (outside global unicast)", rfc: "RFC 4291" },
  { block: "8000::/1", name: "Reserved by IETF (outside global unicast)", rfc: "RFC 4291" },
];

/**
 * An IPv4 address in any spelling the WHATWG URL parser and inet_aton accept: one to four
 * dot-separated parts, each decimal, octal (leading 0) or hex (0x), the last part filling the
 * bytes the others leave (`127.1`, `0x7f.1`, `2130706433`, `0177.0.0.1`); a trailing dot is
 * allowed. Null when it is not one.
 */
export const parseIPv4 = (input: string): number | null => {
  const parts = input.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let digits = part;
    let radix = 10;
    if (/^0x/i.test(digits)) {
      digits = digits.slice(2);
      radix = 16;
      // "0x" alone is 0 to the URL parser
      if (digits === "") digits = "0";
      if (!/^[0-9a-f]+$/i.test(digits)) return null;
    } else if (digits.length > 1 && digits.startsWith("0")) {
      digits = digits.slice(1);
      radix = 8;
      if (!/^[0-7]+$/.test(digits)) return null;
    } else if (!/^[0-9]+$/.test(digits)) return null;
    const value = Number.parseInt(digits, radix);
    // a value this large is refused anyway; stop before precision is lost
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, value, i) => sum + value * 256 ** (3 - i), 0) + last;
};

/**
 * An IPv6 address as a 128-bit number: compressed (`::`), full, any case, with a dotted IPv4
 * tail (`::ffff:127.0.0.1`, `64:ff9b::10.0.0.1`) and an optional zone (`fe80::1%eth0`). Null
 * when it is not one.
 */
export const parseIPv6 = (input: string): bigint | null => {
  const bare = input.replace(/%[^%]*$/, "");
  if (!/^[0-9a-f:.]+$/i.test(bare)) return null;
  let text = bare;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1] !== undefined && dotted[2] !== undefined) {
    const octets = dotted[2].split(".").map(Number);
    // a dotted tail is strict dotted decimal, no short forms or leading zeros
    if (octets.some((octet) => octet > 255) || /(^|\.)0\d/.test(dotted[2])) return null;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    tail.push(a * 256 + b, c * 256 + d);
    text = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  } else if (text.includes(".")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string | undefined): string[] | null => {
    if (half === undefined || half === "") return [];
    const groups = half.split(":");
    return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups : null;
  };
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !rest) return null;
  const given = head.length + rest.length + tail.length;
  let groups: number[];
  if (halves.length === 2) {
    // "::" stands for at least one group of zeros
    if (given > 7) return null;
    groups = [
      ...head.map((g) => Number.parseInt(g, 16)),
      ...new Array<number>(8 - given).fill(0),
      ...rest.map((g) => Number.parseInt(g, 16)),
      ...tail,
    ];
  } else {
    if (given !== 8) return null;
    groups = [...head.map((g) => Number.parseInt(g, 16)), ...tail];
  }
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
};

type Compiled = SpecialBlock & { first: bigint; last: bigint };

const compile = (blocks: readonly SpecialBlock[], bits: 32 | 128): Compiled[] =>
  blocks.map((entry) => {
    const [address = "", length = ""] = entry.block.split("/");
    const parsed = bits === 32 ? parseIPv4(address) : parseIPv6(address);
    if (parsed === null || !/^\d+$/.test(length)) throw new Error(`bad block ${entry.block}`);
    const size = 1n << BigInt(bits - Number(length));
    const first = (BigInt(parsed) / size) * size;
    return { ...entry, first, last: first + size - 1n };
  });

const V4 = compile(IPV4_SPECIAL_BLOCKS, 32);
const V6 = compile(IPV6_SPECIAL_BLOCKS, 128);

/** The IP address a string spells, IPv4 or IPv6, or null when it spells none. */
export const parseIp = (input: string): { version: 4 | 6; value: bigint } | null => {
  const v4 = parseIPv4(input);
  if (v4 !== null) return { version: 4, value: BigInt(v4) };
  const v6 = parseIPv6(input);
  return v6 === null ? null : { version: 6, value: v6 };
};

/**
 * The first special-purpose block holding this address (the most specific, as the tables list
 * them), or null for a global unicast address.
 */
export const specialBlockOf = (address: { version: 4 | 6; value: bigint }): SpecialBlock | null => {
  const table = address.version === 4 ? V4 : V6;
  const hit = table.find((entry) => address.value >= entry.first && address.value <= entry.last);
  return hit ? { block: hit.block, name: hit.name, rfc: hit.rfc } : null;
};
