import { createServer, type Server } from "node:http";
import { type AddressInfo, BlockList, connect } from "node:net";
import {
  IPV4_SPECIAL_BLOCKS,
  IPV6_SPECIAL_BLOCKS,
  isNonPublicAddress,
  nonPublicBlockOf,
  type Resolve,
  vetTarget,
} from "@scan/platform";
import { type EgressProxy, fetchOnce, startEgressProxy, TargetError } from "@scan/scanner";

/**
 * Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (and multicast and
 * reserved space), each at its first, a middle and its last address, each address in several
 * spellings, is refused by the address policy and by both of the worker's connection guards
 * (the page fetch and the browser's egress proxy). Node's own BlockList is the oracle that a
 * sample lies in its block, and the URL parser that a spelling means the address it claims.
 * A local server on every interface counts connections: it must see none.
 */

const v4ToNumber = (dotted: string): number => dotted.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
const v4ToDotted = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");

/** The spellings inet_aton and the WHATWG URL parser accept for one IPv4 address. */
const v4Spellings = (n: number): string[] => {
  const [a = 0, b = 0, c = 0, d = 0] = [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256);
  return [
    v4ToDotted(n),
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    [a, b, c, d].map((octet) => `0${octet.toString(8)}`).join("."),
    [a, b, c, d].map((octet) => `0x${octet.toString(16)}`).join("."),
    `${a}.${b}.${c * 256 + d}`,
    `${a}.${b * 65536 + c * 256 + d}`,
    `0x${a.toString(16)}.${b * 65536 + c * 256 + d}`,
    `${v4ToDotted(n)}.`,
  ];
};

const v6Groups = (value: bigint): string[] =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt((7 - i) * 16)) & 0xffffn).toString(16));
const v6ToNumber = (address: string): bigint => {
  // the URL parser writes any spelling as compressed lower-case hex; expand that
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = "", tail = ""] = canonical.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = canonical.includes("::") ? (tail === "" ? [] : tail.split(":")) : [];
  const groups = canonical.includes("::")
    ? [...left, ...new Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
};

/** Full, compressed by the URL parser, upper-case, and with a dotted IPv4 tail. */
const v6Spellings = (value: bigint): string[] => {
  const full = v6Groups(value).join(":");
  const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
  const low = Number(value & 0xffffffffn);
  return [
    full,
    v6Groups(value)
      .map((group) => group.padStart(4, "0"))
      .join(":"),
    compressed,
    compressed.toUpperCase(),
    `${v6Groups(value).slice(0, 6).join(":")}:${v4ToDotted(low)}`,
  ];
};

type Sample = { block: string; spelling: string; host: string };

const oracle = new BlockList();
const v4Samples: Sample[] = [];
for (const { block } of IPV4_SPECIAL_BLOCKS) {
  const [base = "", length = "32"] = block.split("/");
  oracle.addSubnet(base, Number(length), "ipv4");
  const first = v4ToNumber(base);
  const size = 2 ** (32 - Number(length));
  for (const n of new Set([first, first + Math.floor(size / 2), first + size - 1])) {
    for (const spelling of v4Spellings(n)) v4Samples.push({ block, spelling, host: spelling });
    // the same IPv4 address inside every IPv6 form that carries one
    const hex = `${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
    for (const wrapped of [
      `::ffff:${v4ToDotted(n)}`,
      `::${v4ToDotted(n)}`,
      `::${hex}`,
      `64:ff9b::${v4ToDotted(n)}`,
      `64:ff9b:1::${hex}`,
      `2002:${hex}::1`,
    ]) {
      v4Samples.push({ block, spelling: wrapped, host: `[${wrapped}]` });
    }
  }
}
const v6Samples: Sample[] = [];
for (const { block } of IPV6_SPECIAL_BLOCKS) {
  const [base = "", length = "128"] = block.split("/");
  oracle.addSubnet(base, Number(length), "ipv6");
  const first = v6ToNumber(base);
  const size = 1n << BigInt(128 - Number(length));
  for (const value of new Set([first, first + size / 2n, first + size - 1n])) {
    for (const spelling of v6Spellings(value)) v6Samples.push({ block, spelling, host: `[${spelling}]` });
  }
}
// Teredo with a private server and client (the client's address is stored inverted), and 6to4 of private IPv4s
for (const spelling of [
  "2001:0:a00:1::f5ff:fffe",
  "2001:0:c0a8:101:0:ffff:3fff:fffe",
  "2002:c0a8:101::1",
  "2002:a9fe:a9fe::",
])
  v6Samples.push({ block: "transition", spelling, host: `[${spelling}]` });
const samples = [...v4Samples, ...v6Samples];

/** what the URL parser makes of a host: the address every guard receives */
const canonicalOf = (host: string): string => new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, "");

const noDns: Resolve = async () => {
  throw new Error("no name is looked up in this test");
};

describe("the address policy refuses every special-purpose block of the IANA registries", () => {
  it("covers both registries with several hundred samples, each inside its block", () => {
    expect(IPV4_SPECIAL_BLOCKS.length).toBeGreaterThanOrEqual(25);
    expect(IPV6_SPECIAL_BLOCKS.length).toBeGreaterThanOrEqual(25);
    for (const entry of [...IPV4_SPECIAL_BLOCKS, ...IPV6_SPECIAL_BLOCKS]) {
      expect(entry.name).not.toBe("");
      expect(entry.rfc).toMatch(/^RFC \d+/);
    }
    expect(samples.length).toBeGreaterThan(600);
    for (const { spelling, host } of samples) {
      const canonical = canonicalOf(host);
      const inside = oracle.check(canonical, canonical.includes(":") ? "ipv6" : "ipv4");
      expect([spelling, inside]).toEqual([spelling, true]);
    }
  });

  it.each(samples.map((sample) => [sample.spelling, sample.block]))(
    "%s (%s) is not public, spelled as it is or as the URL parser writes it",
    (spelling) => {
      expect(isNonPublicAddress(spelling)).toBe(true);
      expect(nonPublicBlockOf(spelling)).not.toBeNull();
    },
  );

  it("refuses each sample as a URL host, and as what a name resolves to", async () => {
    for (const { spelling, host } of samples) {
      const literal = await vetTarget(new URL(`http://${host}/`), { allowlist: new Set(), resolve: noDns });
      expect([spelling, literal.allowed]).toEqual([spelling, false]);
      const named = await vetTarget(new URL("http://rebinding.example/"), {
        allowlist: new Set(),
        resolve: async () => [canonicalOf(host)],
      });
      expect([spelling, named.allowed]).toEqual([spelling, false]);
    }
  });

  it("names the block and its RFC in the refusal", async () => {
    expect(await vetTarget(new URL("http://[::127.0.0.1]/"), { allowlist: new Set(), resolve: noDns })).toEqual({
      allowed: false,
      reason: "[::7f00:1] is a private or reserved address (IPv4-compatible Address (deprecated), RFC 4291 §2.5.5.1)",
    });
    expect(await vetTarget(new URL("http://0x7f.1/"), { allowlist: new Set(), resolve: noDns })).toEqual({
      allowed: false,
      reason: "127.0.0.1 is a private or reserved address (Loopback, RFC 1122 §3.2.1.3)",
    });
  });

  it("allows public addresses, including each block's outside neighbours", async () => {
    const neighbours: string[] = ["8.8.8.8", "93.184.215.14", "2606:4700::6810:85e5", "2a00:1450:4001:82b::200e"];
    for (const { block } of IPV4_SPECIAL_BLOCKS) {
      const [base = "", length = "32"] = block.split("/");
      const first = v4ToNumber(base);
      for (const n of [first - 1, first + 2 ** (32 - Number(length))]) {
        if (n >= 0 && n < 2 ** 32 && !oracle.check(v4ToDotted(n), "ipv4")) neighbours.push(v4ToDotted(n));
      }
    }
    for (const { block } of IPV6_SPECIAL_BLOCKS) {
      const [base = "", length = "128"] = block.split("/");
      const first = v6ToNumber(base);
      for (const value of [first - 1n, first + (1n << BigInt(128 - Number(length)))]) {
        if (value < 0n || value >= 1n << 128n) continue;
        const address = v6Groups(value).join(":");
        if (!oracle.check(address, "ipv6")) neighbours.push(address);
      }
    }
    expect(neighbours.length).toBeGreaterThan(15);
    for (const address of neighbours) {
      expect([address, isNonPublicAddress(address)]).toEqual([address, false]);
      const host = address.includes(":") ? `[${address}]` : address;
      const verdict = await vetTarget(new URL(`http://${host}/`), { allowlist: new Set(), resolve: noDns });
      expect([address, verdict.allowed]).toEqual([address, true]);
    }
  });

  it("refuses what is no address at all", () => {
    for (const text of ["", "example.com", "1.2.3.4.5", "4294967296", "1::2::3", "::1.2.3", "09.1.1.1", "0x1g.1"]) {
      expect([text, isNonPublicAddress(text)]).toEqual([text, true]);
    }
  });
});

describe("the worker's connection guards refuse every sample and connect to none", () => {
  let listener: Server;
  let port: number;
  let connections = 0;
  let proxy: EgressProxy;
  let proxyPort: number;

  beforeAll(async () => {
    // on every interface and both families: an address that slipped through would reach it
    listener = createServer((_req, res) => res.end("reached"));
    listener.on("connection", () => {
      connections += 1;
    });
    await new Promise<void>((done) => listener.listen(0, "::", done));
    port = (listener.address() as AddressInfo).port;
    // any port: only the address policy stands between the guards and the listener
    proxy = startEgressProxy({ allowlist: new Set(), resolve: noDns, ports: "any" });
    proxyPort = Number(new URL(await proxy.url).port);
  });

  afterAll(async () => {
    await proxy?.close();
    await new Promise<void>((done) => listener?.close(() => done()));
  });

  afterEach(() => {
    expect(connections).toBe(0);
  });

  it("the listener can be reached, so a connection would be counted", async () => {
    const before = connections;
    await new Promise<void>((done, fail) => {
      const socket = connect({ host: "127.0.0.1", port }, () => {
        socket.destroy();
        done();
      });
      socket.on("error", fail);
    });
    await new Promise((done) => setTimeout(done, 50));
    expect(connections).toBe(before + 1);
    connections = 0;
  });

  it("fetchOnce refuses every sample before connecting", async () => {
    const policy = {
      allowlist: new Set<string>(),
      resolve: noDns,
      resolveSubresource: noDns,
      ports: "any" as const,
      userAgent: "address-policy-test",
    };
    for (const { spelling, host } of samples) {
      const outcome = await fetchOnce(new URL(`http://${host}:${port}/`), policy, {
        deadline: Date.now() + 2_000,
        maxBytes: 1024,
      }).then(
        () => "fetched",
        (error: unknown) => (error instanceof TargetError && /refused/.test(error.message) ? "refused" : String(error)),
      );
      expect([spelling, outcome]).toEqual([spelling, "refused"]);
    }
  });

  /** one raw request to the proxy: its status line */
  const throughProxy = (request: string): Promise<string> =>
    new Promise((done, fail) => {
      const socket = connect({ host: "127.0.0.1", port: proxyPort }, () => socket.write(request));
      let answer = "";
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString("latin1");
        if (answer.includes("\r\n")) {
          socket.destroy();
          done(answer.slice(0, answer.indexOf("\r\n")));
        }
      });
      socket.on("error", fail);
      socket.on("close", () => done(answer));
    });

  it("the egress proxy refuses every sample, forwarded or tunnelled", async () => {
    const refusedBefore = proxy.refused;
    for (const { spelling, host } of samples) {
      const forwarded = await throughProxy(
        `GET http://${host}:${port}/ HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`,
      );
      expect([spelling, forwarded]).toEqual([spelling, expect.stringMatching(/^HTTP\/1\.1 403/)]);
      const tunnelled = await throughProxy(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
      expect([spelling, tunnelled]).toEqual([spelling, expect.stringMatching(/^HTTP\/1\.1 403/)]);
    }
    expect(proxy.refused - refusedBefore).toBe(samples.length * 2);
  });
});
