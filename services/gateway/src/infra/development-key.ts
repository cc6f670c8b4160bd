import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The file under DATA_DIR that holds a development gateway's HS256 secret. */
export const DEVELOPMENT_KEY_FILE = "jwt-dev-secret";

export type DevelopmentKey = { secret: string; path: string; created: boolean };

const read = (path: string): string => {
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < 32) throw new Error(`${path} holds no usable JWT key (under 32 characters): delete it`);
  // a copy or an editor may have widened it; the key signs every dashboard JWT
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return secret;
};

/**
 * The HS256 secret of a gateway run without a configured JWT key outside production: read
 * from `<dataDir>/jwt-dev-secret`, or made there (48 random bytes, mode 0600, the directory
 * 0700) on the first start. Two processes starting at once agree: the file is created
 * exclusively, and the one that loses the race reads the winner's.
 */
export const developmentKey = (dataDir: string): DevelopmentKey => {
  const directory = resolve(dataDir);
  const path = join(directory, DEVELOPMENT_KEY_FILE);
  try {
    return { secret: read(path), path, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { secret: read(path), path, created: false };
  }
  return { secret, path, created: true };
};
