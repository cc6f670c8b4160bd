import { ERROR_TABLE, type ErrorKind, formAError, formASuccess, RequestMeta } from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import { ERROR_WHEN, type ErrorStatus, RetryAfter, serviceHeaders } from "./common";

/**
 * The shared pieces of the dashboard's session endpoints under /auth (their operations are on
 * routes/auth.route.ts) (docs/authentication.md, Dashboard sign-in
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
export const SetCookie = z.string().meta({
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
export const sessionErrors = (...statuses: ErrorStatus[]): Record<string, ZodOpenApiResponseObject> =>
  Object.fromEntries(
    statuses.map((status) => {
      const response = made.get(status) ?? errorOf(status);
      made.set(status, response);
      return [String(status), response];
    }),
  );

export const sessionAnswer = (
  description: string,
  data: z.ZodType,
  extra: Record<string, z.ZodType> = {},
): ZodOpenApiResponseObject => ({
  description,
  headers: headersOf(extra),
  content: { "application/json": { schema: formASuccess(data, RequestMeta) } },
});

export const sessionNoContent = (
  description: string,
  extra: Record<string, z.ZodType> = {},
): ZodOpenApiResponseObject => ({
  description,
  headers: headersOf(extra),
});

export const withSession = z.object({ "X-CSRF-Token": CSRF, Origin: ORIGIN });
export const withoutSession = z.object({ Origin: ORIGIN });
