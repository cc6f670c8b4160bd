import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0's error codes (https://www.jsonrpc.org/specification#error_object). */
export const JSON_RPC = {
  /** the body is not JSON at all */
  parseError: -32700,
  /** JSON, but not a valid Request object (or an empty batch) */
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export type JsonRpcId = string | number | null;

export type JsonRpcFault = { id: JsonRpcId; code: number; message: string };

const idOf = (message: Record<string, unknown>): JsonRpcId =>
  typeof message.id === "string" || typeof message.id === "number" ? message.id : null;

/** What is wrong with one message of a body, as JSON-RPC 2.0 and MCP read it; null when nothing is. */
const faultOf = (message: unknown): JsonRpcFault | null => {
  const invalid = (id: JsonRpcId, why: string): JsonRpcFault => ({
    id,
    code: JSON_RPC.invalidRequest,
    message: `Invalid Request: ${why}`,
  });
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return invalid(null, "a message must be a JSON object");
  }
  const fields = message as Record<string, unknown>;
  const id = idOf(fields);
  if (fields.jsonrpc !== "2.0") return invalid(id, 'jsonrpc must be "2.0"');
  if ("id" in fields && fields.id !== null && id === null) return invalid(null, "id must be a string or a number");
  if ("method" in fields) {
    if (typeof fields.method !== "string") return invalid(id, "method must be a string");
    if ("params" in fields && (fields.params === null || typeof fields.params !== "object")) {
      return invalid(id, "params must be an object");
    }
    if (Array.isArray(fields.params)) {
      return { id, code: JSON_RPC.invalidParams, message: "Invalid params: MCP methods take params as an object" };
    }
  } else if (!("result" in fields) && !("error" in fields)) {
    return invalid(id, "a message needs a method (a request or notification), or a result or an error (a response)");
  }
  return JSONRPCMessageSchema.safeParse(message).success
    ? null
    : invalid(id, "the message does not have the shape of a JSON-RPC 2.0 request, notification or response");
};

/**
 * The first fault of a JSON body meant as a JSON-RPC message or batch: what the MCP SDK would
 * otherwise call a Parse error (-32700) although the JSON parsed. A batch is answered with the
 * fault of its first bad message.
 */
export const jsonRpcFault = (body: unknown): JsonRpcFault | null => {
  if (!Array.isArray(body)) return faultOf(body);
  if (body.length === 0) {
    return {
      id: null,
      code: JSON_RPC.invalidRequest,
      message: "Invalid Request: a batch must hold at least one message",
    };
  }
  for (const [index, message] of body.entries()) {
    const fault = faultOf(message);
    if (fault) return { ...fault, message: `${fault.message} (message ${index} of the batch)` };
  }
  return null;
};
