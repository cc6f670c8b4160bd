import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The capability that reads an anonymous scan. Its maker has no key to prove ownership with, so
 * the answer to POST /api/v1/scan carries an unguessable link instead: 256 random bits in the
 * `access` query parameter. Only the token's SHA-256 is stored, so a database reader cannot
 * forge a link; a key that lacks the link cannot read the scan at all.
 */
export type ScanAccess = { token: string; hash: string };

/** The query parameter of the link. */
export const ACCESS_PARAM = "access";

const hashOf = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

export const newScanAccess = (): ScanAccess => {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOf(token) };
};

/** The link to read a scan with: its path, plus the token for an anonymous scan. */
export const scanLink = (scanId: string, token: string | null): string =>
  token === null ? `/api/v1/scan/${scanId}` : `/api/v1/scan/${scanId}?${ACCESS_PARAM}=${token}`;

/** Whether `token` is the one whose hash was stored; in constant time over the hashes. */
export const grantsAccess = (storedHash: string | null, token: string | undefined): boolean => {
  if (storedHash === null || token === undefined || token.length === 0 || token.length > 256) return false;
  const given = Buffer.from(hashOf(token), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
};
