import { AppError } from "@scan/contract";
import type { Request, RequestHandler } from "express";
import { API_PREFIX } from "./route";

declare global {
  namespace Express {
    interface Locals {
      /** a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method), and whether its origin is allowed */
      preflight?: { origin: string; allowed: boolean };
    }
  }
}

/** The request headers a page may send: everything the API and the tool server read. */
export const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "X-API-Key",
  "Content-Type",
  "Content-Encoding",
  "Idempotency-Key",
  "If-None-Match",
  "Prefer",
  "X-Response-Form",
  "X-Request-Id",
  "Mcp-Protocol-Version",
  "Mcp-Session-Id",
  "Last-Event-ID",
];

/** The response headers a page may read, beyond the few every browser shows (Content-Type, Cache-Control...). */
export const CORS_EXPOSED_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "ETag",
  "Link",
  "Location",
  "X-Request-Id",
  "Idempotent-Replayed",
  "Preference-Applied",
  "Allow",
  "WWW-Authenticate",
  "Mcp-Session-Id",
];

/** Every method a path of the API or the tool server serves: one answer for every path, so preflights probe nothing. */
const METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";

/** How long a browser may reuse a preflight's answer (Chromium caps it at 7,200 s): a removed origin loses access within it. */
const MAX_AGE_S = 600;

/** The REST API and the tool server: what a web page may call. Probes, metrics and the dashboard are not for pages. */
const inScope = (path: string): boolean => {
  const lower = path.toLowerCase();
  return lower === API_PREFIX || lower.startsWith(`${API_PREFIX}/`) || lower === "/mcp" || lower.startsWith("/mcp/");
};

export const isPreflight = (req: Request): boolean =>
  req.method === "OPTIONS" && req.get("origin") !== undefined && req.get("access-control-request-method") !== undefined;

export type CorsOptions = {
  /** exact origins (`https://app.example.com`), or `*` for any; empty: none */
  origins: readonly string[];
};

/**
 * CORS for the API and the tool server (Fetch standard), in two steps around the access
 * middleware. `corsHeaders` runs first: an allowed origin gets `Access-Control-Allow-Origin`
 * (its own origin, never `*`, and no `Allow-Credentials`: the API uses no cookies) and the
 * exposed headers on every answer, errors and 429s included, so a page can read them; with
 * any origin configured, every answer varies by `Origin`. A preflight is only marked here: it
 * carries no credentials and does no work, so the access middleware neither authenticates nor
 * counts it. `answerPreflights` runs once the rate-limit headers have been read: 204 with the
 * methods and headers for an allowed origin, else 403 in the request's envelope and no CORS
 * header (the browser refuses the call either way; the 403 says why to whoever looks).
 */
export const createCors = ({ origins }: CorsOptions) => {
  const any = origins.includes("*");
  const allowed = new Set(origins);
  const allows = (origin: string): boolean => origin !== "null" && (any || allowed.has(origin));

  const corsHeaders: RequestHandler = (req, res, next) => {
    if (!inScope(req.path)) return next();
    if (origins.length > 0) res.vary("Origin");
    const origin = req.get("origin");
    if (origin === undefined) return next();
    if (isPreflight(req)) {
      res.locals.preflight = { origin, allowed: allows(origin) };
      return next();
    }
    if (allows(origin)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS.join(", "));
    }
    next();
  };

  const answerPreflights: RequestHandler = (_req, res, next) => {
    const preflight = res.locals.preflight;
    if (!preflight) return next();
    if (!preflight.allowed) {
      throw new AppError(
        "forbidden",
        origins.length === 0
          ? `Browsers may not call this API from other origins (${preflight.origin.slice(0, 200)}): no origin is allowed`
          : `Browsers may not call this API from ${preflight.origin.slice(0, 200)}: the origin is not among the allowed ones`,
        "The operator lists the origins of trusted web pages in CORS_ORIGINS; servers and scripts call the API directly, without CORS.",
      );
    }
    res.setHeader("Access-Control-Allow-Origin", preflight.origin);
    res.setHeader("Access-Control-Allow-Methods", METHODS);
    res.setHeader("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS.join(", "));
    res.setHeader("Access-Control-Max-Age", String(MAX_AGE_S));
    res.status(204).end();
  };

  return { corsHeaders, answerPreflights };
};
