import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, operations, paths } from "./generated/openapi";

/**
 * The typed client of the aeo-scan API: every path, parameter, body and answer of the gateway's
 * OpenAPI document (GET /openapi.json), with the caller's credentials and envelope form added to
 * each request. docs/client.md shows how to use it.
 */

/** How the dashboard and the command line say a wait, and an error's message with its hint. */
export { problemSentence, waitInWords } from "@scan/contract/wait";
export type { components, operations, paths };

type Schemas = components["schemas"];
export type ScanRequest = Schemas["ScanRequest"];
export type ScanResult = Schemas["ScanResult"];
export type ScanAccepted = Schemas["ScanAccepted"];
export type StoredScan = Schemas["StoredScan"];
export type ScanSummary = Schemas["ScanSummary"];
export type SiteView = Schemas["SiteView"];
export type KeywordView = Schemas["KeywordView"];
export type CitationView = Schemas["CitationView"];
export type ApiKeyView = Schemas["ApiKeyView"];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type PageMeta = Schemas["PageMeta"];
export type CheckResult = NonNullable<StoredScan["checks"]>[number];

type JsonAnswer<Op extends keyof operations, Status extends number> = operations[Op]["responses"] extends {
  [S in Status]: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
/** The `data` of an operation's JSON answer with this status, the same in either envelope. */
export type DataOf<Op extends keyof operations, Status extends number = 200> = Extract<
  JsonAnswer<Op, Status>,
  { data: unknown }
>["data"];

export type AuditView = DataOf<"getAudit">;
export type SiteReport = NonNullable<AuditView["report"]>;
export type SiteHistoryEntry = DataOf<"getSiteHistory">[number];
export type AuditScheduleView = DataOf<"getAuditSchedule">;
export type AuditAlertView = DataOf<"listSiteAlerts">[number];
export type AuditIssues = DataOf<"getAuditIssues">;
export type AuditIssue = AuditIssues["issues"][number];
export type AuditIssuePage = DataOf<"listAuditIssuePages">[number];
export type ReportBrandingView = DataOf<"getReportBranding">;

/** Where a user's JWT comes from: a fixed token, or a function asked before every request. */
export type TokenSource = string | (() => string | null | undefined | Promise<string | null | undefined>);

export type ScanClientOptions = {
  /** The gateway's origin, e.g. `https://scan.example.com`; "" (the default) for the page's own origin. */
  baseUrl?: string;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** A user's JWT instead of a key (the key endpoints want one), sent as `Authorization: Bearer <JWT>`. */
  token?: TokenSource;
  /** The envelope of every answer: `A` (`{ok, data, meta}`, the default) or `B` (`{success, data}`). */
  form?: "A" | "B";
  /** Another fetch (tests, retries, instrumentation); `globalThis.fetch` by default. */
  fetch?: typeof globalThis.fetch;
};

export type ScanClient = Client<paths>;

const tokenOf = async (source: TokenSource | undefined): Promise<string | null> => {
  if (source === undefined) return null;
  const token = typeof source === "string" ? source : await source();
  return token || null;
};

/**
 * A client of the API. Each call answers `{data, error, response}`: `data` is the success
 * envelope, `error` the error envelope (read it with `problemOf`).
 *
 *     const api = createScanClient({ baseUrl: "https://scan.example.com", apiKey: process.env.SCAN_KEY });
 *     const { data, error, response } = await api.POST("/api/v1/scan", { body: { url, mode: "quick" } });
 */
export const createScanClient = (options: ScanClientOptions = {}): ScanClient => {
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl ?? "",
    // the page's fetch is looked up per call, so a fetch replaced after start-up is the one used
    fetch: (request) => (options.fetch ?? globalThis.fetch)(request),
  });
  const credentials: Middleware = {
    onRequest: async ({ request }) => {
      request.headers.set("X-Response-Form", options.form ?? "A");
      const bearer = options.apiKey ?? (await tokenOf(options.token));
      if (bearer && !request.headers.has("Authorization")) request.headers.set("Authorization", `Bearer ${bearer}`);
      return request;
    },
  };
  client.use(credentials);
  return client;
};

/** An error answer of either form, read the same way. */
export type ApiProblem = {
  status: number;
  /** Form A's code (`unauthenticated`, `rate_limited`, …) or Form B's (`INVALID_API_KEY`, …) */
  code: string;
  message: string;
  hint: string | null;
  /** seconds to wait, from `Retry-After` on a 429 or 503 */
  retryAfterS: number | null;
};

const textOf = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Reads an error envelope (Form A `{ok: false, error}` or Form B `{error, code}`) and its response. */
export const problemOf = (response: Response, body: unknown): ApiProblem => {
  const retry = Number(response.headers.get("Retry-After"));
  const base = { status: response.status, retryAfterS: Number.isFinite(retry) && retry > 0 ? retry : null };
  const envelope = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const inner = envelope.error;
  if (typeof inner === "object" && inner !== null) {
    const error = inner as Record<string, unknown>;
    return {
      ...base,
      code: textOf(error.code) ?? "unknown",
      message: textOf(error.message) ?? response.statusText,
      hint: textOf(error.hint),
    };
  }
  return {
    ...base,
    code: textOf(envelope.code) ?? "unknown",
    message: textOf(inner) ?? (response.statusText || `HTTP ${response.status}`),
    hint: null,
  };
};

/** A failed call as an exception, for callers that prefer `try`/`catch` (see `dataOf`). */
export class ScanApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.message);
    this.name = "ScanApiError";
  }
}

/** The envelope among a success's representations (`GET /api/v1/scan/{id}` may also be an export's text). */
type EnvelopeOf<T> = Extract<T, { data?: unknown }>;

/**
 * The `data` of a call's success envelope, or a `ScanApiError` with the error envelope read:
 *
 *     const sites = dataOf(await api.GET("/api/v1/sites", { params: { query: { q: "example" } } }));
 *
 * A call that asked for JSON (no `Accept`, no `format`) is answered with the envelope; an
 * export (CSV, SARIF, JUnit) is text and is read from `response` instead.
 */
export const dataOf = <T>(result: { data?: T; error?: unknown; response: Response }): EnvelopeOf<T>["data"] => {
  const body = result.data as EnvelopeOf<T> | string | undefined;
  if (body === undefined || typeof body !== "object" || body === null || !result.response.ok)
    throw new ScanApiError(problemOf(result.response, result.error));
  return body.data;
};
