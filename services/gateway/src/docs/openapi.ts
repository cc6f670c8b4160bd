import { EvaluateRequest, EvaluationOutput } from "@scan/citation-evaluator";
import {
  AccountView,
  ApiKeyView,
  BatchScanRequest,
  CitationView,
  CreatedApiKey,
  CreateSiteRequest,
  KeywordView,
  OperationsView,
  PageMeta,
  ScanAccepted,
  ScanRequest,
  ScanResult,
  ScanSummary,
  ScanWebhook,
  SessionView,
  SiteView,
  StoredScan,
} from "@scan/contract";
import { Readiness } from "@scan/platform";
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiParameters,
  type ZodOpenApiPathsObject,
} from "zod-openapi";
import { API_PREFIX, type Authorization, type Method, type Route, type RouteDocs } from "../http/route";
import { apiErrors, errorTable, jsonBody, security, securitySchemes } from "./common";

/**
 * The API reference (OpenAPI 3.1), built from the routes the app mounts: each route's
 * declaration carries its operation (`docs`), and its path and query parameters and JSON body
 * are the zod schemas it validates its input with. Nothing in it is written as JSON by hand, so
 * a schema change shows here. The schemas named below become components, referred
 * to wherever they occur. None of them holds another (zod-openapi would then render the inner
 * one a second time, for requests), and request bodies that transform their input stay inline
 * (a component is rendered for responses too, and a transform has no output shape).
 */

const SCHEMAS = {
  ScanRequest,
  BatchScanRequest,
  ScanResult,
  ScanAccepted,
  StoredScan,
  ScanSummary,
  ScanWebhook,
  EvaluateRequest,
  EvaluationOutput,
  SiteView,
  CreateSiteRequest,
  KeywordView,
  CitationView,
  ApiKeyView,
  CreatedApiKey,
  AccountView,
  OperationsView,
  SessionView,
  PageMeta,
  Readiness,
};

const INTRODUCTION = `Scans a web page for SEO, AEO (answer-engine optimisation) and GEO (generative-engine optimisation) signals and answers scores, a grade and per-check verdicts.

## Envelopes

Every \`/api/v1\` answer is in one of two envelopes, chosen per request by \`X-Response-Form: A\` or \`B\` (case-insensitive); without it, the API key's default form, else the deployment's \`RESPONSE_FORM\` (A by default). Each response below shows both forms (\`oneOf\`).

| | success | list | error |
|---|---|---|---|
| Form A | \`{ok: true, data, meta}\` (the scan endpoint adds \`success: true\`) | \`{ok: true, data: [...], meta: {page, limit, total, hasMore, requestId}}\` | \`{ok: false, error: {code, message, hint}}\` |
| Form B | \`{success: true, data}\` | \`{success: true, data: [...], meta: {page, limit, total, hasMore}}\` | \`{error: "<message>", code: "<CODE>"}\` |

## Authentication

An API key in \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` on every \`/api/v1\` endpoint; \`POST /api/v1/scan\` is also open to anonymous callers (10 an hour per address). A signed-in dashboard session's JWT (\`POST /auth/token\`) is taken wherever a key is, as the user. The key endpoints take a user's JWT instead of a key, and \`/api/v1/operations\` an operator's. The tool server also reads \`?key=\`. The dashboard signs in under \`/auth\` (Form A only): an HttpOnly session cookie, and an \`X-CSRF-Token\` with this gateway's \`Origin\` on every change made with it.

## Rate limits

Counted per API key per hour (anonymous: per address), by plan: Free 10, Starter 100, Pro 1,000, Agency 10,000 (a fair-use throttle). Every \`/api/v1\` response, errors included, carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds); a refused request is 429 with \`Retry-After\` in seconds. A 304 to a conditional request, the replay of an idempotent request and its 409 are not counted.

## Idempotent requests

Every \`POST\` that creates something takes an \`Idempotency-Key\` (the IETF httpapi draft, Stripe's practice): a retry with the same key, method, path and body within 24 hours is answered the first answer again, with \`Idempotent-Replayed: true\`, and nothing is done or counted twice. While the first request runs a retry is 409 (\`Retry-After\`); the key with another request is 422; a malformed key 400.

## Conditional requests and paging

A stored scan and every list carry a weak \`ETag\` and \`Cache-Control: private, no-cache\`; \`If-None-Match\` with the tag is answered 304 without a body while nothing changed (a scan's tag moves with its state). Lists carry RFC 8288 \`Link\` headers (\`first\`, \`last\`, \`prev\`, \`next\`) with absolute URLs.

## Errors

${errorTable()}

Requests whose head Node's HTTP parser refuses are answered 400 (431 for heads over \`MAX_HEADER_BYTES\`) with \`invalid_request\` / \`VALIDATION_ERROR\` in the deployment's default form.

## CORS

Browsers may call \`/api/v1\` and the tool server from the origins the deployment lists in \`CORS_ORIGINS\`, none by default. A preflight (\`OPTIONS\` with \`Origin\` and \`Access-Control-Request-Method\`) from an allowed origin is answered 204 with the methods and headers the API reads; from any other origin, 403 \`forbidden\` / \`FORBIDDEN\` without CORS headers. Preflights are never counted. Answers to an allowed origin carry \`Access-Control-Allow-Origin\` and \`Access-Control-Expose-Headers\`. An API key in a public web page is readable by everyone who loads it: call the API from a server, or give a page a key of its own that can do little.

## Asynchronous scans

\`Prefer: respond-async\` on \`POST /api/v1/scan\` answers 202 with \`Location\` at once; a \`callback_url\` receives the finished scan by a POST signed with HMAC-SHA256 (see the callback of that operation). The queue dashboard (\`/admin/queues\`) exists only when the deployment sets \`ADMIN_TOKEN\` and is not part of this API.`;

const TAGS = [
  { name: "Scans", description: "Scan a URL, read stored scans, batches." },
  { name: "Evaluator", description: "The deterministic AEO 2.0 evaluator." },
  {
    name: "Generators",
    description: "Files and content drafted from a scanned page (aeo_fix, aeo_generate over REST).",
  },
  { name: "Sites", description: "The key holder's sites, one per origin." },
  {
    name: "Audits",
    description: "Whole-site audits: discovery, a crawl on the scan workers, site checks, the site report, exports.",
  },
  {
    name: "Reports",
    description: "Client reports: the name and logo a workspace's PDFs of scans and audits carry, and the logo's file.",
  },
  { name: "Keywords", description: "Tracked search keywords and their positions." },
  { name: "Citations", description: "Observations of AI engines citing a site." },
  {
    name: "Visibility",
    description:
      "What a site's AI visibility is tracked with: its profile (brand names and domains, samples, engines), prompts (CSV import too), competitors, and the workspace's engine keys.",
  },
  { name: "API keys", description: "The API keys of the signed-in member's current workspace (JWT)." },
  {
    name: "Workspaces",
    description:
      "A signed-in user's workspaces, their members, roles and invitations, and the session's current one (JWT).",
  },
  { name: "Account", description: "The caller's plan and limits; the service's operations, for operators." },
  {
    name: "Dashboard sessions",
    description: "Sign-up, sign-in and the session's JWTs for the dashboard, outside `/api/v1`, in Form A.",
  },
  { name: "Tool server (MCP)", description: "The tools over JSON-RPC 2.0: SSE, direct POST, Streamable HTTP." },
  { name: "Operations", description: "Probes and metrics, outside `/api/v1` and its rate limits." },
  { name: "Reference", description: "This document and its interactive page." },
];

/** One operation of the reference: where it is served, and what the reference says of it. */
export type DocumentedOperation = { method: Method; path: string; operation: ZodOpenApiOperationObject };

/** A route's security when its docs name none: what its authorization admits. */
const SECURITY_OF: Partial<Record<Extract<Authorization, string>, ZodOpenApiOperationObject["security"]>> = {
  anyone: security.apiKeyOrAnonymous,
  "account-or-link": security.apiKeyOrAnonymous,
  account: security.apiKey,
  "account-or-cookie": security.apiKeyOrSessionCookie,
  "user-jwt": security.jwt,
  operator: security.operatorJwt,
  public: security.none,
};

/** The authorizations that take a caller, and with it a workspace role (http/route.ts). */
const CALLER_AUTHORIZATIONS: ReadonlySet<Authorization> = new Set([
  "anyone",
  "account",
  "account-or-link",
  "account-or-cookie",
  "user-jwt",
  "operator",
]);

/**
 * A route's responses, with the 403 `forbidden` that a workspace's viewer meets on every write
 * under /api/v1 (http/route.ts refuses it before the work), in its place among the statuses:
 * stated here once rather than on each write route.
 */
const responsesOf = (route: Route, responses: NonNullable<RouteDocs["responses"]>) => {
  const write = route.method !== "get" && !route.viewerMayWrite && CALLER_AUTHORIZATIONS.has(route.authorization);
  if (!write || !route.path.startsWith(`${API_PREFIX}/`) || "403" in responses) return responses;
  const entries = Object.entries(responses);
  const at = entries.findIndex(([status]) => Number(status) > 403);
  entries.splice(at === -1 ? entries.length : at, 0, ...Object.entries(apiErrors(403)));
  return Object.fromEntries(entries) as typeof responses;
};

/** The operation a route declares: its docs, with its own schemas as parameters and body. */
export const operationOf = (route: Route): DocumentedOperation | undefined => {
  const { docs } = route;
  if (!docs) return undefined;
  const { operationId, tags, summary, description, responses, callbacks, headers } = docs;
  const requestParams: ZodOpenApiParameters = {};
  const path = docs.path ?? route.params;
  if (path) requestParams.path = path as ZodOpenApiParameters["path"];
  if (route.query) requestParams.query = route.query as ZodOpenApiParameters["query"];
  if (headers) requestParams.header = headers;
  const declared = typeof route.authorization === "string" ? SECURITY_OF[route.authorization] : undefined;
  const operationSecurity = docs.security ?? declared;
  if (!operationSecurity) throw new Error(`${route.method.toUpperCase()} ${route.path}: its docs name no security`);
  return {
    method: route.method,
    path: route.path,
    operation: {
      operationId,
      tags,
      summary,
      description,
      security: operationSecurity,
      ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
      ...(route.body ? { requestBody: jsonBody(route.body.schema, !route.body.optional, route.body.mediaType) } : {}),
      responses: responsesOf(route, responses),
      ...(callbacks ? { callbacks } : {}),
    },
  };
};

const METHODS: readonly Method[] = ["get", "post", "put", "patch", "delete"];

/** The operations of a paths object written as OpenAPI has it (the tool server's, whose router is mounted whole). */
export const operationsIn = (paths: ZodOpenApiPathsObject): DocumentedOperation[] =>
  Object.entries(paths).flatMap(([path, item]) =>
    (Object.keys(item) as Method[])
      .filter((method) => METHODS.includes(method))
      .flatMap((method) => {
        const operation = item[method];
        return operation ? [{ method, path, operation }] : [];
      }),
  );

/**
 * Operations documented before their routes are mounted: an endpoint whose contract is settled
 * and whose route is still on its way is written here, with its method and path, as its route's
 * `docs` will hold it, and moves onto the route when the route is mounted. The reference keeps
 * them so that clients can be written against them; tests/openapi.test.ts lists them in
 * NOT_YET_MOUNTED and fails once one of them is mounted. None today.
 */
export const NOT_YET_MOUNTED: readonly DocumentedOperation[] = [];

/** `/api/v1/scan/:id` as OpenAPI writes it: `/api/v1/scan/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

/** The paths object: operations in the order given, grouped by path. */
const pathsOf = (operations: readonly DocumentedOperation[]): ZodOpenApiPathsObject => {
  const paths: ZodOpenApiPathsObject = {};
  for (const { method, path, operation } of operations) {
    const item = paths[openApiPath(path)] ?? {};
    paths[openApiPath(path)] = item;
    if (item[method]) throw new Error(`${method.toUpperCase()} ${path} is documented twice`);
    item[method] = operation;
  }
  return paths;
};

/** The reference of these operations: the mounted routes' and those served or documented otherwise. */
export const createApiDocument = (operations: readonly DocumentedOperation[]): oas31.OpenAPIObject =>
  createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "aeo-scan API",
        version: "1.0.0",
        description: INTRODUCTION,
      },
      tags: TAGS,
      paths: pathsOf(operations),
      components: { schemas: SCHEMAS, securitySchemes },
    },
    { outputIdSuffix: "Output" },
  ) as oas31.OpenAPIObject;
