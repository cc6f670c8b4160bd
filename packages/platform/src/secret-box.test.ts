import { createSecretBox, newSecretKey, parseSecretKey, SecretBoxError } from "./secret-box";

describe("secret box", () => {
  const box = createSecretBox(parseSecretKey(newSecretKey()));

  it("opens what it sealed, and seals the same text differently each time", () => {
    const text = JSON.stringify({ basic: { username: "ada", password: "pässwörd" } });
    const one = box.seal(text);
    const two = box.seal(text);
    expect(one).not.toBe(two);
    expect(one).not.toContain("ada");
    expect(box.open(one)).toBe(text);
    expect(box.open(two)).toBe(text);
  });

  it("refuses a value sealed under another key, naming both key ids", () => {
    const other = createSecretBox(parseSecretKey(newSecretKey()));
    expect(() => box.open(other.seal("x"))).toThrow(
      new RegExp(`another key \\(${other.keyId}, this one is ${box.keyId}\\)`),
    );
  });

  it("refuses any change to the ciphertext, tag, nonce or header", () => {
    const sealed = box.seal("secret");
    const parts = sealed.split(".");
    for (const index of [2, 3, 4]) {
      const changed = [...parts];
      const bytes = Buffer.from(changed[index] as string, "base64url");
      bytes[0] = (bytes[0] as number) ^ 1;
      changed[index] = bytes.toString("base64url");
      expect(() => box.open(changed.join("."))).toThrow(SecretBoxError);
    }
    expect(() => box.open(`v2.${parts.slice(1).join(".")}`)).toThrow(/not a sealed value/);
    expect(() => box.open("secret")).toThrow(/not a sealed value/);
  });

  it("takes only 32-byte keys", () => {
    expect(() => parseSecretKey(Buffer.alloc(16).toString("base64"))).toThrow(/32 bytes/);
    expect(parseSecretKey(Buffer.alloc(32, 7).toString("base64url"))).toHaveLength(32);
  });
});
