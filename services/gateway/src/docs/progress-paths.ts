import { AuditIdParam, ScanIdParam } from "@scan/contract";
import { z } from "zod";
import type { ZodOpenApiPathItemObject, ZodOpenApiPathsObject } from "zod-openapi";
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

type StreamOperation = {
  operationId: string;
  tag: string;
  summary: string;
  /** what the events hold and when they come; the rules common to both streams follow it */
  events: string;
  path: typeof ScanIdParam | typeof AuditIdParam;
  /** the event's name, and the schema component its data is */
  event: string;
  component: string;
  /** what the 200 streams, and of what the 204 says the client has the end */
  until: string;
  thing: string;
};

const streamOperation = (op: StreamOperation): ZodOpenApiPathItemObject => ({
  get: {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [op.events, "", STREAM_RULES].join("\n"),
    security: security.apiKeyOrSessionCookie,
    requestParams: { path: op.path, header: z.object({ "Last-Event-ID": LastEventId }) },
    responses: {
      "200": stream(op.until, op.event, op.component),
      "204": { description: `The client already has the finished ${op.thing}'s event (its \`Last-Event-ID\`).` },
      ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
    },
  },
});

export const progressPaths: ZodOpenApiPathsObject = {
  "/api/v1/scan/{id}/events": streamOperation({
    operationId: "streamScanProgress",
    tag: "Scans",
    summary: "A scan's progress, pushed",
    events:
      "The scan's state as server-sent events named `scan`, each holding the stored scan as `GET /api/v1/scan/{id}` answers it (without its envelope), sent as its `status` moves `queued` → `running` → `completed` | `failed`; the event id is the status. The last event holds the finished scan with its scores and checks.",
    path: ScanIdParam,
    event: "scan",
    component: "StoredScan",
    until: "The scan's progress, until it has finished.",
    thing: "scan",
  }),
  "/api/v1/audits/{id}/events": streamOperation({
    operationId: "streamAuditProgress",
    tag: "Audits",
    summary: "An audit's progress, pushed",
    events:
      "The audit's state as server-sent events named `audit`, each holding the audit as `GET /api/v1/audits/{id}` answers it but without its `report` (read that once the audit has completed), sent when its status changes or a page is done; the event id is `<status>.<pages discovered>.<pages done>`.",
    path: AuditIdParam,
    event: "audit",
    component: "AuditView",
    until: "The audit's progress, until it has completed, failed or been cancelled.",
    thing: "audit",
  }),
};
