import type { Db } from "@scan/db";
import { createOneTimeLinks } from "@scan/gateway";
import { freshAddress } from "./accounts-api";
import { type ApiResponse, api } from "./stack";

/** The session cookie's name, as the contract (docs/authentication.md) names it. */
export const SESSION_COOKIE = "scan_session";

/** A Set-Cookie line taken apart: the value, and the attributes by lower-cased name. */
export type SetCookie = { name: string; value: string; attributes: Map<string, string> };

export const setCookies = (response: ApiResponse): SetCookie[] =>
  response.headers.getSetCookie().map((line) => {
    const [pair = "", ...rest] = line.split(";").map((part) => part.trim());
    const equals = pair.indexOf("=");
    const attributes = new Map<string, string>();
    for (const attribute of rest) {
      const at = attribute.indexOf("=");
      attributes.set(
        (at === -1 ? attribute : attribute.slice(0, at)).toLowerCase(),
        at === -1 ? "" : attribute.slice(at + 1),
      );
    }
    return { name: pair.slice(0, equals), value: pair.slice(equals + 1), attributes };
  });

export type BrowserInit = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** false: send no Origin header */
  origin?: string | false;
  /** false: send no X-CSRF-Token even when the browser knows one */
  csrf?: boolean;
};

/**
 * A browser's view of the gateway, as the dashboard's pages have it: it keeps the session
 * cookie the gateway sets, sends it back with the page's Origin, and the CSRF token it was
 * given, from one client address (through the test stack's trusted proxy).
 */
export class Browser {
  cookie: string | null = null;
  csrfToken: string | null = null;
  readonly from = freshAddress();

  constructor(private readonly base: string) {}

  async send(path: string, init: BrowserInit = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { "x-forwarded-for": this.from };
    if (init.origin !== false) headers.origin = init.origin ?? this.base;
    if (this.cookie) headers.cookie = `${SESSION_COOKIE}=${this.cookie}`;
    if (this.csrfToken && init.csrf !== false) headers["x-csrf-token"] = this.csrfToken;
    const response = await api(this.base, path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      ...(init.body === undefined ? {} : { body: init.body }),
      headers: { ...headers, ...init.headers },
    });
    for (const cookie of setCookies(response)) {
      if (cookie.name !== SESSION_COOKIE) continue;
      this.cookie = cookie.value === "" ? null : cookie.value;
    }
    const data = (response.body as { data?: { csrfToken?: string } } | undefined)?.data;
    if (typeof data?.csrfToken === "string") this.csrfToken = data.csrfToken;
    return response;
  }

  signUp(email: string, password: string, invitation?: string) {
    return this.send("/auth/sign-up", { body: { email, password, ...(invitation ? { invitation } : {}) } });
  }

  signIn(email: string, password: string) {
    return this.send("/auth/sign-in", { body: { email, password } });
  }

  /** A JWT of the session, from POST /auth/token. */
  async token(): Promise<string> {
    const response = await this.send("/auth/token", { method: "POST" });
    if (response.status !== 200) throw new Error(`POST /auth/token answered ${response.status}`);
    return (response.body as { data: { token: string } }).data.token;
  }
}

/** An invitation link's token, made as the accounts CLI makes it. */
export const invitationToken = async (db: Db, email: string, role: "member" | "operator" = "member") => {
  const link = await createOneTimeLinks({ db, publicUrl: "http://127.0.0.1" }).invite(email, {
    plan: "starter",
    role,
    lifetimeS: 3_600,
  });
  return link.token;
};

let emails = 0;
export const freshEmail = (label = "user") => {
  emails += 1;
  return `${label}-${Date.now().toString(36)}-${emails}@example.com`;
};

export const PASSWORD = "correct horse battery staple";
