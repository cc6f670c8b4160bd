import { createScanClient, type ScanClient } from "@scan/client";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";
import * as auth from "./auth";

/**
 * Who is signed in, and the API client that speaks for them. The session lives in the
 * gateway's HttpOnly cookie; the API is called with a short-lived JWT that POST /auth/token
 * issues for the session, held in memory only and renewed before it expires. A 401 from the
 * API or from /auth/token means the session is over (expired, revoked, signed out elsewhere):
 * the user is sent back to sign in.
 */

export type SessionState =
  | { status: "loading" }
  | { status: "signed-out"; reason: string | null }
  | { status: "signed-in"; user: auth.User; expiresAt: string };

type SessionValue = {
  state: SessionState;
  api: ScanClient;
  /** after a sign-in or sign-up: reads the new session */
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
  /** the session ended on the server: back to sign-in, saying so */
  ended: (reason: string) => void;
};

const SessionContext = createContext<SessionValue | null>(null);

export const ENDED = "Your session has ended. Sign in again to go on.";

// renew a JWT this long before it expires
const RENEW_MARGIN_MS = 30_000;

export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<SessionState>({ status: "loading" });

  const value = useMemo(() => {
    let jwt: { token: string; expiresAtMs: number } | null = null;
    let issuing: Promise<string | null> | null = null;

    const ended = (reason: string) => {
      jwt = null;
      auth.rememberCsrf(null);
      setState((previous) => (previous.status === "signed-out" ? previous : { status: "signed-out", reason }));
    };

    const token = (): Promise<string | null> => {
      if (jwt && jwt.expiresAtMs - Date.now() > RENEW_MARGIN_MS) return Promise.resolve(jwt.token);
      issuing ??= auth
        .issueToken()
        .then((result) => {
          if (result.ok) {
            jwt = { token: result.data.token, expiresAtMs: Date.parse(result.data.expiresAt) };
            return jwt.token;
          }
          if (result.problem.status === 401 || result.problem.status === 403) ended(ENDED);
          return null;
        })
        .finally(() => {
          issuing = null;
        });
      return issuing;
    };

    const api = createScanClient({ token });
    api.use({
      onResponse: ({ response }) => {
        if (response.status === 401) ended(ENDED);
        return response;
      },
    });

    const refresh = async () => {
      const result = await auth.readSession();
      if (result.ok) {
        auth.rememberCsrf(result.data.csrfToken);
        jwt = null;
        setState({ status: "signed-in", user: result.data.user, expiresAt: result.data.expiresAt });
      } else {
        auth.rememberCsrf(null);
        setState({ status: "signed-out", reason: result.problem.status === 401 ? null : result.problem.message });
      }
    };

    const signOut = async () => {
      await auth.signOut();
      jwt = null;
      auth.rememberCsrf(null);
      setState({ status: "signed-out", reason: "You have signed out." });
    };

    return { api, refresh, signOut, ended };
  }, []);

  useEffect(() => {
    void value.refresh();
  }, [value]);

  return <SessionContext.Provider value={{ ...value, state }}>{children}</SessionContext.Provider>;
};

export const useSession = (): SessionValue => {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
};

/** The signed-in user; only inside pages that require one. */
export const useUser = (): auth.User => {
  const { state } = useSession();
  if (state.status !== "signed-in") throw new Error("useUser without a signed-in user");
  return state.user;
};

export const useApi = (): ScanClient => useSession().api;
