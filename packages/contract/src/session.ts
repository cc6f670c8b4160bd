import { z } from "zod";
import { Email, Plan, Role } from "./account";

/*
 * The dashboard's session endpoints under /auth (Form A only): their bodies and answers. The
 * password rules themselves (12 to 256 characters for a new one) are the gateway's.
 */

const Password = z.string({ error: "password must be a string" }).max(1_024, "password is too long");
const Token = z
  .string({ error: "token must be a string" })
  .trim()
  .min(20, "token is too short: copy the whole link")
  .max(200, "token is too long");

/** POST /auth/sign-up. */
export const SignUpRequest = z.strictObject({
  email: Email,
  password: Password,
  /** the token of an invitation link; required when sign-up is by invitation */
  invitation: Token.optional(),
});
export type SignUpRequest = z.infer<typeof SignUpRequest>;

/** POST /auth/sign-in. */
export const SignInRequest = z.strictObject({ email: Email, password: Password });
export type SignInRequest = z.infer<typeof SignInRequest>;

/** POST /auth/password: the signed-in user's password change. */
export const PasswordChangeRequest = z.strictObject({ currentPassword: Password, newPassword: Password });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

/** POST /auth/password-reset: a reset link's token and the new password. */
export const PasswordResetRequest = z.strictObject({ token: Token, password: Password });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

export const InvitationTokenParam = z.object({ token: Token });

/** The signed-in user, as the dashboard shows them. */
export const SessionUserView = z.object({ id: z.uuid(), email: z.string(), role: Role, plan: Plan });
export type SessionUserView = z.infer<typeof SessionUserView>;

/** GET /auth/session, and the sign-in and sign-up answers. */
export const SessionView = z.object({
  user: SessionUserView,
  /** send it as X-CSRF-Token on every state-changing /auth request made with the session */
  csrfToken: z.string(),
  /** when the session ends if it is not used before: the earlier of its idle and its absolute end */
  expiresAt: z.iso.datetime(),
});
export type SessionView = z.infer<typeof SessionView>;

/** POST /auth/token: a short-lived JWT for /api/v1, dying with the session. */
export const SessionTokenView = z.object({ token: z.string(), expiresAt: z.iso.datetime() });
export type SessionTokenView = z.infer<typeof SessionTokenView>;

/** GET /auth/invitations/:token. */
export const InvitationView = z.object({ email: z.string() });
export type InvitationView = z.infer<typeof InvitationView>;
