import type { AuditView, StoredScan } from "@scan/client";

/**
 * The API's progress streams (server-sent events; docs/api.md, Progress streams), which push a
 * scan's or an audit's state as it changes instead of the page asking every second. A browser's
 * EventSource sends no header of ours: the stream is authenticated by the session's cookie
 * (same origin), so no token ever goes into its URL. EventSource reconnects by itself after a
 * dropped connection or a stream that reached its lifetime, sending Last-Event-ID.
 */

type Streams = {
  scan: { path: `/api/v1/scan/${string}/events`; state: StoredScan };
  audit: { path: `/api/v1/audits/${string}/events`; state: AuditView };
};

const pathOf = <K extends keyof Streams>(kind: K, id: string): Streams[K]["path"] =>
  (kind === "scan"
    ? `/api/v1/scan/${encodeURIComponent(id)}/events`
    : `/api/v1/audits/${encodeURIComponent(id)}/events`) as Streams[K]["path"];

export type StreamHandlers<T> = {
  /** each state the server pushes; answers whether it is the last one (the stream is then closed) */
  onState: (state: T) => boolean;
  /**
   * The stream was refused (an answer that is not a stream: 401, 404, 429, …) or cannot be
   * opened here: EventSource does not say why, so the page asks the API once with a GET, which does.
   */
  onRefused: () => void;
};

/** Follows a scan's or an audit's progress until its last state; answers the function that stops following. */
export const followProgress = <K extends keyof Streams>(
  kind: K,
  id: string,
  { onState, onRefused }: StreamHandlers<Streams[K]["state"]>,
): (() => void) => {
  if (typeof EventSource === "undefined") {
    onRefused();
    return () => undefined;
  }
  const source = new EventSource(pathOf(kind, id));
  source.addEventListener(kind, (event) => {
    let state: Streams[K]["state"];
    try {
      state = JSON.parse((event as MessageEvent<string>).data) as Streams[K]["state"];
    } catch {
      return;
    }
    if (onState(state)) source.close();
  });
  source.addEventListener("error", () => {
    // CONNECTING: a dropped connection, retried by the browser; CLOSED: refused for good
    if (source.readyState === EventSource.CLOSED) onRefused();
  });
  return () => source.close();
};
