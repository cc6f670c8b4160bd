import {
  AccountView,
  ApiKeyView,
  CitationIdParam,
  CitationListQuery,
  CitationView,
  CreatedApiKey,
  CreateKeyRequest,
  CreateSiteRequest,
  DeletedRecord,
  KeyIdParam,
  KeywordIdParam,
  KeywordListQuery,
  KeywordView,
  OperationsView,
  PageQuery,
  RecordCitationRequest,
  RecordKeywordRequest,
  RenameCitationRequest,
  RenameKeywordRequest,
  RenameSiteRequest,
  SiteCredentialsRequest,
  SiteCredentialsView,
  SiteDetail,
  SiteIdParam,
  SiteListQuery,
  SiteView,
} from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  apiErrors,
  commonHeaderParams,
  conditionalHeaderParams,
  created,
  creatingHeaderParams,
  jsonBody,
  page,
  pageNotModified,
  record,
  security,
} from "./common";

/** The caller's account, sites, keywords and citation tracks, a user's API keys, and the operators' view. */

const LIST_RULES =
  "Newest first, with the id as tiebreaker, so paging never repeats or skips a record. `total` counts every match and `hasMore` is `page × limit < total`; a page past the end is an empty list. Integers are plain decimal digits; a parameter given twice, or one the endpoint does not know, is 400.";

const headers = z.object(commonHeaderParams);
const conditional = z.object(conditionalHeaderParams);
const creating = z.object(creatingHeaderParams);

const CacheControl = z.literal("no-store").meta({
  description: "The full key is in this response only (and its replay to a retry with the same `Idempotency-Key`).",
});
const NoStore = z.literal("no-store").meta({ description: "The answer is of this moment: not kept by a cache." });

export const accountPaths: ZodOpenApiPathsObject = {
  "/api/v1/account": {
    get: {
      operationId: "getAccount",
      tags: ["Account"],
      summary: "The caller's plan and limits",
      description:
        "The plan, the rate-limit window this request was counted in (the API key's counter, or the signed-in user's; the same numbers as the X-RateLimit-* headers) and the user's monthly scan quota: `used` counts every scan stored this calendar month (UTC) from any of the user's keys or sessions, `limit` null is unlimited, `resetsAt` is the start of next month. A dashboard session's read of this view is not counted: `sessionReads` (null for an API key) and the X-RateLimit-* headers show the session's budget of reads as it stands, so the page answers, and explains that budget, also once it is spent.",
      security: security.apiKey,
      requestParams: { header: headers },
      responses: {
        "200": record("The caller's account.", AccountView, { headers: { "Cache-Control": NoStore } }),
        ...apiErrors(401, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/operations": {
    get: {
      operationId: "getOperations",
      tags: ["Account"],
      summary: "The service's queue, workers and last hour (operators)",
      description:
        "For a signed-in user with the operator role (a member is 403 `forbidden`; an API key is 401): the queue's jobs by state (BullMQ), the workers connected to it and when Redis last heard from each, the scans finished in each of the last 60 minutes with the median and 95th percentile scan time (queued to finished) of the completed ones, the 10 latest failed scans with their reasons, and the queue dashboard's path when the deployment has one.",
      security: security.operatorJwt,
      requestParams: { header: headers },
      responses: {
        "200": record("The service's state now.", OperationsView, { headers: { "Cache-Control": NoStore } }),
        ...apiErrors(401, 403, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/sites": {
    get: {
      operationId: "listSites",
      tags: ["Sites"],
      summary: "The caller's sites",
      description: `\`q\` is a case-insensitive substring of the domain, name or url, matched literally (\`%\` and \`_\` match themselves). ${LIST_RULES}`,
      security: security.apiKey,
      requestParams: { query: SiteListQuery, header: conditional },
      responses: {
        "200": page("A page of sites.", SiteView),
        "304": pageNotModified(),
        ...apiErrors(400, 401, 405, 429, 500, 503),
      },
    },
    post: {
      operationId: "createSite",
      tags: ["Sites"],
      summary: "Record a site",
      description:
        "Records the site of the URL's origin (the URL follows the scan endpoint's rules, then is reduced to `scheme://host[:port]`). Safe to repeat: the caller's existing site for that origin is answered (and renamed when `name` is given). Keyed scans record their site by themselves.",
      security: security.apiKey,
      requestParams: { header: creating },
      requestBody: jsonBody(CreateSiteRequest),
      responses: {
        "200": created("The caller already had this origin: the existing site.", SiteView),
        "201": created("The new site.", SiteView),
        ...apiErrors(400, 401, 405, 409, 413, 422, 429, 500, 503),
      },
    },
  },
  "/api/v1/sites/{id}": {
    get: {
      operationId: "getSite",
      tags: ["Sites"],
      summary: "One of the caller's sites",
      description:
        "The site by id, with its latest scores and its audit `schedule` (as `GET /api/v1/sites/{id}/schedule` answers it; `null` when the site has none, where that endpoint answers 404). Another user's or an unknown site is 404. Its scans are `GET /api/v1/scans?site_id=`, its keywords `GET /api/v1/keywords?site_id=`, its citation tracks `GET /api/v1/citations?site_id=`.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      responses: {
        "200": record("The site, with its schedule or null.", SiteDetail),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
    patch: {
      operationId: "renameSite",
      tags: ["Sites"],
      summary: "Rename one of the caller's sites",
      description:
        "Gives the site a new `name` (1 to 100 characters, trimmed). Its origin, scores and records stay: another origin is another site. Another user's or an unknown site is 404.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      requestBody: jsonBody(RenameSiteRequest),
      responses: {
        "200": record("The site, renamed.", SiteView),
        ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
      },
    },
    delete: {
      operationId: "deleteSite",
      tags: ["Sites"],
      summary: "Delete one of the caller's sites",
      description:
        "Deletes the site with its keywords, citation tracks, audits, audit schedule, regression alerts and stored credentials. Its scans stay (they are of URLs); a later scan of the origin made with a key records the site again, without what was deleted. 409 `conflict` while an audit of the site is under way; another user's or an unknown site is 404.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      responses: {
        "200": record("Deleted.", DeletedRecord),
        ...apiErrors(400, 401, 404, 405, 409, 429, 500, 503),
      },
    },
  },
  "/api/v1/sites/{id}/credentials": {
    get: {
      operationId: "getSiteCredentials",
      tags: ["Sites"],
      summary: "Which credentials a site behind a login sends",
      description:
        "The names of the headers and cookies, and whether HTTP Basic credentials are set: never a value. 404 when the site is not the caller's, or has no credentials; 503 when the service has no `SITE_SECRETS_KEY`.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      responses: {
        "200": record("What is set, by name.", SiteCredentialsView, { headers: { "Cache-Control": NoStore } }),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
    put: {
      operationId: "setSiteCredentials",
      tags: ["Sites"],
      summary: "Set the credentials of a site behind a login",
      description:
        "Replaces the site's credentials whole: request headers, cookies and HTTP Basic credentials that the caller's scans of this origin send to it, and to no other origin (not a redirect's target, not another origin's subresource). Sealed with AES-256-GCM before they are stored, never logged, never returned: the answer names what is set. Headers that belong to the connection, `Host`, `User-Agent`, `Cookie` and `Authorization` are refused (cookies and Basic credentials have fields of their own). Anonymous scans and other users' scans of the same origin send none.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      requestBody: jsonBody(SiteCredentialsRequest),
      responses: {
        "200": record("What is now set, by name.", SiteCredentialsView, { headers: { "Cache-Control": NoStore } }),
        ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
      },
    },
    delete: {
      operationId: "deleteSiteCredentials",
      tags: ["Sites"],
      summary: "Remove the credentials of a site",
      description: "Later scans of the site send none. 404 when the site is not the caller's or has none.",
      security: security.apiKey,
      requestParams: { path: SiteIdParam, header: headers },
      responses: {
        "200": record("Removed.", z.object({ id: z.uuid(), deleted: z.literal(true) })),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/keywords": {
    get: {
      operationId: "listKeywords",
      tags: ["Keywords"],
      summary: "The caller's tracked keywords",
      description: `Of every site, or of one (\`site_id\`; another user's or an unknown site is 404). ${LIST_RULES}`,
      security: security.apiKey,
      requestParams: { query: KeywordListQuery, header: conditional },
      responses: {
        "200": page("A page of keywords.", KeywordView),
        "304": pageNotModified(),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
    post: {
      operationId: "recordKeyword",
      tags: ["Keywords"],
      summary: "Record a keyword's position",
      description:
        "The keyword is trimmed, whitespace-collapsed and lower-cased. Its first record for a site is 201 with `trend: new`; a later one updates it in place (200): the stored position moves to `previous_position` and the trend is computed from the two.",
      security: security.apiKey,
      requestParams: { header: creating },
      requestBody: jsonBody(RecordKeywordRequest),
      responses: {
        "200": created("The keyword, updated.", KeywordView),
        "201": created("The keyword, first recorded.", KeywordView),
        ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 503),
      },
    },
  },
  "/api/v1/keywords/{id}": {
    patch: {
      operationId: "renameKeyword",
      tags: ["Keywords"],
      summary: "Reword a tracked keyword",
      description:
        "Changes the keyword's words (trimmed, whitespace-collapsed and lower-cased, as recorded); its positions, volume, difficulty and trend stay. 409 `conflict` when its site already tracks the new words; another user's or an unknown keyword is 404.",
      security: security.apiKey,
      requestParams: { path: KeywordIdParam, header: headers },
      requestBody: jsonBody(RenameKeywordRequest),
      responses: {
        "200": record("The keyword, reworded.", KeywordView),
        ...apiErrors(400, 401, 404, 405, 409, 413, 429, 500, 503),
      },
    },
    delete: {
      operationId: "deleteKeyword",
      tags: ["Keywords"],
      summary: "Stop tracking a keyword",
      description: "Deletes the keyword and its recorded positions. Another user's or an unknown keyword is 404.",
      security: security.apiKey,
      requestParams: { path: KeywordIdParam, header: headers },
      responses: {
        "200": record("Deleted.", DeletedRecord),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/citations": {
    get: {
      operationId: "listCitations",
      tags: ["Citations"],
      summary: "The caller's citation tracks",
      description: `Observations of whether an AI engine's answer cited the site, \`checked_at\` within the \`date_range\` (last 30 days by default). ${LIST_RULES}`,
      security: security.apiKey,
      requestParams: { query: CitationListQuery, header: conditional },
      responses: {
        "200": page("A page of citation tracks.", CitationView),
        "304": pageNotModified(),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
    post: {
      operationId: "recordCitation",
      tags: ["Citations"],
      summary: "Record an observation",
      description:
        "`citation_url` is required when `cited` is true. `checked_at` (ISO 8601 with `Z` or an offset) defaults to now and may be at most 5 minutes ahead of the server's clock. Each call stores one more track.",
      security: security.apiKey,
      requestParams: { header: creating },
      requestBody: jsonBody(RecordCitationRequest),
      responses: {
        "201": created("The stored track.", CitationView),
        ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 503),
      },
    },
  },
  "/api/v1/citations/{id}": {
    patch: {
      operationId: "renameCitation",
      tags: ["Citations"],
      summary: "Correct a citation track's query",
      description:
        "Changes the wording of the query the engine was asked (1 to 500 characters, trimmed); the engine, the answer observed and its time stay. Another user's or an unknown track is 404.",
      security: security.apiKey,
      requestParams: { path: CitationIdParam, header: headers },
      requestBody: jsonBody(RenameCitationRequest),
      responses: {
        "200": record("The track, corrected.", CitationView),
        ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
      },
    },
    delete: {
      operationId: "deleteCitation",
      tags: ["Citations"],
      summary: "Delete a citation track",
      description: "Deletes one observation. Another user's or an unknown track is 404.",
      security: security.apiKey,
      requestParams: { path: CitationIdParam, header: headers },
      responses: {
        "200": record("Deleted.", DeletedRecord),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/keys": {
    get: {
      operationId: "listKeys",
      tags: ["API keys"],
      summary: "The user's active API keys",
      description: "Newest first. Never the keys themselves: their `prefix` tells them apart.",
      security: security.jwt,
      requestParams: { query: PageQuery, header: conditional },
      responses: {
        "200": page("A page of keys.", ApiKeyView),
        "304": pageNotModified(),
        ...apiErrors(400, 401, 405, 429, 500, 503),
      },
    },
    post: {
      operationId: "createKey",
      tags: ["API keys"],
      summary: "Create an API key",
      description:
        "No body is fine. `default_form` is the envelope for requests made with the key that send no `X-Response-Form`. A user holds at most `MAX_KEYS_PER_USER` active keys (403 beyond). Without a JWT key configured the key endpoints answer 503.",
      security: security.jwt,
      requestParams: { header: creating },
      requestBody: jsonBody(CreateKeyRequest, false),
      responses: {
        "201": created(
          "The key record and, this once, the key itself (again to a retry with its `Idempotency-Key`).",
          CreatedApiKey,
          {
            headers: { "Cache-Control": CacheControl },
          },
        ),
        ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 503),
      },
    },
  },
  "/api/v1/keys/{id}": {
    delete: {
      operationId: "revokeKey",
      tags: ["API keys"],
      summary: "Revoke an API key",
      description:
        "The key authenticates nothing more and is no longer listed; the scans made with it stay the user's. Another user's, an unknown or an already revoked key is 404.",
      security: security.jwt,
      requestParams: { path: KeyIdParam, header: headers },
      responses: {
        "200": record("The revoked key (`revoked_at` set).", ApiKeyView),
        ...apiErrors(400, 401, 404, 405, 429, 500, 503),
      },
    },
  },
};
