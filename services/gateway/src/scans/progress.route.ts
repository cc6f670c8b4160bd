import { AuditIdParam, type AuditView, FINISHED_AUDIT_STATUSES, ScanIdParam, type StoredScan } from "@scan/contract";
import { toStoredScan } from "@scan/reports";
import type { Request, Response } from "express";
import { z } from "zod";
import type { AuditService } from "../audits";
import { apiErrors, apiHeaders } from "../docs/common";
import { type EventStream, type EventStreams, pause } from "../http/event-stream";
import { type Route, type RouteDocs, route } from "../http/route";
import type { ScanService } from "./scan-service";

export type ProgressDeps = {
  scans: Pick<ScanService, "get">;
  audits: Pick<AuditService, "progress">;
  streams: EventStreams;
  /** how often a watched row is read again */
  pollMs: number;
  /** wakes before `ms` when the scan's job ends (the gateway's one QueueEvents), so its last event is not a poll late */
  scanEnded: (scanId: string, ms: number, signal: AbortSignal) => Promise<unknown>;
};

/** What one watched thing offers a stream: its current state, the state's event id, and whether it is final. */
type Watched<T> = {
  read: () => Promise<T>;
  idOf: (state: T) => string;
  final: (state: T) => boolean;
  /** waits until the next read is due (or sooner) */
  next: (signal: AbortSignal) => Promise<unknown>;
};

const scanFinished = (scan: StoredScan) => scan.status === "completed" || scan.status === "failed";
const auditFinished = (audit: AuditView) => FINISHED_AUDIT_STATUSES.includes(audit.status);
/** An audit's state moves with its status and with each page that is done: both are in its event id. */
const auditEventId = ({ status, progress: p }: AuditView) =>
  `${status}.${p.discovered}.${p.scanned + p.failed + p.blocked + p.cancelled}`;

/**
 * Sends `event` each time the watched state changes, until it is final; the first read happens
 * before the stream opens, so a missing or foreign id is an ordinary 404 envelope. A client that
 * reconnects with the final state's id as Last-Event-ID gets 204, which tells an EventSource to
 * stop reconnecting.
 */
const follow = async <T>(
  owner: string,
  req: Request,
  res: Response,
  streams: EventStreams,
  event: string,
  watched: Watched<T>,
): Promise<void> => {
  let state = await watched.read();
  const lastSeen = req.get("last-event-id");
  if (watched.final(state) && lastSeen === watched.idOf(state)) {
    res.status(204).end();
    return;
  }
  // a HEAD has no body to stream: its headers are the answer, and the connection is free at once
  if (req.method === "HEAD") {
    res
      .status(200)
      .setHeader("Content-Type", "text/event-stream; charset=utf-8")
      .setHeader("Cache-Control", "no-store");
    res.end();
    return;
  }
  const stream: EventStream = streams.start(owner, req, res);
  let sent = lastSeen;
  while (!stream.signal.aborted) {
    const id = watched.idOf(state);
    if (id !== sent) {
      stream.send(event, id, state);
      sent = id;
    }
    if (watched.final(state)) break;
    await watched.next(stream.signal);
    if (stream.signal.aborted) break;
    try {
      state = await watched.read();
    } catch {
      // deleted meanwhile, or Postgres away for a moment: the client reconnects and is told which
      break;
    }
  }
  stream.end();
};

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
  "**Who.** An API key or a dashboard session's JWT in the headers, as every endpoint; or, for a browser's `EventSource` (which cannot send headers), the dashboard's session cookie alone, from this gateway's own pages (a request whose `Origin` or `Referer` names another site is refused). No credential ever travels in the URL. Only the scans and audits of the caller's workspace: another workspace's is 404, as a missing one.",
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

type StreamDocs = {
  operationId: string;
  tag: string;
  summary: string;
  /** what the events hold and when they come; the rules common to both streams follow it */
  events: string;
  /** the event's name, and the schema component its data is */
  event: string;
  component: string;
  /** what the 200 streams, and of what the 204 says the client has the end */
  until: string;
  thing: string;
};

const streamDocs = (op: StreamDocs): RouteDocs => ({
  operationId: op.operationId,
  tags: [op.tag],
  summary: op.summary,
  description: [op.events, "", STREAM_RULES].join("\n"),
  headers: z.object({ "Last-Event-ID": LastEventId }),
  responses: {
    "200": stream(op.until, op.event, op.component),
    "204": { description: `The client already has the finished ${op.thing}'s event (its \`Last-Event-ID\`).` },
    ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
  },
});

/**
 * GET /api/v1/scan/:id/events and GET /api/v1/audits/:id/events: a scan's or an audit's progress
 * as server-sent events, for the dashboard's report pages (docs/api.md, Progress streams). The
 * caller's own scans and audits only; a browser's EventSource, which cannot send headers, is
 * authenticated by the dashboard's session cookie.
 */
export const progressRoutes = ({ scans, audits, streams, pollMs, scanEnded }: ProgressDeps): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/scan/:id/events",
      authorization: "account-or-cookie",
      params: { schema: ScanIdParam, hint: "Use the id returned by POST /api/v1/scan." },
      docs: streamDocs({
        operationId: "streamScanProgress",
        tag: "Scans",
        summary: "A scan's progress, pushed",
        events:
          "The scan's state as server-sent events named `scan`, each holding the stored scan as `GET /api/v1/scan/{id}` answers it (without its envelope), sent as its `status` moves `queued` → `running` → `completed` | `failed`; the event id is the status. The last event holds the finished scan with its scores and checks.",
        event: "scan",
        component: "StoredScan",
        until: "The scan's progress, until it has finished.",
        thing: "scan",
      }),
    },
    async ({ caller, params, req, res }) =>
      follow(caller.userId, req, res, streams, "scan", {
        read: async () => toStoredScan(await scans.get(params.id, caller.workspaceId)),
        idOf: (scan) => scan.status,
        final: scanFinished,
        next: (signal) => scanEnded(params.id, pollMs, signal),
      }),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/events",
      authorization: "account-or-cookie",
      params: { schema: AuditIdParam, hint: "Use an audit id from POST /api/v1/sites/{id}/audits." },
      docs: streamDocs({
        operationId: "streamAuditProgress",
        tag: "Audits",
        summary: "An audit's progress, pushed",
        events:
          "The audit's state as server-sent events named `audit`, each holding the audit as `GET /api/v1/audits/{id}` answers it but without its `report` (read that once the audit has completed), sent when its status changes or a page is done; the event id is `<status>.<pages discovered>.<pages done>`.",
        event: "audit",
        component: "AuditView",
        until: "The audit's progress, until it has completed, failed or been cancelled.",
        thing: "audit",
      }),
    },
    async ({ caller, params, req, res }) =>
      follow(caller.userId, req, res, streams, "audit", {
        read: () => audits.progress(caller.workspaceId, params.id),
        idOf: auditEventId,
        final: auditFinished,
        next: (signal) => pause(pollMs, signal),
      }),
  ),
];
