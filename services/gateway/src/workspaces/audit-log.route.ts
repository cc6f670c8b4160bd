import { AuditLogEntryView, AuditLogQuery, WorkspaceIdParam } from "@scan/contract";
import { apiErrors, commonHeaders, cursorPage } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { AuditLogService } from "./audit-log-service";

/** GET /api/v1/workspaces/:id/audit-log: who changed what in the workspace, for its owners and admins. */
export const auditLogRoutes = (auditLog: AuditLogService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/workspaces/:id/audit-log",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: "Use a workspace id from GET /api/v1/workspaces." },
      query: {
        schema: AuditLogQuery,
        hint: "limit from 1 to 100; cursor is a previous page's meta.next_cursor; action one of the log's actions; actor a user id or an API key id.",
        report: "names",
      },
      docs: {
        operationId: "listWorkspaceAuditLog",
        tags: ["Workspaces"],
        summary: "The workspace's audit log",
        description:
          "Who changed what in the workspace, newest first: members invited, joining, removed, leaving and given roles; API keys made and revoked; clients, sites and audit schedules made, changed and deleted; the workspace renamed. Each entry names its actor (a member's `user_id` and `email`, or an API key's `key_id` and `key_prefix`), the record (`target`), the request (`request_id`, `ip`) and the fields changed (`changes`: a value, or `{from, to}`); never a key, a link, a password or an alert's URL. Paged by cursor: `meta.next_cursor` is the next page's `cursor`, null on the last. `action` and `actor` (a user id or a key id) filter it. The workspace's owners and admins read it; a member or viewer is 403, a workspace the caller is not a member of 404. Entries cannot be changed or deleted; they are kept as long as the workspace's plan keeps them (the worker's `AUDIT_LOG_RETENTION_DAYS_<PLAN>`, else `AUDIT_LOG_RETENTION_DAYS`).",
        headers: commonHeaders,
        responses: {
          "200": cursorPage("A page of the audit log.", AuditLogEntryView),
          ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { entries, nextCursor } = await auditLog.list(caller, params.id, query);
      return reply(entries, {
        meta: { limit: query.limit, next_cursor: nextCursor },
        headers: { "Cache-Control": "no-store" },
      });
    },
  ),
];
