import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Operator tokens (METRICS_TOKEN, ADMIN_TOKEN) compared in constant time: both sides are
 * hashed first, so neither the length nor a prefix of the token leaks through timing.
 */
export const tokenMatches = (presented: string | undefined, expected: string): boolean => {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
};

/** The token of `Authorization: Bearer <token>`, or undefined. */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
};

/** The password of `Authorization: Basic base64(user:password)`, or undefined; the user name is ignored. */
export const basicPassword = (authorization: string | undefined): string | undefined => {
  const match = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon === -1 ? undefined : decoded.slice(colon + 1);
};
