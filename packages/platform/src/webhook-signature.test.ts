import { createHmac } from "node:crypto";
import { signWebhook, verifyWebhook } from "./webhook-signature";

const SECRET = "whsec_test_0123456789abcdef";
const BODY = '{"event":"scan.completed","scan_id":"4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11"}';

describe("webhook signatures", () => {
  it("signs t=<unix>,v1=<hex of HMAC-SHA256(secret, t + '.' + body)>, the documented recipe", () => {
    const header = signWebhook(SECRET, BODY, 1_790_000_000);
    const expected = createHmac("sha256", SECRET).update(`1790000000.${BODY}`).digest("hex");
    expect(header).toBe(`t=1790000000,v1=${expected}`);
  });

  it("verifies its own signature and refuses a tampered body, another secret, or an old timestamp", () => {
    const now = 1_790_000_000_000;
    const header = signWebhook(SECRET, BODY, now / 1000);
    expect(verifyWebhook(SECRET, header, BODY, { now })).toEqual({ valid: true, timestamp: now / 1000 });
    expect(verifyWebhook(SECRET, header, BODY.replace("completed", "failed"), { now })).toEqual({
      valid: false,
      reason: "signature mismatch",
    });
    expect(verifyWebhook("another-secret-entirely", header, BODY, { now }).valid).toBe(false);
    expect(verifyWebhook(SECRET, header, BODY, { now: now + 301_000 })).toEqual({
      valid: false,
      reason: "timestamp outside the tolerance",
    });
  });

  it("refuses missing and malformed headers", () => {
    for (const header of [undefined, "", "v1=abc", "t=1790000000", "t=abc,v1=00", "sha256=deadbeef"]) {
      expect(verifyWebhook(SECRET, header, BODY, { now: 1_790_000_000_000 }).valid).toBe(false);
    }
  });

  it("accepts any of several v1 signatures, as during a secret rotation", () => {
    const t = 1_790_000_000;
    const ours = signWebhook(SECRET, BODY, t).split(",")[1];
    const header = `t=${t},v1=${"0".repeat(64)},${ours}`;
    expect(verifyWebhook(SECRET, header, BODY, { now: t * 1000 }).valid).toBe(true);
  });
});
