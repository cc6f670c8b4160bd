import {
  DeletedRecord,
  KeywordIdParam,
  KeywordListQuery,
  KeywordView,
  RecordKeywordRequest,
  RenameKeywordRequest,
} from "@scan/contract";
import { ownerOf } from "../access/authenticate";
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
      docs: {
        operationId: "listKeywords",
        tags: ["Keywords"],
        summary: "The caller's tracked keywords",
        description: `Of every site, or of one (\`site_id\`; another workspace's or an unknown site is 404). ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of keywords.", KeywordView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) => {
      const { keywords: items, meta } = await keywords.list(caller.workspaceId, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/keywords",
      authorization: "account",
      body: { schema: RecordKeywordRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "recordKeyword",
        tags: ["Keywords"],
        summary: "Record a keyword's position",
        description:
          "The keyword is trimmed, whitespace-collapsed and lower-cased. Its first record for a site is 201 with `trend: new`; a later one updates it in place (200): the stored position moves to `previous_position` and the trend is computed from the two.",
        headers: creatingHeaders,
        responses: {
          "200": created("The keyword, updated.", KeywordView),
          "201": created("The keyword, first recorded.", KeywordView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, body: input }) => {
      const { keyword, created } = await keywords.record(ownerOf(caller), input);
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
      docs: {
        operationId: "renameKeyword",
        tags: ["Keywords"],
        summary: "Reword a tracked keyword",
        description:
          "Changes the keyword's words (trimmed, whitespace-collapsed and lower-cased, as recorded); its positions, volume, difficulty and trend stay. 409 `conflict` when its site already tracks the new words; another workspace's or an unknown keyword is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("The keyword, reworded.", KeywordView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body: input }) => {
      const view = await keywords.rename(caller.workspaceId, params.id, input.keyword);
      return view;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/keywords/:id",
      authorization: "account",
      params: { schema: KeywordIdParam, hint: ID_HINT },
      docs: {
        operationId: "deleteKeyword",
        tags: ["Keywords"],
        summary: "Stop tracking a keyword",
        description:
          "Deletes the keyword and its recorded positions. Another workspace's or an unknown keyword is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      return keywords.remove(caller.workspaceId, params.id);
    },
  ),
];
