import { AuditIdParam, ScanIdParam } from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { apiErrors, apiHeaders, security } from "./common";

/** GET /api/v1/scan/{id}/events and GET /api/v1/audits/{id}/events: progress as server-sent events. */

const LastEventId = z
  .string()
  .optional()
  .meta({
    description:
      "Sent by an EventSource when it reconnects: the `id` of the last event it received. The stream then sends the current state only if it differs; when that id is already the final state's, the answer is 204 (which tells an EventSource to stop).",
    header: { id: "Last-Event-ID" },
  });

const STREAM_RULES = [
  "The answer is `text/event-stream`: first `retry: 2000`, then an event each time the state changes, its `id` naming the state (send it back as `Last-Event-ID` on reconnecting), and a `: keep-alive` comment every 15 seconds. The stream ends after the final state's event; it also ends after `PROGRESS_STREAM_LIFETIME_S` (300 s by default) and when the gateway shuts down, and the client reconnects with `Last-Event-ID`, authenticated again.",
  "",
  "**Who.** An API key or a dashboard session's JWT in the headers, as every endpoint; or, for a browser's `EventSource` (which cannot send headers), the dashboard's session cookie alone, from this gateway's own pages (a request whose `Origin` or `Referer` names another site is refused). No credential ever travels in the URL. Only the caller's own scans and audits: another user's is 404, as a missing one.",
  "",
  "**Counting.** Opening a stream is one request: a dashboard session's on the session's read budget (`RATE_LIMIT_SESSION_READS`), a key's against its plan. What the stream sends afterwards costs nothing. One user holds at most `PROGRESS_STREAMS_PER_USER` (4) streams open per gateway process; one more is 429.",
  "",
  "Errors before the stream opens (401, 404, 429, 503) are ordinary JSON in the request's envelope.",
].join("\n");

/** OpenAPI 3.1 has no schema for a stream's items: the event's data is named in words, by its component. */
const stream = (description: string, event: string, component: string) => ({
  description,
  headers: z.object(apiHeaders),
  content: {
    "text/event-stream": {
      schema: z.string().meta({
        description: `Events named \`${event}\`, each \`data\` one JSON object: a \`${component}\` (see the schemas).`,
        example: `retry: 2000\n\nevent: ${event}\nid: running\ndata: {"id":"…","status":"running",…}\n\n`,
      }),
    },
  },
});

export const progressPaths: ZodOpenApiPathsObject = {
  "/api/v1/scan/{id}/events": {
    get: {
      operationId: "streamScanProgress",
      tags: ["Scans"],
      summary: "A scan's progress, pushed",
      description: [
        "The scan's state as server-sent events named `scan`, each holding the stored scan as `GET /api/v1/scan/{id}` answers it (without its envelope), sent as its `status` moves `queued` → `running` → `completed` | `failed`; the event id is the status. The last event holds the finished scan with its scores and checks.",
        "",
        STREAM_RULES,
      ].join("\n"),
      security: security.apiKeyOrSessionCookie,
      requestParams: { path: ScanIdParam, header: z.object({ "Last-Event-ID": LastEventId }) },
      responses: {
        "200": stream("The scan's progress, until it has finished.", "scan", "StoredScan"),
        "204": { description: "The client already has the finished scan's event (its `Last-Event-ID`)." },
        ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
      },
    },
  },
  "/api/v1/audits/{id}/events": {
    get: {
      operationId: "streamAuditProgress",
      tags: ["Audits"],
      summary: "An audit's progress, pushed",
      description: [
        "The audit's state as server-sent events named `audit`, each holding the audit as `GET /api/v1/audits/{id}` answers it but without its `report` (read that once the audit has completed), sent when its status changes or a page is done; the event id is `<status>.<pages discovered>.<pages done>`.",
        "",
        STREAM_RULES,
      ].join("\n"),
      security: security.apiKeyOrSessionCookie,
      requestParams: { path: AuditIdParam, header: z.object({ "Last-Event-ID": LastEventId }) },
      responses: {
        "200": stream("The audit's progress, until it has completed, failed or been cancelled.", "audit", "AuditView"),
        "204": { description: "The client already has the finished audit's event (its `Last-Event-ID`)." },
        ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
      },
    },
  },
};
