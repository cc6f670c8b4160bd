import type { JwtVerifierOptions } from "../access/jwt-verifier";
import { developmentKey } from "../infra/development-key";
import type { JwtIssuerOptions } from "./jwt-issuer";

/** The JWT settings the gateway and the accounts CLI share (config.ts JwtFields). */
export type JwtSettings = {
  NODE_ENV?: string | undefined;
  DATA_DIR: string;
  JWT_ALGORITHM: "HS256" | "RS256";
  JWT_SECRET?: string | undefined;
  JWT_PUBLIC_KEY?: string | undefined;
  JWT_PRIVATE_KEY?: string | undefined;
  JWT_ISSUER?: string | undefined;
  JWT_AUDIENCE?: string | undefined;
  JWT_CLOCK_TOLERANCE_S: number;
};

export type JwtKeys = {
  verifier: JwtVerifierOptions;
  /** null under RS256 without JWT_PRIVATE_KEY: tokens are verified here but signed elsewhere */
  signer: JwtIssuerOptions | null;
  /** set when the key is the development one under DATA_DIR: where it is, and whether it was made now */
  development: { path: string; created: boolean } | null;
};

export const MISSING_KEY_MESSAGE =
  "no JWT key is configured: set JWT_SECRET (32+ characters, e.g. `openssl rand -hex 32`), or JWT_ALGORITHM=RS256 with JWT_PUBLIC_KEY. With NODE_ENV=production no development key is made";

/**
 * The keys JWTs are verified and signed with: the configured ones; without any, outside
 * production, the development key kept under DATA_DIR; in production, none, which is an error
 * the caller stops on (a production gateway never invents a key its replicas would not share).
 */
export const jwtKeysFrom = (settings: JwtSettings): JwtKeys => {
  const shared = { issuer: settings.JWT_ISSUER, audience: settings.JWT_AUDIENCE };
  const verifying = { ...shared, clockToleranceS: settings.JWT_CLOCK_TOLERANCE_S };
  if (settings.JWT_ALGORITHM === "RS256") {
    // the config refuses RS256 without a public key
    const publicKey = settings.JWT_PUBLIC_KEY ?? "";
    return {
      verifier: { algorithm: "RS256", publicKey, ...verifying },
      signer: settings.JWT_PRIVATE_KEY ? { algorithm: "RS256", privateKey: settings.JWT_PRIVATE_KEY, ...shared } : null,
      development: null,
    };
  }
  if (settings.JWT_SECRET) {
    return {
      verifier: { algorithm: "HS256", secret: settings.JWT_SECRET, ...verifying },
      signer: { algorithm: "HS256", secret: settings.JWT_SECRET, ...shared },
      development: null,
    };
  }
  if (settings.NODE_ENV === "production") throw new Error(MISSING_KEY_MESSAGE);
  const key = developmentKey(settings.DATA_DIR);
  return {
    verifier: { algorithm: "HS256", secret: key.secret, ...verifying },
    signer: { algorithm: "HS256", secret: key.secret, ...shared },
    development: { path: key.path, created: key.created },
  };
};
