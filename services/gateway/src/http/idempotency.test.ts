import type { Request } from "express";
import { fingerprintOf, readIdempotencyKey } from "./idempotency";

/** A request carrying these Idempotency-Key lines, as Node hands them over. */
const withKey = (...lines: string[]) =>
  ({ headersDistinct: lines.length === 0 ? {} : { "idempotency-key": lines } }) as unknown as Request;

describe("readIdempotencyKey", () => {
  it("reads a bare key and the draft's quoted string alike", () => {
    expect(readIdempotencyKey(withKey("8e03978e-40d5-43e8-bc93-6894a57f9324"))).toBe(
      "8e03978e-40d5-43e8-bc93-6894a57f9324",
    );
    expect(readIdempotencyKey(withKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"'))).toBe(
      "8e03978e-40d5-43e8-bc93-6894a57f9324",
    );
    expect(readIdempotencyKey(withKey('"say \\"hi\\", \\\\ bye"'))).toBe('say "hi", \\ bye');
    expect(readIdempotencyKey(withKey("x".repeat(255)))).toHaveLength(255);
  });

  it("is absent without the header", () => {
    expect(readIdempotencyKey(withKey())).toBeUndefined();
  });

  it.each([
    [[""], /empty/],
    [['""'], /empty/],
    [["x".repeat(256)], /256 characters long/],
    [[`"${"x".repeat(256)}"`], /256 characters long/],
    [["ключ"], /printable ASCII/],
    [['"open'], /well-formed quoted string/],
    [['"a"b"'], /well-formed quoted string/],
    [['"bad \\x escape"'], /well-formed quoted string/],
    [["a, b"], /comma/],
    [["a", "b"], /more than once/],
  ])("refuses %j with 400", (lines, message) => {
    expect(() => readIdempotencyKey(withKey(...lines))).toThrow(message);
    try {
      readIdempotencyKey(withKey(...lines));
    } catch (error) {
      expect((error as { status?: number }).status).toBe(400);
    }
  });
});

describe("fingerprintOf", () => {
  it("is the same for the same request whatever the key order, and differs for any other", () => {
    const one = fingerprintOf("post", "/api/v1/sites", {
      url: "https://a.example",
      name: "A",
      nested: { b: 1, a: [2, { d: 1, c: 0 }] },
    });
    const same = fingerprintOf("POST", "/api/v1/sites", {
      nested: { a: [2, { c: 0, d: 1 }], b: 1 },
      name: "A",
      url: "https://a.example",
    });
    expect(same).toBe(one);
    expect(fingerprintOf("POST", "/api/v1/sites", { url: "https://a.example", name: "B" })).not.toBe(
      fingerprintOf("POST", "/api/v1/sites", { url: "https://a.example", name: "A" }),
    );
    expect(fingerprintOf("POST", "/api/v1/keywords", { url: "https://a.example" })).not.toBe(
      fingerprintOf("POST", "/api/v1/sites", { url: "https://a.example" }),
    );
    // array order is meaning: a batch of the same URLs in another order is another request
    expect(fingerprintOf("POST", "/x", { urls: ["a", "b"] })).not.toBe(
      fingerprintOf("POST", "/x", { urls: ["b", "a"] }),
    );
    // no body and an empty object are different requests
    expect(fingerprintOf("POST", "/api/v1/keys", undefined)).not.toBe(fingerprintOf("POST", "/api/v1/keys", {}));
  });
});
