import { AppError } from "@scan/contract";
import type { Request, Response } from "express";
import ipaddr from "ipaddr.js";
import type { UserCaller } from "../access/authenticate";
import { csrfTokenMatches, type LiveSession, type SessionService } from "../access/session-service";

/** The dashboard session's cookie. */
export const SESSION_COOKIE = "scan_session";
/** The header a state-changing /auth request made with the session carries its CSRF token in. */
export const CSRF_HEADER = "X-CSRF-Token";

/** A session secret as the cookie carries it: base64url, 43 characters. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Every value of the session cookie the request carries (a browser may send more than one: other paths, a sibling domain). */
export const sessionCookies = (req: Request): string[] => {
  const header = req.get("cookie");
  if (!header) return [];
  return header
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${SESSION_COOKIE}=`))
    .map((pair) => pair.slice(SESSION_COOKIE.length + 1).trim())
    .filter((value) => SECRET.test(value));
};

/** Whether the host the browser asked for is this machine itself (`localhost`, 127.0.0.0/8, ::1). */
export const isLoopbackHost = (hostname: string | undefined): boolean => {
  if (!hostname) return false;
  const name = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(name)) return false;
  const address = ipaddr.process(name);
  return address.range() === "loopback";
};

/**
 * `Secure` unless the page is on loopback over plain HTTP (a newcomer's http://127.0.0.1:3000,
 * where browsers keep the cookie anyway): a gateway reached by any other name is behind TLS,
 * or should be. Behind a proxy, TRUST_PROXY makes X-Forwarded-Proto and X-Forwarded-Host count.
 */
const secureFor = (req: Request): boolean => req.secure || !isLoopbackHost(req.hostname);

const cookieAttributes = (req: Request): string => `Path=/; HttpOnly; SameSite=Lax${secureFor(req) ? "; Secure" : ""}`;

export const setSessionCookie = (req: Request, res: Response, secret: string, expiresAt: Date): void => {
  res.append("Set-Cookie", `${SESSION_COOKIE}=${secret}; ${cookieAttributes(req)}; Expires=${expiresAt.toUTCString()}`);
};

export const clearSessionCookie = (req: Request, res: Response): void => {
  res.append("Set-Cookie", `${SESSION_COOKIE}=; ${cookieAttributes(req)}; Max-Age=0`);
};

/** The origin the request came from as the browser names it: Origin, else Referer's origin; undefined with neither. */
const originOf = (req: Request): string | undefined => {
  // an opaque origin ("null": a sandboxed frame, a file) is never this gateway's
  const origin = req.get("origin");
  if (origin) return origin;
  const referer = req.get("referer");
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
};

/** This gateway's origin as the browser reached it (X-Forwarded-* count under TRUST_PROXY). */
const ownOrigin = (req: Request): string => `${req.protocol}://${req.host ?? ""}`.toLowerCase();

const foreignOrigin = () =>
  new AppError(
    "forbidden",
    "The request comes from another origin than this gateway's",
    "Use the dashboard on this gateway's own address.",
  );

/**
 * Refuses a request whose Origin (or Referer) names another site. A request that names none
 * passes: browsers name it on every cross-site POST, and a client with no browser carries no
 * cookie it did not set itself.
 */
export const assertNotForeign = (req: Request): void => {
  const origin = originOf(req);
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(req)) throw foreignOrigin();
};

/**
 * The CSRF defence of a state-changing request made with a session: the session's CSRF token
 * in X-CSRF-Token, and an Origin (or Referer) that is this gateway's own.
 */
export const assertSameSite = (req: Request, secret: string): void => {
  const token = req.get(CSRF_HEADER);
  if (!token) {
    throw new AppError(
      "forbidden",
      `The ${CSRF_HEADER} header is missing`,
      `Send the csrfToken of GET /auth/session as ${CSRF_HEADER} with every change made with the session.`,
    );
  }
  if (!csrfTokenMatches(secret, token)) {
    throw new AppError(
      "forbidden",
      `The ${CSRF_HEADER} header does not match this session`,
      "Read a fresh csrfToken from GET /auth/session: it changes with every sign-in.",
    );
  }
  const origin = originOf(req);
  if (origin === undefined) {
    throw new AppError(
      "forbidden",
      "The request names no Origin or Referer",
      "Changes made with the session must come from the dashboard's pages, whose browser sends Origin.",
    );
  }
  if (origin.toLowerCase() !== ownOrigin(req)) throw foreignOrigin();
};

export type CurrentSession = { session: LiveSession; secret: string };

/** The request's live session, if its cookie names one (the first live one of several). */
export const currentSession = async (sessions: SessionService, req: Request): Promise<CurrentSession | null> => {
  for (const secret of sessionCookies(req)) {
    const session = await sessions.resume(secret);
    if (session) return { session, secret };
  }
  return null;
};

export const noSession = () =>
  new AppError("unauthenticated", "You are not signed in, or your session has ended", "Sign in again.");

/**
 * The signed-in user of the request's session cookie, as the API sees a session's JWT: for the
 * endpoints a browser reaches without our headers (the progress streams). Null without a live session.
 */
export const sessionCallerOf =
  (sessions: SessionService) =>
  async (req: Request): Promise<UserCaller | null> => {
    const current = await currentSession(sessions, req);
    if (!current) return null;
    const { session } = current;
    return {
      kind: "user",
      userId: session.user.id,
      workspaceId: session.workspace.id,
      workspaceRole: session.workspace.role,
      plan: session.workspace.plan,
      role: session.user.role,
      claims: { sub: session.user.id, exp: Math.floor(session.endsAt.getTime() / 1000), sid: session.id },
      sessionId: session.id,
    };
  };
