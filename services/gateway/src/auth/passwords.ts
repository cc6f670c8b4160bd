import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";

/**
 * Passwords: argon2id through @node-rs/argon2 at its defaults (19 MiB of memory, 2 passes, one
 * lane: OWASP's recommended minimum), stored as the PHC string (`$argon2id$v=19$m=19456,...`),
 * so a later change of parameters still verifies the hashes made before it.
 */

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** A new password: 12 to 256 characters, any characters (NIST SP 800-63B: length, no composition rules). */
export const NewPassword = z
  .string({ error: "password must be a string" })
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);

/** A password being checked: never judged by its length, only capped so a huge one costs nothing. */
export const PresentedPassword = z
  .string({ error: "password must be a string" })
  .min(1, "password must not be empty")
  .max(PASSWORD_MAX * 4, "password is too long");

export const hashPassword = (password: string): Promise<string> => hash(password);

/** Whether `password` is the one `stored` was made from, taking as long when nothing is stored. */
export type PasswordCheck = (stored: string | null | undefined, password: string) => Promise<boolean>;

/**
 * Whether `password` is the one `stored` was made from. With no stored hash (an unknown email,
 * or a user who never set a password) a hash made at start-up is checked instead, so the
 * answer takes as long either way and timing tells no account apart.
 */
export const createPasswordCheck = async (): Promise<PasswordCheck> => {
  const decoy = await hash(`decoy-${process.hrtime.bigint()}`);
  return async (stored: string | null | undefined, password: string): Promise<boolean> => {
    try {
      const matches = await verify(stored ?? decoy, password);
      return stored != null && matches;
    } catch {
      // a stored value that is not a PHC string matches nothing
      return false;
    }
  };
};
