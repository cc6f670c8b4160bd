import {
  AppError,
  InvitationTokenParam,
  PasswordChangeRequest,
  PasswordResetRequest,
  type SessionTokenView,
  type SessionView,
  SignInRequest,
  SignUpRequest,
} from "@scan/contract";
import type { Request, Response } from "express";
import type { AccountService } from "../domain/account-service";
import { csrfTokenOf, type LiveSession, type SessionService, type StartedSession } from "../domain/session-service";
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
import type { SignInThrottle } from "../http/sign-in-throttle";

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
  user: { id: session.user.id, email: session.user.email, role: session.user.role, plan: session.user.plan },
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

  route({ method: "post", path: "/auth/sign-out", authorization: "public" }, async ({ req, res }) => {
    const current = await currentSession(sessions, req);
    if (current) {
      assertSameSite(req, current.secret);
      await sessions.revoke(current.session.id);
    }
    clearSessionCookie(req, res);
    res.status(204).end();
  }),

  route({ method: "get", path: "/auth/session", authorization: "public" }, async ({ req, res }) => {
    const current = await currentSession(sessions, req);
    if (!current) {
      clearSessionCookie(req, res);
      throw noSession();
    }
    return view(current.session, current.secret);
  }),

  route({ method: "post", path: "/auth/token", authorization: "public" }, async ({ req }) => {
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
  }),

  route(
    {
      method: "post",
      path: "/auth/password",
      authorization: "public",
      body: { schema: PasswordChangeRequest, hint: BODY_HINT.password },
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
