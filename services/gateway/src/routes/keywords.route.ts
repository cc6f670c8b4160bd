import { KeywordListQuery, pageBody, RecordKeywordRequest, successBody } from "@scan/contract";
import { type Request, type Response, Router } from "express";
import type { KeywordService } from "../domain/keyword-service";
import { methodNotAllowed } from "../infra/http";
import { keyHolderOf, parseBody, parseQuery } from "../infra/request-input";

const QUERY_HINT = "page ≥ 1; limit from 1 to 100; site_id: a site id from GET /api/v1/sites.";
const BODY_HINT =
  'Send {"site_id": "<site id>", "keyword": "best crm", "position": 4, "volume": 1900, "difficulty": 42} as JSON.';

/** GET /api/v1/keywords (docs/spec/public-scanning-api.md §4.5) and POST /api/v1/keywords, for the key holder's own sites. */
export const keywordRoutes = (keywords: KeywordService): Router => {
  const router = Router();

  router
    .route("/api/v1/keywords")
    .get(async (req: Request, res: Response) => {
      const { userId } = keyHolderOf(res);
      const query = parseQuery(KeywordListQuery, req, QUERY_HINT);
      const { keywords: items, meta } = await keywords.list(userId, query);
      res.json(pageBody(res.locals.form, items, meta));
    })
    .post(async (req: Request, res: Response) => {
      const { userId } = keyHolderOf(res);
      const input = parseBody(RecordKeywordRequest, req, BODY_HINT);
      const { keyword, created } = await keywords.record(userId, input);
      res.status(created ? 201 : 200).json(successBody(res.locals.form, keyword, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["GET", "POST"]));

  return router;
};
