import { createPrivateKey, createSecretKey } from "node:crypto";
import jwt from "jsonwebtoken";

export type JwtIssuerOptions = ({ algorithm: "HS256"; secret: string } | { algorithm: "RS256"; privateKey: string }) & {
  issuer?: string | undefined;
  audience?: string | undefined;
};

/** `1h`, `30m`, `7d`, `90s`: how long an issued token lives. */
export const TOKEN_TTL = /^([1-9]\d{0,5})([smhd])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

export const ttlSeconds = (ttl: string): number | null => {
  const match = TOKEN_TTL.exec(ttl.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
};

/**
 * Signs a token for a user of this service: `sub` is the user id; `exp` is always set. A token
 * of a dashboard session also carries the session's id as `sid`, and dies with the session.
 */
export const issueUserToken = (
  options: JwtIssuerOptions,
  user: { id: string; email: string },
  lifetimeSeconds: number,
  sessionId?: string,
): string => {
  const key =
    options.algorithm === "HS256"
      ? createSecretKey(Buffer.from(options.secret, "utf8"))
      : createPrivateKey(options.privateKey);
  return jwt.sign({ email: user.email, ...(sessionId ? { sid: sessionId } : {}) }, key, {
    algorithm: options.algorithm,
    subject: user.id,
    expiresIn: lifetimeSeconds,
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  });
};

/** When a token this service signed expires (its `exp`), read back from the token. */
export const expiryOf = (token: string): Date => {
  const claims = jwt.decode(token);
  const exp = typeof claims === "object" && claims !== null ? claims.exp : undefined;
  if (typeof exp !== "number") throw new Error("a signed token carries no exp");
  return new Date(exp * 1000);
};
