import { CitationIdParam, CitationListQuery, RecordCitationRequest, RenameCitationRequest } from "@scan/contract";
import type { CitationService } from "../domain/citation-service";
import { page, reply } from "../http/answer";
import { type Route, route } from "../http/route";

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
      authorization: "account",
      query: { schema: CitationListQuery, hint: QUERY_HINT, report: "names" },
    },
    async ({ caller, query }) => {
      const { citations: items, meta } = await citations.list(caller.userId, query);
      return page(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/citations",
      authorization: "account",
      body: { schema: RecordCitationRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
    },
    async ({ caller, body: input }) => {
      const track = await citations.record(caller.userId, input);
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
    },
    async ({ caller, params, body: input }) => {
      const view = await citations.rename(caller.userId, params.id, input.query_text);
      return view;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/citations/:id",
      authorization: "account",
      params: { schema: CitationIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      return citations.remove(caller.userId, params.id);
    },
  ),
];
