import { CitationListQuery, pageBody, RecordCitationRequest, successBody } from "@scan/contract";
import { type Request, type Response, Router } from "express";
import type { CitationService } from "../domain/citation-service";
import { methodNotAllowed } from "../infra/http";
import { keyHolderOf, parseBody, parseQuery } from "../infra/request-input";

const QUERY_HINT =
  "page ≥ 1; limit from 1 to 100; site_id: a site id; engine: chatgpt, claude, perplexity, gemini or all; date_range: 7d, 30d or 90d.";
const BODY_HINT =
  'Send {"site_id": "<site id>", "platform": "chatgpt", "query_text": "best crm", "cited": true, "citation_url": "https://example.com/crm", "checked_at": "<ISO 8601, optional>"} as JSON.';

/** GET /api/v1/citations (docs/spec/public-scanning-api.md §4.6) and POST /api/v1/citations, for the key holder's own sites. */
export const citationRoutes = (citations: CitationService): Router => {
  const router = Router();

  router
    .route("/api/v1/citations")
    .get(async (req: Request, res: Response) => {
      const { userId } = keyHolderOf(res);
      const query = parseQuery(CitationListQuery, req, QUERY_HINT);
      const { citations: items, meta } = await citations.list(userId, query);
      res.json(pageBody(res.locals.form, items, meta));
    })
    .post(async (req: Request, res: Response) => {
      const { userId } = keyHolderOf(res);
      const input = parseBody(RecordCitationRequest, req, BODY_HINT);
      const track = await citations.record(userId, input);
      res.status(201).json(successBody(res.locals.form, track, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["GET", "POST"]));

  return router;
};
