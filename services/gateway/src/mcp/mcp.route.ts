import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError, ERROR_TABLE, type ErrorKind } from "@scan/contract";
import express, { type ErrorRequestHandler, type Request, type Response, Router } from "express";
import type { Logger } from "pino";
import type { KeyCaller } from "../access/authenticate";
import { readerError } from "../http/body-errors";
import { JSON_RPC, type JsonRpcFault, type JsonRpcId, jsonRpcFault } from "../http/json-rpc";
import type { McpAccess } from "../http/mcp-access";
import type { McpSessions } from "./mcp-sessions";
import type { ToolServerFactory } from "./tool-server";

export type McpRouteDeps = {
  access: McpAccess;
  newServer: ToolServerFactory;
  sessions: McpSessions;
  bodyLimitBytes: number;
  log: Logger;
};

/** The tool server's paths: Streamable HTTP, and the legacy SSE transport with its direct POST. */
export const MCP_PATHS = ["/mcp", "/mcp/sse"] as const;

/** JSON-RPC's code for refusals made before a message reaches the server (auth, limits, transport). */
const REFUSED = -32000;

const rpcError = (id: JsonRpcId, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0" as const,
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/** The id of a single JSON-RPC request body, for an error that answers it; null otherwise. */
const idOf = (body: unknown): JsonRpcId => {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
};

/** The tools/call requests in a body (one message or a batch): each is counted against the key. */
const toolCalls = (body: unknown): number =>
  (Array.isArray(body) ? body : [body]).filter(
    (message) =>
      message !== null && typeof message === "object" && (message as { method?: unknown }).method === "tools/call",
  ).length;

/** What the tool server learns of the request: the SDK hands `authInfo` to every handler. */
const authInfo = (caller: KeyCaller, requestId: string): AuthInfo => ({
  token: caller.keyId,
  clientId: caller.userId,
  scopes: [],
  extra: { context: { caller, requestId } },
});

type Parsed = Request & { auth?: AuthInfo };

/**
 * The MCP tool server's HTTP face (docs/spec/public-scanning-api.md §4.8, §5.2), with the official SDK's transports:
 * - `GET /mcp/sse` opens a legacy SSE session; its first event names the URL to POST messages
 *   to (`/mcp/sse?sessionId=...`), and answers arrive on the stream.
 * - `POST /mcp/sse` without a session id takes a JSON-RPC message (or batch) and answers it in
 *   the HTTP response (the SDK's stateless transport in JSON mode).
 * - `/mcp` is the Streamable HTTP transport, stateless: any gateway process answers any POST.
 * Keys are checked before a body is read; refusals are JSON-RPC errors with the HTTP status
 * the REST API would use (401, 403, 429, 503) and the Form A code in `error.data.code`.
 */
export const mcpRoutes = ({ access, newServer, sessions, bodyLimitBytes, log }: McpRouteDeps): Router => {
  const router = Router();
  // not strict: a JSON scalar is JSON, and JSON-RPC calls it an Invalid Request (-32600), not a Parse error
  const parseJson = express.json({ limit: bodyLimitBytes, strict: false, type: () => true });

  /** Reads the JSON body; a POST whose Content-Type is not JSON is refused before it is read. */
  const readBody = async (req: Request, res: Response): Promise<unknown> => {
    if (!req.is(["application/json", "application/*+json"])) {
      const sent = req.get("content-type");
      throw new AppError(
        "invalid_request",
        sent
          ? `Content-Type must be application/json, not ${sent.slice(0, 60)}`
          : "Content-Type must be application/json; the request has none",
        "Send the JSON-RPC message as JSON with Content-Type: application/json.",
      );
    }
    await new Promise<void>((resolve, reject) =>
      parseJson(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
    );
    return req.body;
  };

  /** Authenticates, reads the body, and counts its tools/call messages: what every POST goes through. */
  const admit = async (req: Request, res: Response, caller: KeyCaller): Promise<unknown> => {
    const body = await readBody(req, res);
    // JSON that is not a JSON-RPC message is the caller's Invalid Request, never a Parse error
    const fault = jsonRpcFault(body);
    if (fault) throw new JsonRpcRefusal(fault);
    await access.count(res, caller, toolCalls(body));
    (req as Parsed).auth = authInfo(caller, res.locals.requestId);
    return body;
  };

  /** Answers one POSTed message or batch in the HTTP response, through a server of its own. */
  const answerDirectly = async (req: Request, res: Response, body: unknown) => {
    const server = newServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const gone = new Promise<null>((resolve) => res.on("close", () => resolve(null)));
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // the SDK's transport wants Streamable HTTP's Accept; a plain JSON-RPC client sends none
    const headers = new Headers({ accept: "application/json, text/event-stream", "content-type": "application/json" });
    const version = req.get("mcp-protocol-version");
    if (version) headers.set("mcp-protocol-version", version);
    // the path only: a ?key= never travels further than the authentication
    const request = new Request(`http://gateway${req.baseUrl}${req.path}`, { method: "POST", headers });
    const response = await Promise.race([
      transport.handleRequest(request, { parsedBody: body, authInfo: (req as Parsed).auth }),
      gone,
    ]);
    if (!response || res.writableEnded) return;
    res.status(response.status);
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.end(Buffer.from(await response.arrayBuffer()));
  };

  router
    .route(MCP_PATHS[1])
    // HEAD would open a session whose stream can carry nothing: the headers of GET, and no session
    .head(async (req, res) => {
      const caller = await access.authenticate(req, res, access.carriersOf(req));
      await access.count(res, caller, 0);
      res.status(200).type("text/event-stream").end();
    })
    .get(async (req, res) => {
      const carriers = access.carriersOf(req);
      const caller = await access.authenticate(req, res, carriers);
      await access.count(res, caller, 0);
      // the stream announces the endpoint; the POSTs to it carry the session id the SDK adds
      const transport = new SSEServerTransport("/mcp/sse", res);
      const session = sessions.open(transport, res, carriers, caller);
      res.setHeader("X-Accel-Buffering", "no");
      await newServer(session.tracker).connect(transport);
    })
    .post(async (req, res) => {
      const sessionId = req.query.sessionId;
      if (sessionId === undefined) {
        const caller = await access.authenticate(req, res, access.carriersOf(req));
        await answerDirectly(req, res, await admit(req, res, caller));
        return;
      }
      const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (!session) {
        res
          .status(404)
          .json(rpcError(null, -32001, "Session not found", { hint: "Open a new one with GET /mcp/sse." }));
        return;
      }
      // a message is authenticated again (a key revoked meanwhile stops the session); a key sent
      // with it must be the session's own
      const own = access.carriersOf(req);
      let caller: KeyCaller;
      try {
        caller = await access.authenticate(req, res, access.sentKey(own) ? own : session.carriers);
      } catch (error) {
        if (!access.sentKey(own)) sessions.close(session.id);
        throw error;
      }
      if (caller.keyId !== session.keyId) {
        throw new AppError("forbidden", "This session was opened with another API key", "Send the session's own key.");
      }
      const body = await admit(req, res, caller);
      await (session.transport as SSEServerTransport).handlePostMessage(req as Parsed, res, body);
    })
    .all((req, _res, next) => next(methodNotAllowed(req, "GET, POST")));

  router
    .route(MCP_PATHS[0])
    .post(async (req, res) => {
      const caller = await access.authenticate(req, res, access.carriersOf(req));
      const body = await admit(req, res, caller);
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req as Parsed, res, body);
    })
    // stateless: no stream to resume (GET) and no session to end (DELETE); the SDK's client accepts 405
    .all((req, _res, next) => next(methodNotAllowed(req, "POST")));

  router.use("/mcp", mcpErrors(log));
  return router;
};

const methodNotAllowed = (req: Request, allow: string) =>
  new AppError("method_not_allowed", `${req.method} is not allowed on ${req.path}`, `Use ${allow}.`, { Allow: allow });

/** A message the transport would misread, refused with its JSON-RPC code. */
class JsonRpcRefusal extends Error {
  constructor(readonly fault: JsonRpcFault) {
    super(fault.message);
  }
}

/** Refusals of a request the transport cannot take, as JSON-RPC's Invalid Request; refusals of the caller are server errors. */
const TRANSPORT_FAULTS: readonly ErrorKind[] = [
  "invalid_request",
  "payload_too_large",
  "unsupported_media_type",
  "uri_too_long",
  "headers_too_large",
  "request_timeout",
];

/** Errors of the tool server's routes as JSON-RPC error bodies, with the HTTP status the REST API would use. */
const mcpErrors =
  (log: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      log.warn({ err: error, requestId: res.locals.requestId }, "tool server error after the answer started");
      if (!res.writableEnded) res.end();
      return;
    }
    if (error instanceof JsonRpcRefusal) {
      res.status(400).json(rpcError(error.fault.id, error.fault.code, error.fault.message));
      return;
    }
    const id = idOf(req.body);
    const known = error instanceof AppError ? error : readerError(error, req);
    if (known?.kind === "invalid_json") {
      res.status(400).json(rpcError(null, JSON_RPC.parseError, "Parse error: the body is not valid JSON"));
      return;
    }
    if (known) {
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      if (known.kind === "unauthenticated") res.setHeader("WWW-Authenticate", 'Bearer realm="aeo-scan"');
      const retryAfter = known.headers["Retry-After"];
      const code = TRANSPORT_FAULTS.includes(known.kind) ? JSON_RPC.invalidRequest : REFUSED;
      res.status(known.status).json(
        rpcError(id, code, known.message, {
          status: known.status,
          code: ERROR_TABLE[known.kind].a,
          hint: known.hint,
          ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}),
        }),
      );
      return;
    }
    const errorId = randomUUID();
    log.error({ err: error, errorId, requestId: res.locals.requestId }, "tool server error");
    res.status(500).json(rpcError(id, JSON_RPC.internalError, `Internal error (id ${errorId})`));
  };
