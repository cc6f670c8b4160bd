import { API_KEY_PREFIX, apiKeyChecksum, checkApiKey, generateApiKey, hashApiKey } from "./api-key";

describe("API keys", () => {
  it("have the service prefix, 36 base62 characters and a valid checksum", () => {
    const { key, hash, prefix } = generateApiKey();
    expect(key).toMatch(/^aeo_live_[0-9A-Za-z]{36}$/);
    expect(checkApiKey(key)).toEqual({ ok: true });
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefix).toBe(key.slice(0, API_KEY_PREFIX.length + 6));
  });

  it("are different every time", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });

  it("use the whole alphabet roughly evenly (no modulo bias towards low characters)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      for (const c of generateApiKey().key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 30)) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(62);
    // a modulo-biased draw would favour 8 characters by about 20%; chance alone stays within 10% (7 sigma)
    const expected = (10_000 * 30) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(expected * 0.1);
  });

  it("tell a mistyped key from a well-formed one without any lookup", () => {
    const { key } = generateApiKey();
    const position = API_KEY_PREFIX.length + 10;
    const typo = key.slice(0, position) + (key[position] === "a" ? "b" : "a") + key.slice(position + 1);
    expect(checkApiKey(typo)).toEqual({ ok: false, reason: "checksum" });
    const swapped = key.slice(0, position) + key[position + 1] + key[position] + key.slice(position + 2);
    if (swapped !== key) expect(checkApiKey(swapped)).toEqual({ ok: false, reason: "checksum" });
  });

  it.each([
    ["", "format"],
    ["aeo_live_", "format"],
    ["aeo_test_0123456789012345678901234567890123456", "format"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "format"],
  ])("refuses %j as %s", (candidate, reason) => {
    expect(checkApiKey(candidate)).toEqual({ ok: false, reason });
  });

  it("computes the checksum as base62 CRC32, zero-padded to six characters", () => {
    expect(apiKeyChecksum("")).toBe("000000");
    // crc32("hello") = 907060870 = 0zNvy2 in base62
    expect(apiKeyChecksum("hello")).toBe("0zNvy2");
  });
});
