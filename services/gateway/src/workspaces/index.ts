/** The workspaces feature's surface: what the composition root and other features use of it. */

export { auditLogRoutes } from "./audit-log.route";
export { type AuditLogService, createAuditLogService } from "./audit-log-service";
export * from "./workspace-service";
export { workspaceRoutes } from "./workspaces.route";
