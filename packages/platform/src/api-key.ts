import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

/**
 * API key format: `aeo_live_` + 30 base62 characters from a CSPRNG (about 178 bits) + a
 * 6-character base62 CRC32 of those 30 characters, as GitHub's tokens carry one. The fixed
 * prefix lets secret scanners find leaked keys; the checksum lets them, and our 401 path,
 * tell a mistyped or made-up key from a real one without a database read. Only the SHA-256 of
 * the whole key is stored: a key is high-entropy, so a fast hash is enough.
 */
export const API_KEY_PREFIX = "aeo_live_";
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
/** characters of the body kept as the key's visible prefix: enough to tell keys apart, not to use one */
const VISIBLE_BODY_CHARS = 6;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

const toBase62 = (value: number, width: number): string => {
  let out = "";
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, "0");
};

/** CRC32 of the random body, base62, 6 characters (62^6 > 2^32, so no checksum is lost). */
export const apiKeyChecksum = (body: string): string => toBase62(crc32(body), CHECKSUM_LENGTH);

export type GeneratedApiKey = { key: string; hash: string; prefix: string };

export const hashApiKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex");

/** A new key with its hash and visible prefix. `randomInt` draws each character uniformly from the CSPRNG. */
export const generateApiKey = (): GeneratedApiKey => {
  let body = "";
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(62)];
  const key = `${API_KEY_PREFIX}${body}${apiKeyChecksum(body)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + VISIBLE_BODY_CHARS) };
};

export type ApiKeyCheck = { ok: true } | { ok: false; reason: "format" | "checksum" };

/** Whether a presented string can be one of our keys at all: shape, then checksum. No I/O. */
export const checkApiKey = (candidate: string): ApiKeyCheck => {
  if (!SHAPE.test(candidate)) return { ok: false, reason: "format" };
  const body = candidate.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  const checksum = candidate.slice(API_KEY_PREFIX.length + BODY_LENGTH);
  return apiKeyChecksum(body) === checksum ? { ok: true } : { ok: false, reason: "checksum" };
};
