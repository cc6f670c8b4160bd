import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { AppError, ERROR_TABLE } from "@scan/contract";
import { problemSentence } from "@scan/contract/wait";
import type { Logger } from "pino";
import { z } from "zod";
import type { KeyScope, ToolReach } from "../access/key-scope";
import type { ToolAnswer, ToolContext } from "../scans";

/** One tool: its MCP description, its argument schema, and what runs it. */
export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** the structured content's schema, announced in tools/list; clients validate against it */
  output: z.ZodType;
  /** what a call reaches (the URLs it scans, the audit it reads, whether it makes anything): checked by access/key-scope.ts */
  reaches: (args: never) => ToolReach;
  /**
   * what calling it does to the caller's records, for clients that ask before a change: `read`
   * (the default: a scan or an audit is stored, nothing is changed or removed), `adds`, `removes`
   */
  effect?: "read" | "adds" | "removes";
  run: (args: never, context: ToolContext) => Promise<ToolAnswer<unknown>>;
};

/** Defines a tool with its argument type tied to its schema. */
export const defineTool = <I extends z.ZodType>(
  tool: Omit<ToolDefinition, "input" | "run" | "reaches"> & {
    input: I;
    reaches: (args: z.output<I>) => ToolReach;
    run: (args: z.output<I>, context: ToolContext) => Promise<ToolAnswer<unknown>>;
  },
): ToolDefinition => tool as ToolDefinition;

/** A JSON-RPC error the SDK sends as it is: its code, message and data (McpError prefixes its message). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const SERVER_INFO = { name: "aeo-scan", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Scans web pages for SEO, AEO (answer-engine) and GEO (generative-engine) signals. aeo_score is the quick look " +
  "(about 10 s); aeo_scan the full 57-check scan (about 25 s); aeo_fix drafts llms.txt, JSON-LD, robots.txt, " +
  "an ai-catalog.json and WebMCP form annotations from the page, each proven on a patched copy; aeo_generate " +
  "drafts FAQ, blog or product content from it. aeo_audit_site audits a whole site. The visibility tools read a " +
  "site's AI-visibility profile and list, add and remove the prompts it is tracked with and its competitors.";

// one validator for every server: the SDK builds an Ajv per Server otherwise, and a server lives one request
const jsonSchemaValidator = new AjvJsonSchemaValidator();

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
  // MCP's schemas are plain objects with type "object"; the $schema URI adds nothing for clients
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest as Tool["inputSchema"];
};

const issuePath = (issue: z.core.$ZodIssue) => (issue.path.length > 0 ? issue.path.join(".") : "arguments");

/** The context the transport attached to the request (authInfo.extra), or null when there is none. */
const contextOf = (extra: { authInfo?: { extra?: Record<string, unknown> } | undefined }): ToolContext | null => {
  const context = extra.authInfo?.extra?.context as ToolContext | undefined;
  return context?.caller?.kind === "key" ? context : null;
};

export type ToolServerDeps = {
  tools: readonly ToolDefinition[];
  log: Logger;
  /** a key's reach, checked before each tool runs: the REST routes' rules (access/key-scope.ts) */
  scope: Pick<KeyScope, "checkTool">;
};
/** Called around each tools/call, so a draining server knows when a session is idle. */
export type CallTracker = { started: () => void; finished: () => void };

/** A new MCP server over the tools for one transport; `tracker` hears each tools/call start and finish. */
export type ToolServerFactory = (tracker?: CallTracker) => Server;

/**
 * Builds MCP servers (the SDK's low-level Server) over the tools. One server serves one
 * transport: a legacy SSE session, or one stateless HTTP request. The low-level Server rather
 * than McpServer, because McpServer answers bad arguments and unknown tools with a tool result
 * marked isError; here they are JSON-RPC errors (-32602) naming the field, as the protocol has
 * them. Failures of the work itself (a target that does not answer, a used-up quota) are tool
 * results with isError, which a model reads and can act on.
 */
export const createToolServerFactory = ({ tools, log, scope }: ToolServerDeps): ToolServerFactory => {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed: Tool[] = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, "input"),
    outputSchema: jsonSchema(tool.output, "output") as Tool["outputSchema"],
    annotations: {
      title: tool.title,
      readOnlyHint: (tool.effect ?? "read") === "read",
      destructiveHint: tool.effect === "removes",
      // the page tools reach the web; the visibility tools only the caller's own records
      openWorldHint: tool.effect === undefined,
    },
  }));

  const call = async (name: string, args: unknown, context: ToolContext): Promise<CallToolResult> => {
    const tool = byName.get(name);
    if (!tool) {
      throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { tools: [...byName.keys()] });
    }
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 5);
      const said = issues.map((issue) => `${issuePath(issue)}: ${issue.message}`).join("; ");
      throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid arguments for ${name}: ${said}`, {
        fields: issues.map(issuePath),
      });
    }
    try {
      // a read-only or client-scoped key's reach, as on the REST routes
      await scope.checkTool(context.caller, tool.reaches(parsed.data as never));
      const answer = await tool.run(parsed.data as never, context);
      return {
        content: [{ type: "text", text: answer.summary }],
        structuredContent: answer.data as Record<string, unknown>,
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.kind === "invalid_request") {
        throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid arguments for ${name}: ${error.message}`, {
          hint: error.hint,
        });
      }
      return {
        content: [
          { type: "text", text: `${ERROR_TABLE[error.kind].a}: ${problemSentence(error.message, error.hint)}` },
        ],
        isError: true,
      };
    }
  };

  return (tracker?: CallTracker): Server => {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const context = contextOf(extra);
      tracker?.started();
      try {
        // the transports attach the caller to every request; a request without one never runs a tool
        if (!context) throw new JsonRpcError(-32001, "Not authenticated");
        return await call(request.params.name, request.params.arguments, { ...context, signal: extra.signal });
      } catch (error) {
        if (error instanceof JsonRpcError) throw error;
        const errorId = randomUUID();
        log.error({ err: error, errorId, tool: request.params.name }, "tool call failed");
        throw new JsonRpcError(ErrorCode.InternalError, `Internal error (id ${errorId})`);
      } finally {
        tracker?.finished();
      }
    });
    return server;
  };
};
