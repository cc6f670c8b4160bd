import { EvaluateRequest, EvaluationOutput } from "@scan/citation-evaluator";
import {
  ApiKeyView,
  BatchScanRequest,
  CitationView,
  CreatedApiKey,
  CreateSiteRequest,
  KeywordView,
  PageMeta,
  ScanAccepted,
  ScanRequest,
  ScanResult,
  ScanSummary,
  ScanWebhook,
  SiteView,
  StoredScan,
} from "@scan/contract";
import { Readiness } from "@scan/platform";
import { createDocument, type oas31 } from "zod-openapi";
import { accountPaths } from "./account-paths";
import { auditPaths } from "./audit-paths";
import { errorTable, securitySchemes } from "./common";
import { generatorPaths } from "./generator-paths";
import { mcpPaths } from "./mcp-paths";
import { scanPaths } from "./scan-paths";
import { servicePaths } from "./service-paths";

/**
 * The API reference (OpenAPI 3.1), generated from the zod schemas the routes validate their
 * input with and the shared schemas of what they answer: nothing in it is written as JSON by
 * hand, so a schema change shows here. The schemas named below become components, referred
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

An API key in \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` on every \`/api/v1\` endpoint; \`POST /api/v1/scan\` is also open to anonymous callers (10 an hour per address). The key endpoints take a user's JWT instead. The tool server also reads \`?key=\`.

## Rate limits

Counted per API key per hour (anonymous: per address), by plan: Free 10, Starter 100, Pro 1,000, Agency 10,000 (a fair-use throttle). Every \`/api/v1\` response, errors included, carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds); a refused request is 429 with \`Retry-After\` in seconds.

## Errors

${errorTable()}

Requests whose head Node's HTTP parser refuses are answered 400 (431 for heads over \`MAX_HEADER_BYTES\`) with \`invalid_request\` / \`VALIDATION_ERROR\` in the deployment's default form.

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
  { name: "Keywords", description: "Tracked search keywords and their positions." },
  { name: "Citations", description: "Observations of AI engines citing a site." },
  { name: "API keys", description: "A signed-in user's API keys (JWT)." },
  { name: "Tool server (MCP)", description: "The tools over JSON-RPC 2.0: SSE, direct POST, Streamable HTTP." },
  { name: "Operations", description: "Probes and metrics, outside `/api/v1` and its rate limits." },
  { name: "Reference", description: "This document and its interactive page." },
];

export const createApiDocument = (): oas31.OpenAPIObject =>
  createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "aeo-scan API",
        version: "1.0.0",
        description: INTRODUCTION,
      },
      tags: TAGS,
      paths: { ...scanPaths, ...generatorPaths, ...accountPaths, ...auditPaths, ...mcpPaths, ...servicePaths },
      components: { schemas: SCHEMAS, securitySchemes },
    },
    { outputIdSuffix: "Output" },
  ) as oas31.OpenAPIObject;
