import { UsageQuery, UsageView } from "@scan/contract";
import { KEY_REACH } from "../access/key-scope";
import { apiErrors, commonHeaders, NoStore, record } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { UsageService } from "./usage-service";

/**
 * GET /api/v1/usage: this month's scans and audits, the workspace's against its plan and each
 * client's against the client's quotas. Beside GET /api/v1/account, which shows the plan's.
 */
export const usageRoutes = (usage: UsageService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/usage",
      reach: KEY_REACH.list,
      authorization: "account",
      query: { schema: UsageQuery, hint: "client_id is a client's id from GET /api/v1/clients.", report: "names" },
      docs: {
        operationId: "getUsage",
        tags: ["Account"],
        summary: "This month's usage, by client and by API key",
        description:
          "Scans and audits stored this calendar month (UTC), as the quotas count them: the workspace's against its plan's monthly scan quota (`workspace.scans.limit`, null when unlimited; audits have no plan quota), and each client's against the client's own `scan_quota` and `audit_quota` (null: none). A scan counts for the client its key is limited to, else for the client of the workspace's site whose origin its URL is on; an audit for its site's client when it was made, and its pages (`audit_pages`, against `audit_page_quota`) in the month it started; `unassigned` is what counted for no client. Scans the service could not queue are not counted, as for the plan's quota. `client_id` keeps one client (`workspace` and `unassigned` are then null); another workspace's or an unknown client is 404. `keys` is each API key's scans and audits this month, as made with it (a session's or a schedule's count for no key): the live keys and the revoked ones with usage, newest first; with one client, the keys limited to that client alone. A key limited to a client sees its own client alone.",
        headers: commonHeaders,
        responses: {
          "200": record("This month's usage.", UsageView, { headers: { "Cache-Control": NoStore } }),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) =>
      reply(await usage.ofWorkspace(caller, query), { headers: { "Cache-Control": "no-store" } }),
  ),
];
