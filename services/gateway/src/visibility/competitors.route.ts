import {
  CompetitorIdParam,
  CompetitorListQuery,
  CompetitorView,
  CreateCompetitorRequest,
  DeletedRecord,
  SiteIdParam,
  UpdateCompetitorRequest,
} from "@scan/contract";
import { ownerOf } from "../access/authenticate";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  LIST_RULES,
  notModified,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { CompetitorService } from "./competitor-service";

const TAGS: ["Visibility"] = ["Visibility"];
const SITE_HINT = "Use a site id from GET /api/v1/sites.";
const COMPETITOR_HINT =
  "Use a site id from GET /api/v1/sites and a competitor id from GET /api/v1/sites/{id}/competitors.";
const BODY_HINT =
  'Send {"name": "Globex", "aliases": ["Globex Corp"], "domains": ["globex.example"]} as JSON; only name is required.';
const NOT_YOURS = "Another site's, another workspace's or an unknown competitor is 404.";

/** /api/v1/sites/:id/competitors…: the brands a site is measured against in AI answers. */
export const competitorRoutes = (competitors: CompetitorService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/competitors",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      query: {
        schema: CompetitorListQuery,
        hint: "page ≥ 1; limit from 1 to 100; q: a name to find (at most 100 characters).",
        report: "names",
      },
      docs: {
        operationId: "listCompetitors",
        tags: TAGS,
        summary: "A site's competitors",
        description: `Newest first. \`q\`: a case-insensitive substring of the name, matched literally, or one of the aliases exactly as stored. Another workspace's or an unknown site is 404. ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of competitors.", CompetitorView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { competitors: items, meta } = await competitors.list(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/competitors",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: CreateCompetitorRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "createCompetitor",
        tags: TAGS,
        summary: "Measure a site against a competitor",
        description:
          "`name`: at most 100 characters, one competitor per name and site ignoring case (409 `conflict`). `aliases`: up to 20 other names an answer may use. `domains`: up to 20 host names (or http(s) URLs whose host is taken); an IP address, a private or reserved host (the address policy) or a path is 400. A site has at most the plan's number of competitors (`COMPETITORS_FREE` 3, `_STARTER` 5, `_PRO` 10, `_AGENCY` 25 by default): one more is 403 `plan_limit`. Another workspace's or an unknown site is 404.",
        headers: creatingHeaders,
        responses: {
          "201": created("The competitor.", CompetitorView),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body }) =>
      reply(await competitors.create({ ...ownerOf(caller), plan: caller.plan }, params.id, body), { status: 201 }),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/competitors/:competitorId",
      authorization: "account",
      params: { schema: CompetitorIdParam, hint: COMPETITOR_HINT },
      docs: {
        operationId: "getCompetitor",
        tags: TAGS,
        summary: "One of a site's competitors",
        description: NOT_YOURS,
        headers: conditionalHeaders,
        responses: {
          "200": record("The competitor.", CompetitorView),
          "304": notModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) =>
      reply(await competitors.get(caller.workspaceId, params.id, params.competitorId), { revalidatable: true }),
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/sites/:id/competitors/:competitorId",
      authorization: "account",
      params: { schema: CompetitorIdParam, hint: COMPETITOR_HINT },
      body: { schema: UpdateCompetitorRequest, hint: BODY_HINT, report: "names" },
      docs: {
        operationId: "updateCompetitor",
        tags: TAGS,
        summary: "Change a site's competitor",
        description: `The fields sent are replaced (a list whole), with the rules of creation; a name another of the site's competitors has is 409 \`conflict\`. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The competitor, changed.", CompetitorView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    ({ caller, params, body }) => competitors.update(caller.workspaceId, params.id, params.competitorId, body),
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/competitors/:competitorId",
      authorization: "account",
      params: { schema: CompetitorIdParam, hint: COMPETITOR_HINT },
      docs: {
        operationId: "deleteCompetitor",
        tags: TAGS,
        summary: "Stop measuring a site against a competitor",
        description: NOT_YOURS,
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => competitors.remove(caller.workspaceId, params.id, params.competitorId),
  ),
];
