import { KeywordIdParam, KeywordListQuery, RecordKeywordRequest, RenameKeywordRequest } from "@scan/contract";
import type { KeywordService } from "../domain/keyword-service";
import { page, reply } from "../http/answer";
import { type Route, route } from "../http/route";

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
    async ({ caller, query }) => {
      const { keywords: items, meta } = await keywords.list(caller.userId, query);
      return page(items, meta);
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
    async ({ caller, body: input }) => {
      const { keyword, created } = await keywords.record(caller.userId, input);
      return reply(keyword, { status: created ? 201 : 200 });
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
    async ({ caller, params, body: input }) => {
      const view = await keywords.rename(caller.userId, params.id, input.keyword);
      return view;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/keywords/:id",
      authorization: "account",
      params: { schema: KeywordIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      return keywords.remove(caller.userId, params.id);
    },
  ),
];
