import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Secrets kept at rest (a site's login: headers, cookies, HTTP Basic credentials), sealed with
 * AES-256-GCM under the deployment's `SITE_SECRETS_KEY`. A sealed value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): the key id (the first 8 bytes of the
 * key's SHA-256, as hex) says which key sealed it, so a wrong or rotated key is told apart from
 * tampering, and the tag refuses any change to the ciphertext. The plaintext never leaves
 * `open`'s caller.
 */
export type SecretBox = {
  /** which key seals: the first 8 bytes of its SHA-256, hex */
  keyId: string;
  seal: (plaintext: string) => string;
  /** throws SecretBoxError when the value was sealed under another key or altered */
  open: (sealed: string) => string;
};

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

const VERSION = "v1";

/** A key as the configuration gives it: 32 bytes in base64 or base64url (44 or 43 characters). */
export const parseSecretKey = (encoded: string): Buffer => {
  const key = Buffer.from(encoded.trim(), "base64");
  if (key.length !== 32) throw new SecretBoxError("the key must be 32 bytes in base64 (openssl rand -base64 32)");
  return key;
};

/** A fresh key, encoded as the configuration takes it. */
export const newSecretKey = (): string => randomBytes(32).toString("base64");

export const createSecretBox = (key: Buffer): SecretBox => {
  if (key.length !== 32) throw new SecretBoxError("the key must be 32 bytes");
  const keyId = createHash("sha256").update(key).digest("hex").slice(0, 16);
  const seal = (plaintext: string): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    // the version and key id are bound to the ciphertext: neither can be swapped
    cipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
    return [VERSION, keyId, ...parts].join(".");
  };
  const open = (sealed: string): string => {
    const [version, sealedBy, iv, tag, ciphertext, ...rest] = sealed.split(".");
    if (version !== VERSION || rest.length > 0 || !iv || !tag || ciphertext === undefined) {
      throw new SecretBoxError("not a sealed value");
    }
    if (sealedBy !== keyId) throw new SecretBoxError(`sealed under another key (${sealedBy}, this one is ${keyId})`);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretBoxError("the sealed value was altered");
    }
  };
  return { keyId, seal, open };
};

/** The box of the deployment's `SITE_SECRETS_KEY`, or null when it is not configured. */
export const siteSecretsBox = (encoded: string | undefined): SecretBox | null =>
  encoded === undefined ? null : createSecretBox(parseSecretKey(encoded));
