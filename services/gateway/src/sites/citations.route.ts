import {
  CitationIdParam,
  CitationListQuery,
  CitationView,
  DeletedRecord,
  RecordCitationRequest,
  RenameCitationRequest,
} from "@scan/contract";
import { ownerOf } from "../access/authenticate";
import { KEY_REACH } from "../access/key-scope";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  LIST_RULES,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { CitationService } from "./citation-service";

const QUERY_HINT =
  "page ≥ 1; limit from 1 to 100; site_id: a site id; engine: chatgpt, claude, perplexity, gemini or all; date_range: 7d, 30d or 90d.";
const ID_HINT = "Use a track id from GET /api/v1/citations.";
const BODY_HINT =
  'Send {"site_id": "<site id>", "platform": "chatgpt", "query_text": "best crm", "cited": true, "citation_url": "https://example.com/crm", "checked_at": "<ISO 8601, optional>"} as JSON.';

/** GET /api/v1/citations (docs/spec/public-scanning-api.md §4.6) and POST /api/v1/citations, for the key holder's own sites. */
export const citationRoutes = (citations: CitationService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/citations",
      reach: KEY_REACH.list,
      authorization: "account",
      query: { schema: CitationListQuery, hint: QUERY_HINT, report: "names" },
      docs: {
        operationId: "listCitations",
        tags: ["Citations"],
        summary: "The caller's citation tracks",
        description: `Observations of whether an AI engine's answer cited the site, \`checked_at\` within the \`date_range\` (last 30 days by default). ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of citation tracks.", CitationView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) => {
      const { citations: items, meta } = await citations.list(caller.workspaceId, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/citations",
      reach: KEY_REACH.bodySite,
      authorization: "account",
      body: { schema: RecordCitationRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "recordCitation",
        tags: ["Citations"],
        summary: "Record an observation",
        description:
          "`citation_url` is required when `cited` is true. `checked_at` (ISO 8601 with `Z` or an offset) defaults to now and may be at most 5 minutes ahead of the server's clock. Each call stores one more track.",
        headers: creatingHeaders,
        responses: {
          "201": created("The stored track.", CitationView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, body: input }) => {
      const track = await citations.record(ownerOf(caller), input);
      return reply(track, { status: 201 });
    },
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/citations/:id",
      authorization: "account",
      params: { schema: CitationIdParam, hint: ID_HINT },
      body: {
        schema: RenameCitationRequest,
        hint: 'Send {"query_text": "best crm for startups?"} as JSON.',
        report: "names",
      },
      docs: {
        operationId: "renameCitation",
        tags: ["Citations"],
        summary: "Correct a citation track's query",
        description:
          "Changes the wording of the query the engine was asked (1 to 500 characters, trimmed); the engine, the answer observed and its time stay. Another workspace's or an unknown track is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("The track, corrected.", CitationView),
          ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body: input }) => {
      const view = await citations.rename(caller.workspaceId, params.id, input.query_text);
      return view;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/citations/:id",
      authorization: "account",
      params: { schema: CitationIdParam, hint: ID_HINT },
      docs: {
        operationId: "deleteCitation",
        tags: ["Citations"],
        summary: "Delete a citation track",
        description: "Deletes one observation. Another workspace's or an unknown track is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      return citations.remove(caller.workspaceId, params.id);
    },
  ),
];
