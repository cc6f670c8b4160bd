import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { AllowHeader, RetryAfter, security } from "../docs/common";
import { type DocumentedOperation, operationsIn } from "../docs/openapi";

/**
 * The tool server's operations in the API reference. Its router (mcp.route.ts) is mounted whole,
 * not declared route by route, so its operations are written here, beside it. The tool server (docs/spec/public-scanning-api.md §4.8): JSON-RPC 2.0 over the MCP transports. Its messages are MCP's
 * (`initialize`, `tools/list`, `tools/call`, ...), validated by the MCP SDK; `tools/list`
 * answers each tool's input and output JSON Schema, so the shapes below stop at the envelope.
 */

const TOOLS = [
  "aeo_scan",
  "aeo_score",
  "aeo_fix",
  "aeo_generate",
  "aeo_audit_site",
  "aeo_visibility_profile",
  "aeo_list_prompts",
  "aeo_add_prompt",
  "aeo_remove_prompt",
  "aeo_list_competitors",
  "aeo_add_competitor",
  "aeo_remove_competitor",
  "aeo_visibility_run_start",
  "aeo_visibility_run",
  "aeo_visibility_samples",
  "aeo_import_keywords",
] as const;

const JsonRpcId = z.union([z.string(), z.int()]);

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    /** absent on notifications, which get no answer */
    id: JsonRpcId.optional(),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: "JsonRpcMessage",
    description: [
      "A JSON-RPC 2.0 request (with `id`) or notification (without). Methods: `initialize`, `ping`, `tools/list`, `tools/call` (params `{name, arguments}`).",
      "",
      "| tool | arguments | answers |",
      "|---|---|---|",
      "| `aeo_scan` | `url`, `mode` (`quick` \\| `full`, optional) | the scan result with grade, as `POST /api/v1/scan`'s `data` |",
      "| `aeo_score` | `url` | a quick score summary with the top problems |",
      "| `aeo_fix` | `url`, `issues` (check ids, optional) | generated llms.txt, JSON-LD, robots.txt, ai-catalog.json and WebMCP form annotations |",
      "| `aeo_generate` | `url`, `content_type` (`faq` \\| `blog` \\| `product`), `topic` (optional) | generated FAQ, blog outline or product description |",
      "| `aeo_audit_site` | `url` (starts an audit of its site; `mode`, `max_pages` optional) or `audit_id` (reads one) | the audit: progress, and the site report once completed |",
      "| `aeo_visibility_profile` | `site_id` | the site's visibility profile, as `GET /api/v1/sites/{id}/visibility` |",
      "| `aeo_list_prompts`, `aeo_list_competitors` | `site_id`, `page`, `limit` (optional) | a page of the site's prompts or competitors |",
      "| `aeo_add_prompt` | `site_id`, `text`, `topic`, `tags`, `locale` (optional) | the prompt tracked |",
      "| `aeo_add_competitor` | `site_id`, `name`, `aliases`, `domains` (optional) | the competitor, within the plan's number per site |",
      "| `aeo_remove_prompt`, `aeo_remove_competitor` | `site_id`, `prompt_id` or `competitor_id` | `{id, deleted}` |",
      "| `aeo_visibility_run_start` | `site_id` | the run started (queued), as `POST /api/v1/sites/{id}/visibility/runs` |",
      "| `aeo_visibility_run` | `run_id` | the run's status, progress, spend and measures, as `GET /api/v1/visibility/runs/{id}` |",
      "| `aeo_visibility_samples` | `run_id`, `engine`, `prompt_id`, `page`, `limit` (optional) | a page of the run's answers with their citations |",
      "| `aeo_import_keywords` | `site_id`, `csv` (Search Console's `Queries.csv`) | what the import created, updated and skipped, as `POST /api/v1/sites/{id}/keywords/import` |",
    ].join("\n"),
  });

const JsonRpcError = z.object({
  code: z.int(),
  message: z.string(),
  /** refusals carry `{status, code, hint, retryAfter?}`: the HTTP status and the REST API's Form A code */
  data: z.unknown().optional(),
});

const JsonRpcResponse = z
  .xor([
    z.object({ jsonrpc: z.literal("2.0"), id: JsonRpcId, result: z.record(z.string(), z.unknown()) }),
    z.object({ jsonrpc: z.literal("2.0"), id: JsonRpcId.nullable(), error: JsonRpcError }),
  ])
  .meta({ id: "JsonRpcResponse", description: "A JSON-RPC 2.0 answer: `result`, or `error`." });

const JsonRpcBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1)]);

const examples = {
  toolsList: { summary: "List the tools", value: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
  toolsCall: {
    summary: "Call aeo_score",
    value: {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: TOOLS[1], arguments: { url: "https://example.com" } },
    },
  },
};

const rpcBody = {
  required: true,
  content: { "application/json": { schema: JsonRpcBody, examples } },
};

const answers: ZodOpenApiResponseObject = {
  description:
    "The answer (or a batch of answers). Bad arguments and unknown tools are JSON-RPC errors (`-32602`); a scan that fails is a result with `isError: true`.",
  content: { "application/json": { schema: z.union([JsonRpcResponse, z.array(JsonRpcResponse)]) } },
};

/** A refusal before any message reaches the server, as a JSON-RPC error with the REST API's status. */
const refusal = (description: string, headers?: Record<string, z.ZodType>): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers: z.object(headers) } : {}),
  content: { "application/json": { schema: JsonRpcResponse } },
});

const refusals = {
  "400": refusal("`-32700` the body is not JSON; `-32600` not `application/json`."),
  "401": refusal("`-32000` no key, or a refused one (`data.code: unauthenticated`), with `WWW-Authenticate: Bearer`."),
  "403": refusal("`-32000` `data.code: forbidden`: another key on an SSE session, or too many open sessions."),
  "413": refusal("`-32600` the body is over BODY_LIMIT_BYTES."),
  "429": refusal("`-32000` `data.code: rate_limited`: each `tools/call` counts against the key's hourly limit.", {
    "Retry-After": RetryAfter,
  }),
  "503": refusal("`-32000` `data.code: service_unavailable`: the rate counters are unreachable."),
};

const notServed = (operationId: string, description: string) => ({
  operationId,
  tags: ["Tool server (MCP)"],
  summary: description,
  description:
    "The Streamable HTTP endpoint is stateless: no stream to resume and no session to end, which MCP clients accept as 405.",
  security: security.toolServer,
  responses: {
    "405": refusal("`-32000` `data.code: method_not_allowed`.", { Allow: AllowHeader }),
  },
});

const mcpPaths: ZodOpenApiPathsObject = {
  "/mcp/sse": {
    get: {
      operationId: "mcpSseOpen",
      tags: ["Tool server (MCP)"],
      summary: "Open an SSE session (MCP 2024-11-05)",
      description:
        "The stream's first event is `endpoint`, whose data is the URL to POST messages to (`/mcp/sse?sessionId=<uuid>`); answers arrive as `message` events. A comment line every 15 s keeps idle streams open. The key that opened the stream is the session's; sessions live in the gateway process that opened them.",
      security: security.toolServer,
      responses: {
        "200": {
          description: "An event stream.",
          content: { "text/event-stream": { schema: z.string() } },
        },
        "401": refusals["401"],
        "403": refusals["403"],
        "429": refusals["429"],
        "503": refusals["503"],
      },
    },
    post: {
      operationId: "mcpSsePost",
      tags: ["Tool server (MCP)"],
      summary: "Send JSON-RPC messages",
      description:
        "Without `sessionId`: one message or a batch, answered in this response, no handshake needed (`tools/list` and `tools/call` work at once, as in the example of §4.8 of the specification). With the `sessionId` an SSE stream announced: 202, and the answers arrive on the stream; such POSTs need no key of their own (the session's is checked again), and one that carries a key must carry the session's.",
      security: [...security.toolServer, {}],
      requestParams: {
        query: z.object({
          sessionId: z.uuid().optional().meta({ description: "The session the SSE stream announced." }),
        }),
      },
      requestBody: rpcBody,
      responses: {
        "200": answers,
        "202": {
          description: "Accepted: notifications only, or a message for an SSE session (answered on its stream).",
        },
        ...refusals,
        "404": refusal("`-32001` Session not found: open a new one with `GET /mcp/sse`."),
      },
    },
  },
  "/mcp": {
    post: {
      operationId: "mcpStreamableHttp",
      tags: ["Tool server (MCP)"],
      summary: "Streamable HTTP (MCP 2025-03-26 and later)",
      description:
        "Stateless, JSON responses: any gateway process answers any request. As the transport requires, `Accept` must name both `application/json` and `text/event-stream`.",
      security: security.toolServer,
      requestParams: {
        header: z.object({
          Accept: z.string().meta({ example: "application/json, text/event-stream" }),
          "Mcp-Protocol-Version": z.string().optional().meta({ example: "2025-06-18" }),
        }),
      },
      requestBody: rpcBody,
      responses: {
        "200": answers,
        "202": { description: "Accepted: the body held only notifications." },
        ...refusals,
        "406": refusal("`Accept` does not name both `application/json` and `text/event-stream`."),
      },
    },
    get: notServed("mcpStreamableHttpStream", "No server-initiated stream"),
    delete: notServed("mcpStreamableHttpEnd", "No session to end"),
  },
};

/** The tool server's operations, as the app mounts its router (GET and DELETE /mcp: the 405 its path answers). */
export const MCP_OPERATIONS: DocumentedOperation[] = operationsIn(mcpPaths);
