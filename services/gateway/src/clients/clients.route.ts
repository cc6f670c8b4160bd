import {
  ClientIdParam,
  ClientListQuery,
  ClientView,
  CreateClientRequest,
  DeletedRecord,
  UpdateClientRequest,
} from "@scan/contract";
import { actorOf } from "../access/actor";
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
import type { ClientService } from "./client-service";

const ID_HINT = "Use a client id from GET /api/v1/clients.";
const BODY_HINT =
  'Send {"name": "Acme", "notes": "…", "scan_quota": 500, "audit_quota": 10, "audit_page_quota": 2000} as JSON; notes and quotas are optional (null clears them).';

/**
 * GET/POST /api/v1/clients and GET/PATCH/DELETE /api/v1/clients/:id: the workspace's clients.
 * A viewer reads them; a key limited to a client reads its own client alone and changes none.
 */
export const clientRoutes = (clients: ClientService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/clients",
      reach: KEY_REACH.list,
      authorization: "account",
      query: { schema: ClientListQuery, hint: "page ≥ 1; limit from 1 to 100.", report: "names" },
      docs: {
        operationId: "listClients",
        tags: ["Clients"],
        summary: "The workspace's clients",
        description: `Newest first, each with how many sites are assigned to it. A key limited to a client lists that client alone. ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of clients.", ClientView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) => {
      const { clients: items, meta } = await clients.list(caller.workspaceId, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/clients",
      reach: KEY_REACH.workspace,
      authorization: "account",
      body: { schema: CreateClientRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "createClient",
        tags: ["Clients"],
        summary: "Add a client",
        description:
          "A named group of the workspace's sites (`name` 1 to 100 characters, unique in the workspace: 409 otherwise; `notes` up to 2,000; `scan_quota`, `audit_quota` and `audit_page_quota`, the scans, audits and audit pages a calendar month (UTC) the client may use within the workspace's plan, null or absent for none). Sites are assigned with `PATCH /api/v1/sites/{id}` `{\"client_id\"}`. 403 for a key limited to a client.",
        headers: creatingHeaders,
        responses: {
          "201": created("The new client.", ClientView),
          ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, body, req, res }) =>
      reply(await clients.create(caller.workspaceId, body, actorOf(caller, req, res)), { status: 201 }),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/clients/:id",
      authorization: "account",
      params: { schema: ClientIdParam, hint: ID_HINT },
      docs: {
        operationId: "getClient",
        tags: ["Clients"],
        summary: "One of the workspace's clients",
        description:
          "Its sites are `GET /api/v1/sites?client_id=`. Another workspace's or an unknown client is 404, and so is any client but its own for a key limited to one.",
        headers: commonHeaders,
        responses: {
          "200": record("The client.", ClientView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => clients.get(caller.workspaceId, params.id),
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/clients/:id",
      authorization: "account",
      params: { schema: ClientIdParam, hint: ID_HINT },
      body: { schema: UpdateClientRequest, hint: BODY_HINT, report: "names" },
      docs: {
        operationId: "updateClient",
        tags: ["Clients"],
        summary: "Rename a client, or change its notes or quotas",
        description:
          "`name`, `notes` (null clears them), `scan_quota`, `audit_quota` and `audit_page_quota` (scans, audits and audit pages a calendar month, UTC; null removes the quota), or several. A scan beyond the client's `scan_quota`, or an audit beyond its `audit_quota` or started once its `audit_page_quota` is used up, is 403 `forbidden` / `PLAN_LIMIT` naming the client's quota, as the plan's quota is; an audit under way admits pages up to what the page quota leaves, and its crawl stops there (`crawl_limit` on the audit); this month's use is `GET /api/v1/usage`. Another name already in the workspace is 409. Another workspace's or an unknown client is 404; a key limited to a client changes none (403 for its own).",
        headers: commonHeaders,
        responses: {
          "200": record("The client, changed.", ClientView),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body, req, res }) =>
      clients.update(caller.workspaceId, params.id, body, actorOf(caller, req, res)),
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/clients/:id",
      authorization: "account",
      params: { schema: ClientIdParam, hint: ID_HINT },
      docs: {
        operationId: "deleteClient",
        tags: ["Clients"],
        summary: "Delete a client",
        description:
          "Its sites stay, with all their records, assigned to no client. 409 `conflict` while a live API key is limited to the client: revoke those keys first, since deleting the client would widen them to the workspace. Another workspace's or an unknown client is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 403, 404, 405, 409, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) => clients.remove(caller.workspaceId, params.id, actorOf(caller, req, res)),
  ),
];
