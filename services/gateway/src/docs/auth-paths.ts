import {
  ERROR_TABLE,
  type ErrorKind,
  formAError,
  formASuccess,
  InvitationTokenParam,
  InvitationView,
  PasswordChangeRequest,
  PasswordResetRequest,
  RequestMeta,
  SessionTokenView,
  SessionView,
  SignInRequest,
  SignUpRequest,
} from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { ERROR_WHEN, type ErrorStatus, jsonBody, RetryAfter, security, serviceHeaders } from "./common";

/**
 * The dashboard's session endpoints under /auth (docs/authentication.md, Dashboard sign-in
 * and sessions): outside /api/v1, always in Form A, never cached.
 */

const CSRF = z.string().meta({
  description: "The session's `csrfToken` (GET /auth/session): every change made with the session carries it.",
  param: { id: "X-CSRF-Token" },
});
const ORIGIN = z
  .string()
  .optional()
  .meta({
    description:
      "Sent by browsers. With the session, it (or `Referer`) must be this gateway's own origin; without one, a foreign origin is refused.",
    param: { id: "Origin" },
  });

const NoStore = z.literal("no-store").meta({ description: "Nothing of the session endpoints is cached." });
const SetCookie = z.string().meta({
  description:
    "`scan_session=<secret>; Path=/; HttpOnly; SameSite=Lax[; Secure]; Expires=<the session's absolute end>` (Secure unless the gateway is reached on loopback over HTTP); cleared with `Max-Age=0`.",
});
const RateHeader = (description: string) => z.int().nonnegative().optional().meta({ description });
/** The throttled endpoints show the sign-in throttle's counter, the others the address's counter, as every response does. */
const rateHeaders = {
  "X-RateLimit-Limit": RateHeader("Attempts allowed in the throttle's window (the stricter of address and account)."),
  "X-RateLimit-Remaining": RateHeader("Attempts left in that window."),
  "X-RateLimit-Reset": RateHeader("When the window resets, in Unix epoch seconds."),
};
const headersOf = (extra: Record<string, z.ZodType> = {}) =>
  z.object({ ...serviceHeaders, "Cache-Control": NoStore, ...rateHeaders, ...extra });

const KINDS = Object.keys(ERROR_TABLE) as ErrorKind[];

const errorOf = (status: ErrorStatus): ZodOpenApiResponseObject => {
  const kinds = KINDS.filter((kind) => ERROR_TABLE[kind].status === status);
  const codes = [...new Set(kinds.map((kind) => ERROR_TABLE[kind].a))] as [string, ...string[]];
  const rows = kinds.map((kind) => `- \`${ERROR_TABLE[kind].a}\`: ${ERROR_WHEN[kind]}`);
  return {
    id: `SessionError${status}`,
    description: `In Form A:\n\n${rows.join("\n")}`,
    headers: headersOf(status === 429 || status === 503 ? { "Retry-After": RetryAfter } : {}),
    content: { "application/json": { schema: formAError(codes) } },
  };
};

// one object per component: the document refers to it wherever it applies
const made = new Map<ErrorStatus, ZodOpenApiResponseObject>();
const errors = (...statuses: ErrorStatus[]): Record<string, ZodOpenApiResponseObject> =>
  Object.fromEntries(
    statuses.map((status) => {
      const response = made.get(status) ?? errorOf(status);
      made.set(status, response);
      return [String(status), response];
    }),
  );

const ok = (description: string, data: z.ZodType, extra: Record<string, z.ZodType> = {}): ZodOpenApiResponseObject => ({
  description,
  headers: headersOf(extra),
  content: { "application/json": { schema: formASuccess(data, RequestMeta) } },
});

const noContent = (description: string, extra: Record<string, z.ZodType> = {}): ZodOpenApiResponseObject => ({
  description,
  headers: headersOf(extra),
});

const withSession = z.object({ "X-CSRF-Token": CSRF, Origin: ORIGIN });
const withoutSession = z.object({ Origin: ORIGIN });
const TAG = ["Dashboard sessions"];

export const authPaths: ZodOpenApiPathsObject = {
  "/auth/sign-up": {
    post: {
      operationId: "signUp",
      tags: TAG,
      summary: "Make an account and sign in",
      description:
        "Open to anyone with `SIGN_UP=open`; by invitation only with `SIGN_UP=invite` (the default), where `invitation` is the token of a link from `pnpm accounts invite` and `email` must be the invited one. The password has 12 to 256 characters. The email is normalised (Unicode NFKC, lower case, no trailing dot on the domain), so a look-alike of an address that already has an account is that address; one that has an account is 400 with a message that does not say so outright, and one holding an invisible character (zero-width, bidi control, soft hyphen, ...) is 400 naming it (see docs/authentication.md). Throttled per client address like sign-in. A session cookie the browser held is ended.",
      security: security.none,
      requestParams: { header: withoutSession },
      requestBody: jsonBody(SignUpRequest),
      responses: {
        "201": ok("The account is made and signed in: the session, with its CSRF token.", SessionView, {
          "Set-Cookie": SetCookie,
        }),
        ...errors(400, 403, 405, 413, 429, 500, 503),
      },
    },
  },
  "/auth/sign-in": {
    post: {
      operationId: "signIn",
      tags: TAG,
      summary: "Sign in",
      description:
        "A new session every time (the one the browser held, if any, is ended). A wrong password and an unknown email get the same 401. Throttled per client address and per account (`SIGN_IN_LIMIT_*`, with the API's X-RateLimit-* headers and `Retry-After` on 429); a successful sign-in clears the account's count.",
      security: security.none,
      requestParams: { header: withoutSession },
      requestBody: jsonBody(SignInRequest),
      responses: {
        "200": ok("Signed in: the session, with its CSRF token.", SessionView, { "Set-Cookie": SetCookie }),
        ...errors(400, 401, 403, 405, 413, 429, 500, 503),
      },
    },
  },
  "/auth/sign-out": {
    post: {
      operationId: "signOut",
      tags: TAG,
      summary: "Sign out",
      description:
        "Ends the session (its JWTs are refused from then on) and clears the cookie. Without a live session it only clears the cookie.",
      security: security.session,
      requestParams: { header: withSession },
      responses: {
        "204": noContent("Signed out.", { "Set-Cookie": SetCookie }),
        ...errors(403, 405, 500, 503),
      },
    },
  },
  "/auth/session": {
    get: {
      operationId: "getSession",
      tags: TAG,
      summary: "The signed-in user and the CSRF token",
      description: "Records the session's use (to the minute), which keeps it from its idle end.",
      security: security.session,
      responses: {
        "200": ok("The session.", SessionView),
        ...errors(401, 405, 500, 503),
      },
    },
  },
  "/auth/token": {
    post: {
      operationId: "issueSessionToken",
      tags: TAG,
      summary: "A short-lived JWT for /api/v1",
      description:
        "Signed with the deployment's JWT key (issuer and audience as configured), `sub` the user's id and `sid` the session's; it lives `USER_TOKEN_TTL_S` (5 minutes by default), never past the session's absolute end, and is refused as soon as the session ends. Keep it in memory and ask again before `expiresAt`. 503 under RS256 without `JWT_PRIVATE_KEY`.",
      security: security.session,
      requestParams: { header: withSession },
      responses: {
        "200": ok("The token.", SessionTokenView),
        ...errors(401, 403, 405, 500, 503),
      },
    },
  },
  "/auth/password": {
    post: {
      operationId: "changePassword",
      tags: TAG,
      summary: "Change the password",
      description:
        "Checks the current password (throttled per account like sign-in), sets the new one, ends every other session of the user and rotates this one: the answer sets a new cookie, so read the new CSRF token from GET /auth/session.",
      security: security.session,
      requestParams: { header: withSession },
      requestBody: jsonBody(PasswordChangeRequest),
      responses: {
        "204": noContent("Changed; this browser holds a new session.", { "Set-Cookie": SetCookie }),
        ...errors(400, 401, 403, 405, 413, 429, 500, 503),
      },
    },
  },
  "/auth/password-reset": {
    post: {
      operationId: "resetPassword",
      tags: TAG,
      summary: "Set a password with a reset link",
      description:
        "The token of a link from `pnpm accounts reset-link` (valid once, 1 hour by default). Every session of the user ends; sign in afterwards. Throttled per client address.",
      security: security.none,
      requestParams: { header: withoutSession },
      requestBody: jsonBody(PasswordResetRequest),
      responses: {
        "204": noContent("The password is set."),
        ...errors(400, 403, 405, 413, 429, 500, 503),
      },
    },
  },
  "/auth/invitations/{token}": {
    get: {
      operationId: "getInvitation",
      tags: TAG,
      summary: "The email an invitation is for",
      description: "For the accept-invitation page. An unknown, used or expired invitation is 404.",
      security: security.none,
      requestParams: { path: InvitationTokenParam },
      responses: {
        "200": ok("The invitation.", InvitationView),
        ...errors(400, 404, 405, 500, 503),
      },
    },
  },
};
