import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ApiResponse, api } from "./stack";

/** Clients of the tool server: the SDK's own, over either transport, and plain JSON-RPC POSTs. */

export type Carrier = "bearer" | "x-api-key" | "query";

export const keyHeaders = (key: string, carrier: Carrier): Record<string, string> =>
  carrier === "bearer" ? { authorization: `Bearer ${key}` } : carrier === "x-api-key" ? { "x-api-key": key } : {};

const withKey = (url: string, key: string, carrier: Carrier) =>
  new URL(carrier === "query" ? `${url}?key=${encodeURIComponent(key)}` : url);

/** The SDK's client over the Streamable HTTP transport at /mcp. */
export const streamableClient = async (base: string, key: string, carrier: Carrier = "bearer"): Promise<Client> => {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(withKey(`${base}/mcp`, key, carrier), {
    requestInit: { headers: keyHeaders(key, carrier) },
  });
  await client.connect(transport);
  return client;
};

/** The SDK's client over the legacy SSE transport at /mcp/sse. */
export const sseClient = async (base: string, key: string, carrier: Carrier = "query"): Promise<Client> => {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const transport = new SSEClientTransport(withKey(`${base}/mcp/sse`, key, carrier), {
    requestInit: { headers: keyHeaders(key, carrier) },
  });
  await client.connect(transport);
  return client;
};

let nextId = 1;

/** One JSON-RPC request POSTed to /mcp/sse and answered in the HTTP response. */
export const rpc = (
  base: string,
  method: string,
  params: unknown,
  init: { headers?: Record<string, string>; path?: string; id?: number } = {},
): Promise<ApiResponse> =>
  api(base, init.path ?? "/mcp/sse", {
    method: "POST",
    headers: init.headers ?? {},
    body: { jsonrpc: "2.0", id: init.id ?? nextId++, method, ...(params === undefined ? {} : { params }) },
  });

/** An SSE stream read event by event (a legacy session seen from the wire). */
export const eventStream = (response: Response) => {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  let buffered = "";
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const lines = block.split("\n");
        // comment lines (keep-alives) carry no event
        if (lines.every((line) => line.startsWith(":"))) continue;
        return {
          event: lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "message",
          data: lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "",
        };
      }
      const { done, value } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffered += new TextDecoder().decode(value);
    }
  };
  return { next, close: () => reader.cancel() };
};
