import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Callback signatures. The header is `X-Signature: t=<unix seconds>,v1=<hex>` where
 * `<hex>` is HMAC-SHA256 keyed with WEBHOOK_SECRET over the bytes `<t>.<raw body>`: the
 * timestamp as decimal digits, one full stop, then the request body exactly as received.
 * Signing the timestamp with the body means a captured delivery cannot be replayed later
 * with a fresh timestamp; receivers refuse timestamps outside their tolerance.
 */
export const SIGNATURE_HEADER = "X-Signature";

/** How far a receiver should let a signature's timestamp be from its own clock. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const signatureOf = (secret: string, timestamp: number, body: string | Buffer): string =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");

/** The X-Signature header value for this body, signed now (or at `timestamp`). */
export const signWebhook = (secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string =>
  `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;

export type SignatureVerdict = { valid: true; timestamp: number } | { valid: false; reason: string };

/** Parses `t=...,v1=...`; several v1 entries are allowed (a receiver rotating secrets sees both). */
const parseHeader = (header: string): { timestamp: number; signatures: string[] } | null => {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === "t" && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === "v1" && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
};

/** What a receiver does: recompute over the raw body, compare in constant time, bound the age. */
export const verifyWebhook = (
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now() } = {},
): SignatureVerdict => {
  const parsed = header ? parseHeader(header) : null;
  if (!parsed) return { valid: false, reason: "missing or malformed signature header" };
  if (Math.abs(Math.floor(now / 1000) - parsed.timestamp) > toleranceSeconds) {
    return { valid: false, reason: "timestamp outside the tolerance" };
  }
  const expected = Buffer.from(signatureOf(secret, parsed.timestamp, body), "hex");
  const matches = parsed.signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, "hex"), expected));
  return matches ? { valid: true, timestamp: parsed.timestamp } : { valid: false, reason: "signature mismatch" };
};
