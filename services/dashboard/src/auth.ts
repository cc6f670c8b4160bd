/**
 * The gateway's session endpoints (/auth/*, Form A envelopes, outside the versioned API): the
 * session cookie goes with every call (same origin), and each POST carries the session's CSRF
 * token, which the gateway wants on every state-changing request made with the cookie.
 */

export type Role = "member" | "operator";
export type User = { id: string; email: string; role: Role; plan: string };
export type SessionInfo = { user: User; csrfToken: string; expiresAt: string };

export type AuthProblem = {
  status: number;
  code: string;
  message: string;
  hint: string | null;
  retryAfterS: number | null;
};
export type AuthResult<T> = { ok: true; data: T } | { ok: false; problem: AuthProblem };

let csrfToken: string | null = null;

/** The CSRF token of the current session, from GET /auth/session or the sign-in answer. */
export const rememberCsrf = (token: string | null) => {
  csrfToken = token;
};

const problemOf = async (response: Response): Promise<AuthProblem> => {
  const retry = Number(response.headers.get("Retry-After"));
  const base = { status: response.status, retryAfterS: Number.isFinite(retry) && retry > 0 ? retry : null };
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; hint?: string } };
    return {
      ...base,
      code: body.error?.code ?? "unknown",
      message: body.error?.message ?? `The server answered ${response.status}.`,
      hint: body.error?.hint ?? null,
    };
  } catch {
    return { ...base, code: "unknown", message: `The server answered ${response.status}.`, hint: null };
  }
};

export const authCall = async <T = undefined>(
  path: string,
  { method = "POST", body }: { method?: "GET" | "POST"; body?: unknown } = {},
): Promise<AuthResult<T>> => {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return {
      ok: false,
      problem: {
        status: 0,
        code: "network",
        message: "The server could not be reached.",
        hint: "Check your connection and that the service is running, then try again.",
        retryAfterS: null,
      },
    };
  }
  if (!response.ok) return { ok: false, problem: await problemOf(response) };
  if (response.status === 204) return { ok: true, data: undefined as T };
  const envelope = (await response.json()) as { data: T };
  return { ok: true, data: envelope.data };
};

export const readSession = () => authCall<SessionInfo>("/auth/session", { method: "GET" });
export const signIn = (email: string, password: string) =>
  authCall<{ user: User; csrfToken?: string }>("/auth/sign-in", { body: { email, password } });
export const signUp = (email: string, password: string, invitation?: string) =>
  authCall<{ user: User; csrfToken?: string }>("/auth/sign-up", {
    body: { email, password, ...(invitation ? { invitation } : {}) },
  });
export const signOut = () => authCall("/auth/sign-out");
export const issueToken = () => authCall<{ token: string; expiresAt: string }>("/auth/token");
export const changePassword = (currentPassword: string, newPassword: string) =>
  authCall("/auth/password", { body: { currentPassword, newPassword } });
export const resetPassword = (token: string, password: string) =>
  authCall("/auth/password-reset", { body: { token, password } });
export const readInvitation = (token: string) =>
  authCall<{ email: string }>(`/auth/invitations/${encodeURIComponent(token)}`, { method: "GET" });
