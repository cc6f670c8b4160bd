/** The workspaces feature's surface: what the composition root and other features use of it. */

export * from "./workspace-service";
export { workspaceRoutes } from "./workspaces.route";
