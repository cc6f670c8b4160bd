import type { ServerResponse } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AppError } from "@scan/contract";
import type { KeyCaller, KeyCarriers } from "../access/authenticate";
import type { CallTracker } from "./tool-server";

/** An open legacy SSE session: its stream, the key it was opened with, and its calls in flight. */
export type McpSession = {
  id: string;
  transport: Transport & { sessionId: string };
  /** how the session's key was sent when the stream opened; each message is authenticated with it again */
  carriers: KeyCarriers;
  keyId: string;
  tracker: CallTracker;
};

export type McpSessionsOptions = {
  /** open SSE sessions one key may hold in this process */
  maxPerKey: number;
  /** interval of the comment lines that keep idle streams open through proxies */
  keepAliveMs: number;
};

export type McpSessions = {
  /** Registers a session for a stream about to open; refuses when draining or the key holds too many. */
  open: (
    transport: Transport & { sessionId: string },
    stream: ServerResponse,
    carriers: KeyCarriers,
    caller: KeyCaller,
  ) => McpSession;
  /** The open session with this id, if any. */
  get: (id: string) => McpSession | undefined;
  /** Ends the session and forgets it. */
  close: (id: string) => void;
  /** At shutdown: no new sessions, idle ones closed now and busy ones when their last call finishes. */
  drain: () => void;
  /** How many sessions are open in this process. */
  size: () => number;
};

/**
 * The legacy SSE sessions of this gateway process. A session lives as long as its stream; its
 * id, announced only on that stream, routes the POSTed messages to it (one process: a
 * deployment with several gateways needs sticky sessions for this transport; the Streamable
 * HTTP transport holds no session). Draining closes idle sessions at once and busy ones when
 * their last call finishes, so a shutdown does not cut a tool call's answer off.
 */
export const createMcpSessions = ({ maxPerKey, keepAliveMs }: McpSessionsOptions): McpSessions => {
  const sessions = new Map<string, McpSession & { pending: number }>();
  let draining = false;

  const close = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.transport.close();
  };

  /** Registers a session for a stream about to open; refuses when draining or the key holds too many. */
  const open = (
    transport: Transport & { sessionId: string },
    stream: ServerResponse,
    carriers: KeyCarriers,
    caller: KeyCaller,
  ): McpSession => {
    if (draining) {
      throw new AppError("service_unavailable", "The server is shutting down", "Connect again in a few seconds.");
    }
    const held = [...sessions.values()].filter((session) => session.keyId === caller.keyId).length;
    if (held >= maxPerKey) {
      throw new AppError(
        "forbidden",
        `This API key already holds ${held} open SSE sessions`,
        "Close one, or use the Streamable HTTP transport at /mcp, which holds no session.",
      );
    }
    const id = transport.sessionId;
    const session = {
      id,
      transport,
      carriers,
      keyId: caller.keyId,
      pending: 0,
      tracker: {
        started: () => {
          session.pending += 1;
        },
        finished: () => {
          session.pending -= 1;
          if (draining && session.pending === 0) close(id);
        },
      },
    };
    sessions.set(id, session);
    const keepAlive = setInterval(() => {
      if (!stream.writableEnded) stream.write(": keepalive\n\n");
    }, keepAliveMs);
    keepAlive.unref();
    stream.on("close", () => {
      clearInterval(keepAlive);
      sessions.delete(id);
    });
    return session;
  };

  const get = (id: string): McpSession | undefined => sessions.get(id);

  const drain = () => {
    draining = true;
    for (const session of [...sessions.values()]) if (session.pending === 0) close(session.id);
  };

  return { open, get, close, drain, size: () => sessions.size };
};
