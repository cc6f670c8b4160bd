import { isNonPublicAddress, parseAllowlist, parsePorts, vetTarget } from "./address-policy";

describe("isNonPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "100.64.0.1",
    "::1",
    "::",
    "fc00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "2002:c0a8:101::1",
    "2001:0:a00:1::1",
    "127.1",
    "0x7f.1",
    "2130706433",
    "224.0.0.1",
    "not-an-ip",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });
  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::6810:85e5"])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe("vetTarget", () => {
  const none = async (): Promise<string[]> => {
    throw new Error("ENOTFOUND");
  };
  const to =
    (...addresses: string[]) =>
    async () =>
      addresses;

  it.each([
    "http://127.0.0.1:8080/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://[::1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[::a9fe:a9fe]/",
    "http://0.0.0.0/",
  ])("refuses the loopback spelling %s", async (url) => {
    const verdict = await vetTarget(new URL(url), { allowlist: new Set(), resolve: none });
    expect(verdict.allowed).toBe(false);
  });

  it("refuses a name that resolves to a private address", async () => {
    const verdict = await vetTarget(new URL("https://intranet.example/"), {
      allowlist: new Set(),
      resolve: to("93.184.215.14", "10.0.0.5"),
    });
    expect(verdict).toEqual({ allowed: false, reason: expect.stringContaining("10.0.0.5") });
  });

  it("reports an unresolvable name", async () => {
    const verdict = await vetTarget(new URL("https://nowhere.invalid/"), { allowlist: new Set(), resolve: none });
    expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(/^unresolvable/) });
  });

  it("allows a public name", async () => {
    expect(
      await vetTarget(new URL("https://example.com/"), { allowlist: new Set(), resolve: to("93.184.215.14") }),
    ).toEqual({
      allowed: true,
      addresses: ["93.184.215.14"],
    });
  });

  it("allows only the exact allowlisted host:port", async () => {
    const allowlist = parseAllowlist(" 127.0.0.1:8080 , ,");
    expect((await vetTarget(new URL("http://127.0.0.1:8080/x"), { allowlist, resolve: none })).allowed).toBe(true);
    expect((await vetTarget(new URL("http://127.0.0.1:8081/x"), { allowlist, resolve: none })).allowed).toBe(false);
    expect((await vetTarget(new URL("http://localhost:8080/x"), { allowlist, resolve: to("127.0.0.1") })).allowed).toBe(
      false,
    );
  });

  it("allows the web ports by default and others only when configured", async () => {
    const host = to("93.184.215.14");
    expect(
      (await vetTarget(new URL("https://example.com:8443/"), { allowlist: new Set(), resolve: host })).allowed,
    ).toBe(true);
    expect(await vetTarget(new URL("http://example.com:22/"), { allowlist: new Set(), resolve: host })).toEqual({
      allowed: false,
      reason: expect.stringContaining("port 22 is not allowed"),
    });
    expect(
      (
        await vetTarget(new URL("http://example.com:22/"), {
          allowlist: new Set(),
          resolve: host,
          ports: parsePorts("22, 80"),
        })
      ).allowed,
    ).toBe(true);
    expect(
      (
        await vetTarget(new URL("http://example.com:6379/"), {
          allowlist: new Set(),
          resolve: host,
          ports: parsePorts("*"),
        })
      ).allowed,
    ).toBe(true);
    expect(() => parsePorts("80,http")).toThrow('"http" is not a port');
  });

  it("gives an allowlisted name its addresses, so the connection is pinned to them", async () => {
    const allowlist = parseAllowlist("fixture.test:8080");
    expect(await vetTarget(new URL("http://fixture.test:8080/"), { allowlist, resolve: to("127.0.0.1") })).toEqual({
      allowed: true,
      addresses: ["127.0.0.1"],
    });
  });
});
