import {
  DeletedRecord,
  KeywordIdParam,
  KeywordImportResult,
  KeywordListQuery,
  KeywordView,
  RecordKeywordRequest,
  RenameKeywordRequest,
  SearchConsoleImportRequest,
  SiteIdParam,
} from "@scan/contract";
import { z } from "zod";
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
import type { KeywordService } from "./keyword-service";
import { QUERIES_HINT } from "./search-console-import";

const SITE_HINT = "Use a site id from GET /api/v1/sites.";
const SEARCH_CONSOLE_HINT =
  'Send {"access_token": "<OAuth access token>", "property": "sc-domain:acme.com", "start_date": "2026-10-01", "end_date": "2026-10-31"} as JSON; search_type (web, image, video, news, discover, googleNews; default web) and row_limit (1 to 1,000; default 1,000) are optional.';

/** Search Console's queries export as the body parser reads it. */
const QueriesCsv = z.string().meta({
  description:
    "Search Console's performance export of queries (`Queries.csv` in the zip of Export → Download CSV): RFC 4180, UTF-8, a byte-order mark allowed; comma, or semicolon or tab when the header row has no comma. The header row names the columns, in any order and case: `Top queries` (or `Query`), `Clicks`, `Impressions`, `Position` (the average position; a decimal point, or a decimal comma in a file not separated by commas), and `CTR`, which is read past (it is clicks over impressions). A blank row is skipped.",
  example: "Top queries,Clicks,Impressions,CTR,Position\nacme project tracker,120,1500,8%,2.4\n",
});

const QUERY_HINT = "page ≥ 1; limit from 1 to 100; site_id: a site id from GET /api/v1/sites.";
const ID_HINT = "Use a keyword id from GET /api/v1/keywords.";
const BODY_HINT =
  'Send {"site_id": "<site id>", "keyword": "best crm", "position": 4, "volume": 1900, "difficulty": 42} as JSON.';

/**
 * GET /api/v1/keywords (docs/spec/public-scanning-api.md §4.5) and POST /api/v1/keywords, for the
 * key holder's own sites, and the import of a site's Search Console queries.
 */
export const keywordRoutes = (keywords: KeywordService): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/keywords/import",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: QueriesCsv, hint: QUERIES_HINT, mediaType: "text/csv" },
      idempotent: true,
      docs: {
        operationId: "importSearchConsoleQueries",
        tags: ["Keywords"],
        summary: "Import a site's keywords from Search Console's queries export",
        description:
          "The body is `Queries.csv` from Search Console's performance report (`Content-Type: text/csv`), at most 1,000 queries and the server's body limit. Each query becomes one of the site's keywords (trimmed, whitespace-collapsed and lower-cased, as recorded), its position the average position rounded to the nearest whole rank, with the period's `clicks` and `impressions`. A query the site does not track yet is created with `trend: new`, its impressions standing for `volume` (Search Console reports no search volume) and `difficulty` 0 (it has no such measure); a query tracked already gets the new position, the stored one moving to `previous_position` and `trend` set from the two, so successive imports of successive periods give the trend; its volume and difficulty stay. **All or nothing**: a file or a row at fault (a blank query, clicks or impressions that are not whole numbers, a position below 1, clicks above impressions, more cells than the header) refuses the whole file with 400, its message naming up to 10 rows by number (the header is row 1), and nothing is stored. A query repeated once normalised, longer than 200 characters or at an average position past 1,000 is skipped and listed in `skipped` with why. 201 when a keyword was created, 200 when every query was tracked already. Another workspace's or an unknown site is 404.",
        headers: creatingHeaders,
        responses: {
          "200": created("Every query was tracked already: their positions and trends updated.", KeywordImportResult),
          "201": created("The keywords created and updated, and the queries skipped.", KeywordImportResult),
          ...apiErrors(400, 401, 404, 405, 409, 413, 415, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body }) => {
      const result = await keywords.importCsv(ownerOf(caller), params.id, body);
      return reply(result, { status: result.created > 0 ? 201 : 200 });
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/keywords/search-console",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: SearchConsoleImportRequest, hint: SEARCH_CONSOLE_HINT, report: "names" },
      docs: {
        operationId: "importSearchConsoleApi",
        tags: ["Keywords"],
        summary: "Import a site's keywords from the Search Console API",
        description:
          "Asks Search Console's API (searchanalytics.query, grouped by query, the most clicked first, at most `row_limit` of 1,000) for the `property`'s queries from `start_date` to `end_date` (YYYY-MM-DD, inclusive), with the caller's OAuth 2.0 `access_token` (scope `webmasters.readonly`), and imports them as `POST /api/v1/sites/{id}/keywords/import` does a queries export: the same positions, clicks, impressions, trend and skips. The token is used for this one request only: never stored, logged or answered. `property` must cover the site: `sc-domain:` its domain or a parent of it, or a URL prefix on its origin (400 otherwise). Search Console refusing the token (401) or the property (403), or the query (400, 404), is 400 with Google's reason; Search Console failing or not answering is 502. 201 when a keyword was created, 200 when every query was tracked already. Another workspace's or an unknown site is 404.",
        headers: creatingHeaders,
        responses: {
          "200": created("Every query was tracked already: their positions and trends updated.", KeywordImportResult),
          "201": created("The keywords created and updated, and the queries skipped.", KeywordImportResult),
          ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 502, 503),
        },
      },
    },
    async ({ caller, params, body }) => {
      const result = await keywords.importFromSearchConsole(ownerOf(caller), params.id, body);
      return reply(result, { status: result.created > 0 ? 201 : 200 });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/keywords",
      reach: KEY_REACH.list,
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
      reach: KEY_REACH.bodySite,
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
