import { createPublicKey, createSecretKey, type KeyObject } from "node:crypto";
import { AppError } from "@scan/contract";
import jwt from "jsonwebtoken";
import { z } from "zod";

/**
 * Verified JWT claims: `sub` and `exp` are required; every other claim is kept as it came
 * (an `admin` flag, an `email`...) for the endpoint that reads it.
 */
export const JwtClaims = z.looseObject({
  sub: z.string().min(1),
  exp: z.number(),
  iat: z.number().optional(),
  /** the dashboard session the token was issued for (POST /auth/token); absent on the accounts CLI's tokens */
  sid: z.string().optional(),
});
export type JwtClaims = z.infer<typeof JwtClaims>;

export type JwtVerifierOptions = (
  | { algorithm: "HS256"; secret: string }
  | { algorithm: "RS256"; publicKey: string }
) & {
  issuer?: string | undefined;
  audience?: string | undefined;
  clockToleranceS: number;
};

/** Verifies a token and answers its claims, or throws 401 `unauthenticated`. */
export type VerifyJwt = (token: string) => JwtClaims;

const HINT = "Sign in again for a fresh token (self-hosted: pnpm accounts token --email <email>).";

const refused = (message: string) => new AppError("unauthenticated", message, HINT);

/**
 * One algorithm, fixed by configuration, never taken from the token: `alg: none` and HS/RS
 * confusion (an HS256 token signed with the RSA public key as its secret) are refused by the
 * algorithms list, and again by the key's type (a secret key object cannot verify RS256, a
 * public key object cannot verify HS256).
 */
export const createJwtVerifier = (options: JwtVerifierOptions): VerifyJwt => {
  const key: KeyObject =
    options.algorithm === "HS256"
      ? createSecretKey(Buffer.from(options.secret, "utf8"))
      : createPublicKey(options.publicKey);
  const verifyOptions: jwt.VerifyOptions & { complete?: false } = {
    algorithms: [options.algorithm],
    clockTolerance: options.clockToleranceS,
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  };
  return (token) => {
    let payload: unknown;
    try {
      payload = jwt.verify(token, key, verifyOptions);
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw refused("The token has expired");
      if (error instanceof jwt.NotBeforeError) throw refused("The token is not valid yet");
      // the library's reason (bad signature, wrong algorithm, audience...) stays out of the answer
      throw refused("The token is not valid");
    }
    const claims = JwtClaims.safeParse(payload);
    if (!claims.success) throw refused("The token must carry sub and exp claims");
    return claims.data;
  };
};
