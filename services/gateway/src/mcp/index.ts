/** The mcp feature's surface: what the composition root and other features use of it. */
export { type AuditTools, createAuditTools } from "./audit-tools";
export { createKeywordTools, importSummary, type KeywordTools } from "./keyword-tools";
export { MCP_PATHS, mcpRoutes } from "./mcp.route";
export { MCP_OPERATIONS } from "./mcp-operations";
export { createMcpSessions, type McpSessions } from "./mcp-sessions";
export { type Tools, toolCatalogue } from "./tool-catalogue";
export { createToolServerFactory, type ToolServerFactory } from "./tool-server";
export { createVisibilityTools, type VisibilityTools } from "./visibility-tools";
