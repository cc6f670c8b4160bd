import {
  ERROR_TABLE,
  type ErrorKind,
  formAError,
  formASuccess,
  formBError,
  formBSuccess,
  PageMeta,
  PageMetaA,
  RequestMeta,
  ResponseForm,
} from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";

/*
 * The pieces every operation of the reference shares: the envelope forms, the error responses
 * (one per status, from the error table), the headers, and the security requirements.
 */

/** When each error is answered: the error table of docs/api.md, beside the codes of ERROR_TABLE. */
export const ERROR_WHEN: Record<ErrorKind, string> = {
  invalid_request:
    "a field or query parameter failed validation, the body is not a JSON object, or an `Idempotency-Key` is empty, longer than 255 characters or not printable ASCII",
  invalid_json: "the body is not valid JSON",
  unauthenticated:
    "missing, invalid or revoked API key; missing or invalid JWT, or one whose dashboard session has ended",
  forbidden:
    "authenticated but not permitted (a workspace viewer's write; a key beyond MAX_KEYS_PER_USER; a member on an operator's endpoint; a session's change without its CSRF token or from another origin)",
  plan_limit:
    "the plan's monthly scan quota is used up, or a number the plan sets is reached (pages of an audit, sites audited on a schedule, competitors per site)",
  read_only_key: "a write (any method but GET, HEAD, OPTIONS) made with a read-only API key",
  https_required:
    "the request came over plain HTTP where HTTPS is required (production); checked before the key, which is neither looked up nor counted",
  not_found: "unknown route, or a resource missing or not the caller's",
  method_not_allowed: "a known path with a method it does not serve; `Allow` lists the methods",
  not_acceptable:
    "`Accept` names no representation the endpoint serves (`GET /api/v1/scan/{id}` and `GET /api/v1/audits/{id}/report`: JSON, CSV, SARIF or JUnit XML); the error itself is JSON",
  scan_not_finished:
    "an export (CSV, SARIF, JUnit) of a scan that is still `queued` or `running`, read it as JSON until it has finished; or the report of an audit still under way, in any format, follow `GET /api/v1/audits/{id}` until it has completed",
  conflict:
    "the change would clash with what is stored: a keyword reworded to words its site already tracks, a prompt or competitor its site has already, or a site deleted while an audit of it is under way",
  checks_pruned:
    "an export (CSV, SARIF, JUnit) of a scan whose check list retention dropped, its scores are still in its JSON; or a SARIF or JUnit export of an audit whose pages' check lists were dropped, its site report is still there as JSON or CSV",
  idempotency_key_in_use:
    "a request with this `Idempotency-Key` is still being answered; retry after `Retry-After` to receive its answer",
  idempotency_key_reused:
    "this `Idempotency-Key` was first sent with another request (another method, path or body); a key names one request",
  request_timeout:
    "the request's headers did not arrive within HEADERS_TIMEOUT_MS, or the whole request within REQUEST_TIMEOUT_MS; the connection is closed",
  payload_too_large: "the body is over BODY_LIMIT_BYTES (100 KiB by default)",
  uri_too_long: "the request's URL is over MAX_URL_BYTES (8 KiB by default)",
  unsupported_media_type:
    "a body in a `Content-Encoding` the server does not decode (it reads `gzip`, `deflate`, `br` and `identity`), or in an unsupported charset",
  headers_too_large: "the request's headers are over MAX_HEADER_BYTES (16 KiB by default)",
  rate_limited: "too many requests in this window; `Retry-After` says how long to wait",
  internal_error: "a bug: the message carries an error id that is in the logs; no cause is ever sent",
  upstream_failure: "the target or the scanner failed",
  service_unavailable: "a dependency (database, queue, rate counters) is down, or no JWT key is configured",
};

const KINDS = Object.keys(ERROR_TABLE) as ErrorKind[];

/** The error table as markdown, for the document's introduction. */
export const errorTable = (): string =>
  [
    "| HTTP | Form A `code` | Form B `code` | when |",
    "|---|---|---|---|",
    ...KINDS.map((kind) => {
      const row = ERROR_TABLE[kind];
      return `| ${row.status} | \`${row.a}\` | \`${row.b}\` | ${ERROR_WHEN[kind]} |`;
    }),
  ].join("\n");

// headers ------------------------------------------------------------------------------------

const header = <T extends z.ZodType>(id: string, schema: T, description: string) =>
  schema.meta({ description, header: { id } });

const RequestIdHeader = header(
  "X-Request-Id",
  z.string(),
  "The request's id: the caller's own `X-Request-Id` when it is 1-100 characters of `[A-Za-z0-9._-]`, else a new UUID. Logged with every line about the request, and carried into the scan's job and callbacks.",
);
const RateLimitLimit = header("X-RateLimit-Limit", z.int().nonnegative(), "Requests allowed in the window.");
const RateLimitRemaining = header(
  "X-RateLimit-Remaining",
  z.int().nonnegative(),
  "Requests left in this window (0 when refused).",
);
const RateLimitReset = header(
  "X-RateLimit-Reset",
  z.int().nonnegative(),
  "When the window resets, in Unix epoch seconds.",
);
export const RetryAfter = header("Retry-After", z.int().positive(), "Seconds to wait before trying again.");
export const AllowHeader = header("Allow", z.string(), "The methods the path serves, e.g. `GET, HEAD`.");
export const LocationHeader = header(
  "Location",
  z.string(),
  "Where to read the scan: `/api/v1/scan/<id>` for a key holder's scan (read with any of the user's keys); for an anonymous scan the same path with `?access=<token>`, the scan's access link, which reads it without a key and is given only to its maker.",
);
export const ContentLocationHeader = header(
  "Content-Location",
  z.string(),
  "Where the stored scan is read again: as `Location` on a 202 (for an anonymous scan, its access link).",
);
export const PreferenceApplied = header(
  "Preference-Applied",
  z.literal("respond-async").optional(),
  "Sent when the request's `Prefer: respond-async` was honoured (RFC 7240).",
);

export const ETagHeader = header(
  "ETag",
  z.string().regex(/^W\/"[A-Za-z0-9_-]+"$/),
  "A weak entity tag of what the answer says (Form A's `meta.requestId` aside, which differs on every request): send it back in `If-None-Match` to be answered 304 while nothing changed. A scan's tag moves with its state.",
);
const CacheControlRevalidate = header(
  "Cache-Control",
  z.literal("private, no-cache"),
  "A client may keep the answer but must revalidate it (`If-None-Match`) before reusing it; no shared cache may keep it.",
);
const VaryHeader = header(
  "Vary",
  z.string(),
  "`Authorization, X-API-Key, X-Response-Form` (and `Origin` where browsers may call the API): what the answer depends on besides its URL.",
);
const LinkHeader = header(
  "Link",
  z.string(),
  'RFC 8288 links to other pages of the list: `<url>; rel="first"` and `rel="last"` always, `rel="prev"` past the first page, `rel="next"` while `hasMore`. Absolute URLs: the request\'s scheme and host (a trusted proxy\'s `X-Forwarded-Proto` and `X-Forwarded-Host`), its path, its query with `page` set.',
);

/** On an answer a client may revalidate with If-None-Match. */
export const revalidationHeaders = {
  ETag: ETagHeader,
  "Cache-Control": CacheControlRevalidate,
  Vary: VaryHeader,
};

/** On every response outside /api/v1. */
export const serviceHeaders = { "X-Request-Id": RequestIdHeader };

const AllowOrigin = header(
  "Access-Control-Allow-Origin",
  z.string().optional(),
  "The request's `Origin`, when it is one of the deployment's `CORS_ORIGINS` (none by default): a page of that origin may read the answer.",
);
const ExposeHeaders = header(
  "Access-Control-Expose-Headers",
  z.string().optional(),
  "With `Access-Control-Allow-Origin`: the headers such a page may read (the rate-limit headers, `Retry-After`, `ETag`, `Link`, `Location`, `X-Request-Id`, `Idempotent-Replayed`, ...).",
);

/** On every /api/v1 response, errors included. */
export const apiHeaders = {
  "X-Request-Id": RequestIdHeader,
  "X-RateLimit-Limit": RateLimitLimit,
  "X-RateLimit-Remaining": RateLimitRemaining,
  "X-RateLimit-Reset": RateLimitReset,
  "Access-Control-Allow-Origin": AllowOrigin,
  "Access-Control-Expose-Headers": ExposeHeaders,
};

// request parameters -----------------------------------------------------------------------

const ResponseFormParam = ResponseForm.optional().meta({
  description:
    "The envelope: `A` (`{ok, data, meta}` / `{ok: false, error: {code, message, hint}}`) or `B` (`{success, data}` / `{error, code}`), case-insensitive. Without it (or with another value) the API key's default form applies, else the deployment's `RESPONSE_FORM` (A by default). Errors follow it too.",
  param: { id: "X-Response-Form" },
});
const RequestIdParam = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/)
  .optional()
  .meta({
    description: "Your id for the request, echoed in `X-Request-Id` and Form A's `meta.requestId`.",
    param: { id: "X-Request-Id" },
  });

/** The headers every operation reads (the JSON-RPC endpoints aside). */
export const commonHeaderParams = { "X-Response-Form": ResponseFormParam, "X-Request-Id": RequestIdParam };

const IfNoneMatchParam = z
  .string()
  .optional()
  .meta({
    description:
      "The `ETag` of an answer held (or several, comma-separated, or `*`): 304 with no body when the answer would carry the same tag (weak comparison). A 304 does not count against the rate limit; once the window is spent the request is 429 like any other.",
    param: { id: "If-None-Match" },
  });

const IdempotencyKeyParam = z
  .string()
  .min(1)
  .max(257)
  .optional()
  .meta({
    description:
      'Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): 1 to 255 printable ASCII characters, bare or as a quoted string (`"..."`); a UUID v4 is a good key. Keys are the caller\'s own (its API key, user or address). The first request with a key does the work; a retry with the same key, method, path and body (key order and spacing aside) within `IDEMPOTENCY_TTL_S` (24 h) is answered the first answer again, status, body and headers, with `Idempotent-Replayed: true`, nothing done twice and nothing counted against the rate limit or the quota. While the first is still running a retry is 409 (`Retry-After`), with another request 422; a malformed key is 400. A 5xx or a 408, 409 or 429 is not kept: its retry runs again.',
    param: { id: "Idempotency-Key" },
  });

/** The headers a POST that creates something reads. */
export const creatingHeaderParams = { ...commonHeaderParams, "Idempotency-Key": IdempotencyKeyParam };

export const IdempotentReplayed = header(
  "Idempotent-Replayed",
  z.literal("true").optional(),
  "Sent on the answer to a retry with an `Idempotency-Key`: this is the first request's answer again (its body byte for byte, Form A's `meta.requestId` included); nothing was done this time.",
);

/** The headers a revalidatable GET reads. */
export const conditionalHeaderParams = { ...commonHeaderParams, "If-None-Match": IfNoneMatchParam };

/** The headers of an operation, as its request parameters: every one's, a creating POST's, a revalidatable GET's. */
export const commonHeaders = z.object(commonHeaderParams);
export const creatingHeaders = z.object(creatingHeaderParams);
export const conditionalHeaders = z.object(conditionalHeaderParams);

/** How every list of records pages. */
export const LIST_RULES =
  "Newest first, with the id as tiebreaker, so paging never repeats or skips a record. `total` counts every match and `hasMore` is `page × limit < total`; a page past the end is an empty list. Integers are plain decimal digits; a parameter given twice, or one the endpoint does not know, is 400.";

export const NoStore = z
  .literal("no-store")
  .meta({ description: "The answer is of this moment: not kept by a cache." });

// security ---------------------------------------------------------------------------------

export const securitySchemes = {
  apiKeyBearer: {
    type: "http" as const,
    scheme: "bearer",
    bearerFormat: "aeo_live_…",
    description: "An API key as `Authorization: Bearer <key>`.",
  },
  apiKeyHeader: {
    type: "apiKey" as const,
    in: "header",
    name: "X-API-Key",
    description: "An API key as `X-API-Key: <key>` (Form B names only this one).",
  },
  apiKeyQuery: {
    type: "apiKey" as const,
    in: "query",
    name: "key",
    description:
      "An API key as `?key=<key>`: the tool server only (§5.2 of the specification), for clients that take nothing but a URL. The REST API never reads it.",
  },
  userJwt: {
    type: "http" as const,
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A user's JWT as `Authorization: Bearer <JWT>`: on the key endpoints any of the service's JWTs (an API key there is refused): the accounts CLI's (`pnpm accounts token`) or a dashboard session's. HS256 or RS256, as the deployment configures; `sub` is the user id, `exp` required.",
  },
  sessionJwt: {
    type: "http" as const,
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A signed-in dashboard session's JWT (`POST /auth/token`, carrying the session's id as `sid`) as `Authorization: Bearer <JWT>`: accepted on every `/api/v1` endpoint as the user, counted per user at the user's plan's limit, and refused once its session ends.",
  },
  sessionCookie: {
    type: "apiKey" as const,
    in: "cookie",
    name: "scan_session",
    description:
      "The dashboard's session cookie (HttpOnly), set by `POST /auth/sign-in` and `/auth/sign-up`. A change made with it also needs `X-CSRF-Token` and this gateway's `Origin`.",
  },
  metricsToken: {
    type: "http" as const,
    scheme: "bearer",
    description: "`Authorization: Bearer <METRICS_TOKEN>` when the deployment sets METRICS_TOKEN.",
  },
};

type Scheme = keyof typeof securitySchemes;
const requirement = (...schemes: Scheme[]) => schemes.map((scheme) => ({ [scheme]: [] }));

export const security = {
  /** an API key, or a signed-in dashboard session's JWT */
  apiKey: requirement("apiKeyBearer", "apiKeyHeader", "sessionJwt"),
  /** POST /api/v1/scan: also anonymous (10 an hour per address); GET of an anonymous scan by its access link */
  apiKeyOrAnonymous: [{}, ...requirement("apiKeyBearer", "apiKeyHeader", "sessionJwt")],
  /** the progress streams: also the dashboard's session cookie, since a browser's EventSource sends no header of ours */
  apiKeyOrSessionCookie: requirement("apiKeyBearer", "apiKeyHeader", "sessionJwt", "sessionCookie"),
  jwt: requirement("userJwt"),
  /** a JWT of a user with the operator role */
  operatorJwt: requirement("userJwt"),
  session: requirement("sessionCookie"),
  toolServer: requirement("apiKeyBearer", "apiKeyHeader", "apiKeyQuery"),
  none: [],
  metrics: [{}, ...requirement("metricsToken")],
};

// responses --------------------------------------------------------------------------------

const STATUS_NAME: Record<number, string> = {
  400: "Bad request",
  401: "Unauthenticated",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  406: "Not acceptable",
  408: "Request timeout",
  409: "Conflict",
  413: "Payload too large",
  414: "URI too long",
  415: "Unsupported media type",
  422: "Unprocessable content",
  431: "Request header fields too large",
  429: "Rate limited",
  500: "Internal error",
  502: "Upstream failure",
  503: "Service unavailable",
};

export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 405
  | 406
  | 408
  | 409
  | 410
  | 413
  | 414
  | 415
  | 422
  | 429
  | 431
  | 500
  | 502
  | 503;

const codesOf = (kinds: readonly ErrorKind[], form: "a" | "b") =>
  [...new Set(kinds.map((kind) => ERROR_TABLE[kind][form]))] as [string, ...string[]];

/** Both forms of the error envelope for one status, codes and meaning from the error table. */
const errorResponse = (status: ErrorStatus, scope: "Api" | "Service"): ZodOpenApiResponseObject => {
  const kinds = KINDS.filter((kind) => ERROR_TABLE[kind].status === status);
  const rows = kinds.map((kind) => `- \`${ERROR_TABLE[kind].a}\` / \`${ERROR_TABLE[kind].b}\`: ${ERROR_WHEN[kind]}`);
  const base = scope === "Api" ? apiHeaders : serviceHeaders;
  // the rate limiter's own outage is answered before any count is known
  const limits = status === 503 && scope === "Api";
  const headers = z.object({
    ...base,
    ...(limits
      ? {
          "X-RateLimit-Limit": RateLimitLimit.optional(),
          "X-RateLimit-Remaining": RateLimitRemaining.optional(),
          "X-RateLimit-Reset": RateLimitReset.optional(),
        }
      : {}),
    ...(status === 409 || status === 429 || status === 503 ? { "Retry-After": RetryAfter } : {}),
    ...(status === 405 ? { Allow: AllowHeader } : {}),
  });
  return {
    id: `${scope}Error${status}`,
    description: `${STATUS_NAME[status] ?? String(status)}, in the request's form (Form A or Form B):\n\n${rows.join("\n")}`,
    headers,
    content: {
      "application/json": {
        schema: z.xor([formAError(codesOf(kinds, "a")), formBError(codesOf(kinds, "b"))]),
      },
    },
  };
};

// one object per response component: the document refers to it wherever it applies
const errorResponses = new Map<string, ZodOpenApiResponseObject>();
const errorsOf = (scope: "Api" | "Service", statuses: ErrorStatus[]) =>
  Object.fromEntries(
    statuses.map((status) => {
      const key = `${scope}${status}`;
      const response = errorResponses.get(key) ?? errorResponse(status, scope);
      errorResponses.set(key, response);
      return [String(status), response];
    }),
  );

/** Error responses of /api/v1 operations: with the rate-limit headers. */
export const apiErrors = (...statuses: ErrorStatus[]) => errorsOf("Api", statuses);

/** Error responses outside /api/v1: the same envelopes, without rate limits. */
export const serviceErrors = (...statuses: ErrorStatus[]) => errorsOf("Service", statuses);

type SuccessOptions = {
  /** more headers than the API's own */
  headers?: Record<string, z.ZodType>;
  /** Form A carries `success: true` as well (the scan endpoint, docs/spec/public-scanning-api.md §2.1) */
  scanEndpoint?: boolean;
};

/** A created record's answer: the API's headers, and Idempotent-Replayed on a retry's. */
export const created = (description: string, data: z.ZodType, options: SuccessOptions = {}) =>
  record(description, data, { ...options, headers: { ...options.headers, "Idempotent-Replayed": IdempotentReplayed } });

/** A single record in both forms: Form A `{ok, data, meta: {requestId}}`, Form B `{success, data}`. */
export const record = (
  description: string,
  data: z.ZodType,
  { headers = {}, scanEndpoint = false }: SuccessOptions = {},
): ZodOpenApiResponseObject => ({
  description,
  headers: z.object({ ...apiHeaders, ...headers }),
  content: {
    "application/json": {
      schema: z.xor([formASuccess(data, RequestMeta, { scanEndpoint }), formBSuccess(data)]),
    },
  },
});

/** The 304 of a revalidatable GET: no body, the tag and caching headers of its 200. */
export const notModified = (extra: Record<string, z.ZodType> = {}): ZodOpenApiResponseObject => ({
  description:
    "Not modified: `If-None-Match` names the current `ETag`. No body; the tag, caching headers and rate-limit headers are sent, and the request is not counted against the limit.",
  headers: z.object({ ...apiHeaders, ...revalidationHeaders, ...extra }),
});

export const pageNotModified = () => notModified({ Link: LinkHeader });

/** A page of a list in both forms: `meta: {page, limit, total, hasMore}` in each, and Form A's `requestId`. */
export const page = (description: string, item: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  headers: z.object({ ...apiHeaders, ...revalidationHeaders, Link: LinkHeader }),
  content: {
    "application/json": {
      schema: z.xor([formASuccess(z.array(item), PageMetaA), formBSuccess(z.array(item), PageMeta)]),
    },
  },
});

/** Where the next page of a list read by cursor starts. */
const CursorMeta = z.object({
  limit: z.int(),
  /** the `cursor` of the next page; null on the last */
  next_cursor: z.string().nullable(),
});

/** A page of a list read by cursor, in both forms: `meta: {limit, next_cursor}` in each, and Form A's `requestId`. */
export const cursorPage = (description: string, item: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  headers: z.object({ ...apiHeaders, "Cache-Control": NoStore }),
  content: {
    "application/json": {
      schema: z.xor([
        formASuccess(z.array(item), RequestMeta.extend(CursorMeta.shape)),
        formBSuccess(z.array(item), CursorMeta),
      ]),
    },
  },
});

/** A request body: a JSON one, or (an import) CSV text. */
export const jsonBody = (schema: z.ZodType, required = true, mediaType = "application/json") => ({
  required,
  content: { [mediaType]: { schema } },
});

/**
 * The outline of a scan's or an audit's SARIF export: the log the tests validate against the OASIS SARIF 2.1.0
 * schema; here only its frame, open to every member that schema allows.
 */
export const SarifLog = z
  .object({
    $schema: z.string(),
    version: z.literal("2.1.0"),
    runs: z.array(
      z
        .object({
          tool: z.object({
            driver: z
              .object({
                name: z.literal("aeo-scan"),
                version: z.string(),
                rules: z.array(z.object({ id: z.string() }).loose()),
              })
              .loose(),
          }),
          artifacts: z.array(z.object({ location: z.object({ uri: z.string() }).loose() }).loose()),
          results: z.array(
            z
              .object({
                ruleId: z.string(),
                level: z.enum(["error", "warning", "note"]),
                message: z.object({ text: z.string() }),
                partialFingerprints: z.object({ "aeoScanFinding/v1": z.string() }),
              })
              .loose(),
          ),
        })
        .loose(),
    ),
  })
  .meta({
    id: "SarifLog",
    description:
      "A SARIF 2.1.0 log (OASIS Standard): one run; `tool.driver.rules` are the checks that ran (rule id = check id; an audit's site checks too); one result per check that failed or warned on a page, located at the page's URL (and for an audit one per finding of a failing site check, located at the finding's URL), with a stable `partialFingerprints.aeoScanFinding/v1`.",
  });
