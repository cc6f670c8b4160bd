import { AuditIdParam, type AuditView, FINISHED_AUDIT_STATUSES, ScanIdParam, type StoredScan } from "@scan/contract";
import { toStoredScan } from "@scan/reports";
import type { Request, Response } from "express";
import type { AuditService } from "../audits";
import { type EventStream, type EventStreams, pause } from "../http/event-stream";
import { type Route, route } from "../http/route";
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
    },
    async ({ caller, params, req, res }) =>
      follow(caller.userId, req, res, streams, "scan", {
        read: async () => toStoredScan(await scans.get(params.id, caller.userId)),
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
    },
    async ({ caller, params, req, res }) =>
      follow(caller.userId, req, res, streams, "audit", {
        read: () => audits.progress(caller.userId, params.id),
        idOf: auditEventId,
        final: auditFinished,
        next: (signal) => pause(pollMs, signal),
      }),
  ),
];
