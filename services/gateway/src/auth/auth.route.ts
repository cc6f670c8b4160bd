import {
  AppError,
  InvitationTokenParam,
  InvitationView,
  PasswordChangeRequest,
  PasswordResetRequest,
  SessionTokenView,
  SessionView,
  SignInRequest,
  SignUpRequest,
} from "@scan/contract";
import type { Request, Response } from "express";
import { csrfTokenOf, type LiveSession, type SessionService, type StartedSession } from "../access/session-service";
import { security } from "../docs/common";
import {
  SetCookie,
  sessionAnswer,
  sessionErrors,
  sessionNoContent,
  withoutSession,
  withSession,
} from "../docs/sessions";
import { type Reply, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import {
  assertNotForeign,
  assertSameSite,
  clearSessionCookie,
  currentSession,
  noSession,
  setSessionCookie,
} from "../http/session-access";
import type { AccountService } from "./account-service";
import type { SignInThrottle } from "./sign-in-throttle";

/** Signs a JWT for the session's user carrying the session's id, living `lifetimeS`, and says when it expires. */
export type SessionTokenSigner = (
  user: { id: string; email: string },
  sessionId: string,
  lifetimeS: number,
) => { token: string; expiresAt: Date };

export type AuthRouteDeps = {
  accounts: AccountService;
  sessions: SessionService;
  throttle: SignInThrottle;
  /** null: no signing key (RS256 without JWT_PRIVATE_KEY); POST /auth/token answers 503 */
  signToken: SessionTokenSigner | null;
  tokenLifetimeS: number;
};

export const AUTH_PREFIX = "/auth";
/** GET /auth/invitations/:token, below AUTH_PREFIX */
export const INVITATION_LOOKUP = "/invitations/";

const view = (session: LiveSession, secret: string): SessionView => ({
  user: { id: session.user.id, email: session.user.email, role: session.user.role, plan: session.workspace.plan },
  csrfToken: csrfTokenOf(secret),
  expiresAt: session.endsAt.toISOString(),
});

/** Hands the browser a new session: the cookie, and the session as the dashboard reads it. */
const begin = (req: Request, res: Response, status: number, started: StartedSession): Reply => {
  setSessionCookie(req, res, started.secret, started.expiresAt);
  return reply(view(started, started.secret), { status });
};

const BODY_HINT = {
  signUp: 'Send {"email": "...", "password": "12 to 256 characters", "invitation": "<token, when invited>"} as JSON.',
  signIn: 'Send {"email": "...", "password": "..."} as JSON.',
  password: 'Send {"currentPassword": "...", "newPassword": "12 to 256 characters"} as JSON.',
  reset: 'Send {"token": "<from the reset link>", "password": "12 to 256 characters"} as JSON.',
};

/**
 * The dashboard's session endpoints (docs/authentication.md, Dashboard sign-in and sessions),
 * outside /api/v1 and always in Form A. A session lives in an HttpOnly cookie; every change
 * made with it needs its CSRF token and this gateway's Origin; sign-in, sign-up and resets are
 * throttled per address, sign-in and password changes per account too.
 */
export const authRoutes = ({ accounts, sessions, throttle, signToken, tokenLifetimeS }: AuthRouteDeps): Route[] => [
  route(
    {
      method: "post",
      path: "/auth/sign-up",
      authorization: "public",
      body: { schema: SignUpRequest, hint: BODY_HINT.signUp },
      docs: {
        operationId: "signUp",
        tags: ["Dashboard sessions"],
        summary: "Make an account and sign in",
        description:
          "Open to anyone with `SIGN_UP=open`; by invitation only with `SIGN_UP=invite` (the default), where `invitation` is the token of a link from `pnpm accounts invite` and `email` must be the invited one. The password has 12 to 256 characters. The email is normalised (Unicode NFKC, lower case, no trailing dot on the domain), so a look-alike of an address that already has an account is that address; one that has an account is 400 with a message that does not say so outright, and one holding an invisible character (zero-width, bidi control, soft hyphen, ...) is 400 naming it (see docs/authentication.md). Throttled per client address like sign-in. A session cookie the browser held is ended.",
        headers: withoutSession,
        responses: {
          "201": sessionAnswer("The account is made and signed in: the session, with its CSRF token.", SessionView, {
            "Set-Cookie": SetCookie,
          }),
          ...sessionErrors(400, 403, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ body, req, res }) => {
      assertNotForeign(req);
      await throttle.attempt(req, res);
      const previous = await currentSession(sessions, req);
      const started = await accounts.signUp(body);
      if (previous) await sessions.revoke(previous.session.id);
      return begin(req, res, 201, started);
    },
  ),

  route(
    {
      method: "post",
      path: "/auth/sign-in",
      authorization: "public",
      body: { schema: SignInRequest, hint: BODY_HINT.signIn },
      docs: {
        operationId: "signIn",
        tags: ["Dashboard sessions"],
        summary: "Sign in",
        description:
          "A new session every time (the one the browser held, if any, is ended). A wrong password and an unknown email get the same 401. Throttled per client address and per account (`SIGN_IN_LIMIT_*`, with the API's X-RateLimit-* headers and `Retry-After` on 429); a successful sign-in clears the account's count.",
        headers: withoutSession,
        responses: {
          "200": sessionAnswer("Signed in: the session, with its CSRF token.", SessionView, {
            "Set-Cookie": SetCookie,
          }),
          ...sessionErrors(400, 401, 403, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ body, req, res }) => {
      assertNotForeign(req);
      await throttle.attempt(req, res, { email: body.email });
      const started = await accounts.signIn(body);
      await throttle.succeeded(body.email);
      // rotation: whatever session the browser held before is ended, and a new one begins
      const previous = await currentSession(sessions, req);
      if (previous) await sessions.revoke(previous.session.id);
      return begin(req, res, 200, started);
    },
  ),

  route(
    {
      method: "post",
      path: "/auth/sign-out",
      authorization: "public",
      docs: {
        operationId: "signOut",
        tags: ["Dashboard sessions"],
        summary: "Sign out",
        description:
          "Ends the session (its JWTs are refused from then on) and clears the cookie. Without a live session it only clears the cookie.",
        security: security.session,
        headers: withSession,
        responses: {
          "204": sessionNoContent("Signed out.", { "Set-Cookie": SetCookie }),
          ...sessionErrors(403, 405, 500, 503),
        },
      },
    },
    async ({ req, res }) => {
      const current = await currentSession(sessions, req);
      if (current) {
        assertSameSite(req, current.secret);
        await sessions.revoke(current.session.id);
      }
      clearSessionCookie(req, res);
      res.status(204).end();
    },
  ),

  route(
    {
      method: "get",
      path: "/auth/session",
      authorization: "public",
      docs: {
        operationId: "getSession",
        tags: ["Dashboard sessions"],
        summary: "The signed-in user and the CSRF token",
        description: "Records the session's use (to the minute), which keeps it from its idle end.",
        security: security.session,
        responses: {
          "200": sessionAnswer("The session.", SessionView),
          ...sessionErrors(401, 405, 500, 503),
        },
      },
    },
    async ({ req, res }) => {
      const current = await currentSession(sessions, req);
      if (!current) {
        clearSessionCookie(req, res);
        throw noSession();
      }
      return view(current.session, current.secret);
    },
  ),

  route(
    {
      method: "post",
      path: "/auth/token",
      authorization: "public",
      docs: {
        operationId: "issueSessionToken",
        tags: ["Dashboard sessions"],
        summary: "A short-lived JWT for /api/v1",
        description:
          "Signed with the deployment's JWT key (issuer and audience as configured), `sub` the user's id and `sid` the session's; it lives `USER_TOKEN_TTL_S` (5 minutes by default), never past the session's absolute end, and is refused as soon as the session ends. Keep it in memory and ask again before `expiresAt`. 503 under RS256 without `JWT_PRIVATE_KEY`.",
        security: security.session,
        headers: withSession,
        responses: {
          "200": sessionAnswer("The token.", SessionTokenView),
          ...sessionErrors(401, 403, 405, 500, 503),
        },
      },
    },
    async ({ req }) => {
      const current = await currentSession(sessions, req);
      if (!current) throw noSession();
      assertSameSite(req, current.secret);
      if (!signToken) {
        throw new AppError(
          "service_unavailable",
          "This gateway cannot sign tokens",
          "The operator must set JWT_PRIVATE_KEY (JWT_ALGORITHM=RS256) for the dashboard's tokens.",
        );
      }
      const { session } = current;
      // never outlives its session's absolute end; revoking the session refuses it sooner
      const lifetimeS = Math.max(
        1,
        Math.min(tokenLifetimeS, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)),
      );
      const { token, expiresAt } = signToken(session.user, session.id, lifetimeS);
      return { token, expiresAt: expiresAt.toISOString() } satisfies SessionTokenView;
    },
  ),

  route(
    {
      method: "post",
      path: "/auth/password",
      authorization: "public",
      body: { schema: PasswordChangeRequest, hint: BODY_HINT.password },
      docs: {
        operationId: "changePassword",
        tags: ["Dashboard sessions"],
        summary: "Change the password",
        description:
          "Checks the current password (throttled per account like sign-in), sets the new one, ends every other session of the user and rotates this one: the answer sets a new cookie, so read the new CSRF token from GET /auth/session.",
        security: security.session,
        headers: withSession,
        responses: {
          "204": sessionNoContent("Changed; this browser holds a new session.", { "Set-Cookie": SetCookie }),
          ...sessionErrors(400, 401, 403, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ body, req, res }) => {
      const current = await currentSession(sessions, req);
      if (!current) throw noSession();
      assertSameSite(req, current.secret);
      await throttle.attempt(req, res, { email: current.session.user.email });
      const started = await accounts.changePassword(current.session, body);
      await throttle.succeeded(current.session.user.email);
      setSessionCookie(req, res, started.secret, started.expiresAt);
      res.status(204).end();
    },
  ),

  route(
    {
      method: "post",
      path: "/auth/password-reset",
      authorization: "public",
      body: { schema: PasswordResetRequest, hint: BODY_HINT.reset },
      docs: {
        operationId: "resetPassword",
        tags: ["Dashboard sessions"],
        summary: "Set a password with a reset link",
        description:
          "The token of a link from `pnpm accounts reset-link` (valid once, 1 hour by default). Every session of the user ends; sign in afterwards. Throttled per client address.",
        headers: withoutSession,
        responses: {
          "204": sessionNoContent("The password is set."),
          ...sessionErrors(400, 403, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ body, req, res }) => {
      assertNotForeign(req);
      await throttle.attempt(req, res);
      await accounts.resetPassword(body);
      res.status(204).end();
    },
  ),

  route(
    {
      method: "get",
      path: "/auth/invitations/:token",
      authorization: "public",
      params: { schema: InvitationTokenParam, hint: "Use the token of the invitation link, after #token=." },
      docs: {
        operationId: "getInvitation",
        tags: ["Dashboard sessions"],
        summary: "The email an invitation is for",
        description: "For the accept-invitation page. An unknown, used or expired invitation is 404.",
        responses: {
          "200": sessionAnswer("The invitation.", InvitationView),
          ...sessionErrors(400, 404, 405, 500, 503),
        },
      },
    },
    async ({ params }) => {
      const email = await accounts.invitationEmail(params.token);
      if (!email) {
        throw new AppError(
          "not_found",
          "No open invitation with this token: it is unknown, already used or expired",
          "Ask the operator for a new invitation link.",
        );
      }
      return { email };
    },
  ),
];
