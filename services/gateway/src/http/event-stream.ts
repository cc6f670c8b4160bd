import { AppError } from "@scan/contract";
import type { Request, Response } from "express";

/**
 * Server-sent events (`text/event-stream`) for anything that changes on the server while a
 * client watches: one open stream per watcher, at most `maxPerUser` of them per user in this
 * process, each ended by the client going away, by its `lifetimeMs` (the client reconnects with
 * Last-Event-ID and is authenticated again, so a revoked session does not keep a stream), or by
 * the gateway's shutdown. A comment line every `heartbeatMs` keeps proxies from closing an idle
 * stream. Knows nothing of what is watched.
 */
export type EventStreamLimits = {
  maxPerUser: number;
  heartbeatMs: number;
  lifetimeMs: number;
  /** how long a client waits before reconnecting, sent as the stream's `retry` field */
  retryMs: number;
};

export type EventStream = {
  /** one event: its name, its id (the client's Last-Event-ID once it reconnects) and its data as JSON */
  send: (event: string, id: string, data: unknown) => void;
  /** ends the stream (idempotent) */
  end: () => void;
  /** aborted when the stream ends, whoever ends it */
  signal: AbortSignal;
};

/** A single line of a field: newlines would start another field, so they never reach the wire. */
const oneLine = (value: string): string => value.replace(/[\r\n]/g, " ");

export type EventStreams = {
  /** Opens a stream for `owner` on this response; 503 while shutting down, 429 over `maxPerUser`. */
  start: (owner: string, req: Request, res: Response) => EventStream;
  /** At shutdown: no new streams, and every open one ends now (clients reconnect to another gateway). */
  closeAll: () => void;
  /** streams open in this process */
  readonly size: number;
};

export const createEventStreams = ({
  maxPerUser,
  heartbeatMs,
  lifetimeMs,
  retryMs,
}: EventStreamLimits): EventStreams => {
  const open = new Map<string, Set<EventStream>>();
  let closing = false;

  const count = (owner: string): number => open.get(owner)?.size ?? 0;

  /**
   * Opens a stream for `owner` on this response, or refuses: 503 while the gateway shuts down,
   * 429 when the owner already has `maxPerUser` streams open. Call after everything that can
   * answer an error, since the 200 and its headers go out at once.
   */
  const start = (owner: string, req: Request, res: Response): EventStream => {
    if (closing) {
      throw new AppError("service_unavailable", "The server is shutting down", "Reconnect in a few seconds.", {
        "Retry-After": "5",
      });
    }
    if (count(owner) >= maxPerUser) {
      throw new AppError(
        "rate_limited",
        `This user already has ${maxPerUser} progress streams open, the most at once`,
        "Close a report page open in another tab, or read the scan or audit with a GET until one ends.",
        { "Retry-After": "5" },
      );
    }
    const controller = new AbortController();
    res.status(200);
    res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    // nginx and similar proxies would hold the events back to fill a buffer
    res.setHeader("X-Accel-Buffering", "no");
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.write(`retry: ${retryMs}\n\n`);

    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), heartbeatMs);
    heartbeat.unref();
    const lifetime = setTimeout(() => stream.end(), lifetimeMs);
    lifetime.unref();

    const stream: EventStream = {
      send: (event, id, data) => {
        if (controller.signal.aborted) return;
        res.write(`event: ${oneLine(event)}\nid: ${oneLine(id)}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      end: () => {
        if (controller.signal.aborted) return;
        controller.abort();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        const mine = open.get(owner);
        mine?.delete(stream);
        if (mine?.size === 0) open.delete(owner);
        if (!res.writableEnded) res.end();
      },
      signal: controller.signal,
    };
    let mine = open.get(owner);
    if (!mine) {
      mine = new Set();
      open.set(owner, mine);
    }
    mine.add(stream);
    // the client went away (closed the tab, lost the network): nothing more is read for it
    res.on("close", () => stream.end());
    return stream;
  };

  /** At shutdown: no new streams, and every open one ends now (clients reconnect to another gateway). */
  const closeAll = (): void => {
    closing = true;
    for (const streams of [...open.values()]) for (const stream of [...streams]) stream.end();
  };

  return {
    start,
    closeAll,
    /** streams open in this process */
    get size(): number {
      let total = 0;
      for (const streams of open.values()) total += streams.size;
      return total;
    },
  };
};

/** Resolves after `ms`, or at once when `signal` aborts. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
