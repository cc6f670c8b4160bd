import { z } from "zod";

/**
 * Every error the API can answer, with its HTTP status and its code in each envelope form.
 * Form A codes are docs/spec/public-scanning-api.md §7.1's, Form B codes §7.2's; the rows it does not list
 * (method_not_allowed, not_acceptable, scan_not_finished, checks_pruned, request_timeout, payload_too_large,
 * uri_too_long, unsupported_media_type, headers_too_large, service_unavailable, the Idempotency-Key
 * refusals, and Form B's NOT_FOUND, READ_ONLY_KEY, FORBIDDEN, HTTPS_REQUIRED, UPSTREAM_FAILURE)
 * follow the same naming and are documented in docs/api.md (Errors).
 */
export const ERROR_TABLE = {
  invalid_request: { status: 400, a: "invalid_request", b: "VALIDATION_ERROR" },
  invalid_json: { status: 400, a: "invalid_request", b: "INVALID_JSON" },
  unauthenticated: { status: 401, a: "unauthenticated", b: "INVALID_API_KEY" },
  forbidden: { status: 403, a: "forbidden", b: "FORBIDDEN" },
  plan_limit: { status: 403, a: "forbidden", b: "PLAN_LIMIT" },
  https_required: { status: 403, a: "forbidden", b: "HTTPS_REQUIRED" },
  read_only_key: { status: 403, a: "forbidden", b: "READ_ONLY_KEY" },
  not_found: { status: 404, a: "not_found", b: "NOT_FOUND" },
  method_not_allowed: { status: 405, a: "method_not_allowed", b: "METHOD_NOT_ALLOWED" },
  not_acceptable: { status: 406, a: "not_acceptable", b: "NOT_ACCEPTABLE" },
  request_timeout: { status: 408, a: "request_timeout", b: "REQUEST_TIMEOUT" },
  scan_not_finished: { status: 409, a: "conflict", b: "SCAN_NOT_FINISHED" },
  checks_pruned: { status: 410, a: "gone", b: "CHECKS_PRUNED" },
  conflict: { status: 409, a: "conflict", b: "CONFLICT" },
  idempotency_key_in_use: { status: 409, a: "idempotency_key_in_use", b: "IDEMPOTENCY_KEY_IN_USE" },
  payload_too_large: { status: 413, a: "payload_too_large", b: "PAYLOAD_TOO_LARGE" },
  uri_too_long: { status: 414, a: "uri_too_long", b: "URI_TOO_LONG" },
  unsupported_media_type: { status: 415, a: "unsupported_media_type", b: "UNSUPPORTED_MEDIA_TYPE" },
  idempotency_key_reused: { status: 422, a: "idempotency_key_reused", b: "IDEMPOTENCY_KEY_REUSED" },
  rate_limited: { status: 429, a: "rate_limited", b: "RATE_LIMITED" },
  headers_too_large: { status: 431, a: "headers_too_large", b: "HEADERS_TOO_LARGE" },
  internal_error: { status: 500, a: "internal_error", b: "INTERNAL_ERROR" },
  upstream_failure: { status: 502, a: "upstream_failure", b: "UPSTREAM_FAILURE" },
  service_unavailable: { status: 503, a: "service_unavailable", b: "SERVICE_UNAVAILABLE" },
} as const;

export type ErrorKind = keyof typeof ERROR_TABLE;
export const ErrorKind = z.enum(Object.keys(ERROR_TABLE) as [ErrorKind, ...ErrorKind[]]);

/** The one error type the services throw; the error middleware renders it in either form. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly hint: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(kind: ErrorKind, message: string, hint = "", headers: Record<string, string> = {}) {
    super(message);
    this.name = "AppError";
    this.kind = kind;
    this.hint = hint;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_TABLE[this.kind].status;
  }
}

/** Names the first few failing fields of a zod error, for a message a caller can act on. */
export const describeZodError = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join(".") : "body";
      return `${path}: ${issue.message}`;
    })
    .join("; ");

export const validationError = (error: z.ZodError, hint = ""): AppError =>
  new AppError("invalid_request", describeZodError(error), hint);
