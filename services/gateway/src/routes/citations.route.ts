import { CitationListQuery, RecordCitationRequest, successBody } from "@scan/contract";
import type { CitationService } from "../domain/citation-service";
import { sendPage } from "../http/pagination";
import { type Route, route } from "../http/route";

const QUERY_HINT =
  "page ≥ 1; limit from 1 to 100; site_id: a site id; engine: chatgpt, claude, perplexity, gemini or all; date_range: 7d, 30d or 90d.";
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
    async ({ caller, query, req, res }) => {
      const { citations: items, meta } = await citations.list(caller.userId, query);
      await sendPage(req, res, items, meta);
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
    async ({ caller, body: input, res }) => {
      const track = await citations.record(caller.userId, input);
      res.status(201).json(successBody(res.locals.form, track, { requestId: res.locals.requestId }));
    },
  ),
];
