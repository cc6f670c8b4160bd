import {
  KeywordIdParam,
  KeywordListQuery,
  RecordKeywordRequest,
  RenameKeywordRequest,
  successBody,
} from "@scan/contract";
import { sendPage } from "../http/pagination";
import { type Route, route } from "../http/route";
import type { KeywordService } from "./keyword-service";

const QUERY_HINT = "page ≥ 1; limit from 1 to 100; site_id: a site id from GET /api/v1/sites.";
const ID_HINT = "Use a keyword id from GET /api/v1/keywords.";
const BODY_HINT =
  'Send {"site_id": "<site id>", "keyword": "best crm", "position": 4, "volume": 1900, "difficulty": 42} as JSON.';

/** GET /api/v1/keywords (docs/spec/public-scanning-api.md §4.5) and POST /api/v1/keywords, for the key holder's own sites. */
export const keywordRoutes = (keywords: KeywordService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/keywords",
      authorization: "account",
      query: { schema: KeywordListQuery, hint: QUERY_HINT, report: "names" },
    },
    async ({ caller, query, req, res }) => {
      const { keywords: items, meta } = await keywords.list(caller.userId, query);
      await sendPage(req, res, items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/keywords",
      authorization: "account",
      body: { schema: RecordKeywordRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
    },
    async ({ caller, body: input, res }) => {
      const { keyword, created } = await keywords.record(caller.userId, input);
      res.status(created ? 201 : 200).json(successBody(res.locals.form, keyword, { requestId: res.locals.requestId }));
    },
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/keywords/:id",
      authorization: "account",
      params: { schema: KeywordIdParam, hint: ID_HINT },
      body: { schema: RenameKeywordRequest, hint: 'Send {"keyword": "best crm tools"} as JSON.', report: "names" },
    },
    async ({ caller, params, body: input, res }) => {
      const view = await keywords.rename(caller.userId, params.id, input.keyword);
      res.json(successBody(res.locals.form, view, { requestId: res.locals.requestId }));
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/keywords/:id",
      authorization: "account",
      params: { schema: KeywordIdParam, hint: ID_HINT },
    },
    async ({ caller, params, res }) => {
      res.json(
        successBody(res.locals.form, await keywords.remove(caller.userId, params.id), {
          requestId: res.locals.requestId,
        }),
      );
    },
  ),
];
