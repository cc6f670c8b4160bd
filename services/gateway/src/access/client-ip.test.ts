import { clientBucket } from "./client-ip";

describe("clientBucket", () => {
  it("counts IPv4 per address, mapped or not", () => {
    expect(clientBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucket("203.0.113.8")).not.toBe(clientBucket("203.0.113.7"));
  });

  it("counts IPv6 per /64", () => {
    expect(clientBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps an unparsable address in a bucket of its own rather than failing", () => {
    expect(clientBucket(undefined)).toBe("unknown:");
    expect(clientBucket("not-an-ip")).toBe("unknown:not-an-ip");
  });
});
