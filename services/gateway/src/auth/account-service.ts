import {
  AppError,
  Email,
  type PasswordChangeRequest,
  type PasswordResetRequest,
  type Plan,
  type Role,
  type SignInRequest,
  type SignUpRequest,
} from "@scan/contract";
import type { Db } from "@scan/db";
import {
  type LiveSession,
  type SessionService,
  type SessionUser,
  type StartedSession,
  sha256Hex,
} from "../access/session-service";
import { hashPassword, NewPassword, type PasswordCheck } from "./passwords";

/** `open`: anyone may make an account; `invite`: only with an invitation link. */
export type SignUpMode = "open" | "invite";

const SIGN_IN_REFUSED = "The email or password is not right";

const refusedSignIn = () =>
  new AppError(
    "unauthenticated",
    SIGN_IN_REFUSED,
    "Check both and try again; if you forgot the password, ask the operator for a reset link.",
  );

const newPasswordOf = (password: string, field: string): string => {
  const parsed = NewPassword.safeParse(password);
  if (!parsed.success) {
    throw new AppError(
      "invalid_request",
      `${field}: ${parsed.error.issues[0]?.message ?? "not a usable password"}`,
      "Use 12 to 256 characters; a passphrase of several words is easiest to remember.",
    );
  }
  return parsed.data;
};

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";

const USER_FIELDS = { id: true, email: true, role: true, plan: true } as const;

export type AccountService = {
  /** A new account and its first session: open to anyone, or by an invitation for its email. */
  signUp: (input: SignUpRequest) => Promise<StartedSession>;
  /** A new session for the right email and password; 401 with one message for every wrong pair. */
  signIn: (input: SignInRequest) => Promise<StartedSession>;
  /** Sets a user's password (the operator's CLI); every session of the user ends. */
  setPassword: (userId: string, newPassword: string, field?: string) => Promise<void>;
  /** The signed-in user's change: the current password is checked, then every session ends and a new one starts. */
  changePassword: (session: LiveSession, input: PasswordChangeRequest) => Promise<StartedSession>;
  /** A reset link's token and a new password: the password is set, the link spent and every session ended. */
  resetPassword: (input: PasswordResetRequest) => Promise<void>;
  /** The email an invitation is for while it can still be used, or null. */
  invitationEmail: (token: string) => Promise<string | null>;
  /** Who may make an account: anyone, or only with an invitation link. */
  signUpMode: SignUpMode;
};

/**
 * The dashboard's accounts: sign-up (open or by invitation), sign-in, a password change and a
 * reset through a one-time link. Passwords are argon2id hashes; every change of password ends
 * the user's other sessions. Answers never tell an unknown email from a wrong password.
 */
export const createAccountService = ({
  db,
  sessions,
  signUpMode,
  checkPassword,
}: {
  db: Db;
  sessions: SessionService;
  signUpMode: SignUpMode;
  checkPassword: PasswordCheck;
}): AccountService => {
  /** The invitation a token names while it can still be used, or null. */
  const openInvitation = async (token: string) => {
    const invitation = await db.invitation.findUnique({ where: { tokenHash: sha256Hex(token) } });
    if (!invitation || invitation.acceptedAt || invitation.expiresAt.getTime() <= Date.now()) return null;
    return invitation;
  };

  const invitationEmail = async (token: string): Promise<string | null> => (await openInvitation(token))?.email ?? null;

  const signUp = async (input: { email: string; password: string; invitation?: string | undefined }) => {
    const password = newPasswordOf(input.password, "password");
    const invitation = input.invitation ? await openInvitation(input.invitation) : null;
    if (input.invitation && !invitation) {
      throw new AppError(
        "invalid_request",
        "The invitation is not valid: it is unknown, already used or expired",
        "Ask the operator for a new invitation link.",
      );
    }
    if (!invitation && signUpMode === "invite") {
      throw new AppError("forbidden", "Sign-up is by invitation only", "Ask the operator for an invitation link.");
    }
    if (invitation && invitation.email !== input.email) {
      throw new AppError(
        "invalid_request",
        "The invitation is for another email address",
        "Sign up with the address the invitation was sent to.",
      );
    }
    const plan: Plan = invitation?.plan ?? "free";
    const role: Role = invitation?.role ?? "member";
    const passwordHash = await hashPassword(password);
    let user: SessionUser;
    try {
      user = await db.$transaction(async (tx) => {
        if (invitation) {
          const { count } = await tx.invitation.updateMany({
            where: { id: invitation.id, acceptedAt: null },
            data: { acceptedAt: new Date() },
          });
          if (count === 0) {
            throw new AppError("invalid_request", "The invitation has already been used", "Sign in instead.");
          }
        }
        return tx.user.create({
          data: { email: input.email, plan, role, passwordHash, passwordChangedAt: new Date() },
          select: USER_FIELDS,
        });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // said without confirming that an account exists, though it cannot hide it either: documented
      throw new AppError(
        "invalid_request",
        "An account cannot be made with this email address",
        "If the address is yours, sign in, or ask the operator for a password reset link.",
      );
    }
    return sessions.start(user);
  };

  /** A new session for the right email and password; 401 with one message for every wrong pair. */
  const signIn = async (input: { email: string; password: string }): Promise<StartedSession> => {
    const email = Email.safeParse(input.email);
    const found = email.success
      ? await db.user.findUnique({ where: { email: email.data }, select: { ...USER_FIELDS, passwordHash: true } })
      : null;
    // checked against a decoy when there is no user or no password, to take as long
    if (!(await checkPassword(found?.passwordHash, input.password)) || !found) throw refusedSignIn();
    const { passwordHash: _, ...user } = found;
    return sessions.start(user);
  };

  type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

  /** Stores a new password hash: outstanding reset links are spent and every session of the user ends. */
  const storePassword = async (tx: Tx, userId: string, passwordHash: string): Promise<void> => {
    const now = new Date();
    await tx.user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: now } });
    await tx.passwordReset.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
  };

  /** Sets a user's password (the operator's CLI); every session of the user ends. */
  const setPassword = async (userId: string, newPassword: string, field = "password"): Promise<void> => {
    const passwordHash = await hashPassword(newPasswordOf(newPassword, field));
    await db.$transaction((tx) => storePassword(tx, userId, passwordHash));
  };

  /** The signed-in user's change: the current password is checked, then every session ends and a new one starts. */
  const changePassword = async (
    session: LiveSession,
    input: { currentPassword: string; newPassword: string },
  ): Promise<StartedSession> => {
    newPasswordOf(input.newPassword, "newPassword");
    const stored = await db.user.findUnique({ where: { id: session.user.id }, select: { passwordHash: true } });
    if (!(await checkPassword(stored?.passwordHash, input.currentPassword))) {
      throw new AppError("invalid_request", "currentPassword is not right", "Type the password you signed in with.");
    }
    await setPassword(session.user.id, input.newPassword, "newPassword");
    return sessions.start(session.user);
  };

  /** A reset link's token and a new password: the password is set, the link spent and every session ended. */
  const resetPassword = async (input: { token: string; password: string }): Promise<void> => {
    // hashed first: a wrong token costs as long as a right one
    const passwordHash = await hashPassword(newPasswordOf(input.password, "password"));
    const spent = () =>
      new AppError(
        "invalid_request",
        "The reset link is not valid: it is unknown, already used or expired",
        "Ask the operator for a new password reset link.",
      );
    await db.$transaction(async (tx) => {
      const reset = await tx.passwordReset.findUnique({ where: { tokenHash: sha256Hex(input.token) } });
      if (!reset || reset.usedAt || reset.expiresAt.getTime() <= Date.now()) throw spent();
      // claimed before use: of two requests with one link, one wins
      const { count } = await tx.passwordReset.updateMany({
        where: { id: reset.id, usedAt: null },
        data: { usedAt: new Date() },
      });
      if (count === 0) throw spent();
      await storePassword(tx, reset.userId, passwordHash);
    });
  };

  return { signUp, signIn, setPassword, changePassword, resetPassword, invitationEmail, signUpMode };
};
