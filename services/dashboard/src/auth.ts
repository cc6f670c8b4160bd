import { type ApiProblem, type components, createScanClient, problemOf } from "@scan/client";

/**
 * The gateway's session endpoints (/auth/*, Form A envelopes, outside the versioned API), through
 * the same typed client as the API: the session cookie goes with every call (same origin), and
 * sign-out, the token and the password change carry the session's CSRF token, which the gateway
 * wants on every change made with the cookie (besides this origin in `Origin`, which the browser
 * sends).
 */

export type SessionInfo = components["schemas"]["SessionView"];
export type User = SessionInfo["user"];
export type Role = User["role"];

export type AuthProblem = ApiProblem;
export type AuthResult<T> = { ok: true; data: T } | { ok: false; problem: AuthProblem };

let csrfToken: string | null = null;

/** The CSRF token of the current session, from GET /auth/session or the sign-in answer. */
export const rememberCsrf = (token: string | null) => {
  csrfToken = token;
};

const client = createScanClient();

/** The header the session's changes carry (the document requires it on those three endpoints). */
const csrf = () => ({ header: { "X-CSRF-Token": csrfToken ?? "" } });

const NETWORK: AuthProblem = {
  status: 0,
  code: "network",
  message: "The server could not be reached.",
  hint: "Check your connection and that the service is running, then try again.",
  retryAfterS: null,
};

/** A call's answer as `{ok, data}` (the envelope's data) or `{ok: false, problem}`; never throws. */
const settle = async <T>(
  call: () => Promise<{ data?: { data: T } | undefined; error?: unknown; response: Response }>,
): Promise<AuthResult<T>> => {
  try {
    const { data, error, response } = await call();
    if (!response.ok) return { ok: false, problem: problemOf(response, error) };
    return { ok: true, data: data?.data as T };
  } catch {
    return { ok: false, problem: NETWORK };
  }
};

/** 204 answers carry no envelope: success is the status alone. */
const settleEmpty = async (
  call: () => Promise<{ error?: unknown; response: Response }>,
): Promise<AuthResult<undefined>> => {
  try {
    const { error, response } = await call();
    return response.ok ? { ok: true, data: undefined } : { ok: false, problem: problemOf(response, error) };
  } catch {
    return { ok: false, problem: NETWORK };
  }
};

export const readSession = () => settle(() => client.GET("/auth/session", {}));
export const signIn = (email: string, password: string) =>
  settle(() => client.POST("/auth/sign-in", { body: { email, password } }));
export const signUp = (email: string, password: string, invitation?: string) =>
  settle(() => client.POST("/auth/sign-up", { body: { email, password, ...(invitation ? { invitation } : {}) } }));
export const signOut = () => settleEmpty(() => client.POST("/auth/sign-out", { params: csrf() }));
export const issueToken = () => settle(() => client.POST("/auth/token", { params: csrf() }));
export const changePassword = (currentPassword: string, newPassword: string) =>
  settleEmpty(() => client.POST("/auth/password", { params: csrf(), body: { currentPassword, newPassword } }));
export const resetPassword = (token: string, password: string) =>
  settleEmpty(() => client.POST("/auth/password-reset", { body: { token, password } }));
export const readInvitation = (token: string) =>
  settle(() => client.GET("/auth/invitations/{token}", { params: { path: { token } } }));
