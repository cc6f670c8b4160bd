/** The ops feature's surface: what the composition root and other features use of it. */
export { adminRoutes, DASHBOARD_PATH } from "./admin.route";
export { dashboardRoutes } from "./dashboard.route";
export { docsRoutes, type Reference } from "./docs.route";
export { createOperations, type Operations } from "./operations";
export { operationsRoutes } from "./operations.route";
export { opsRoutes } from "./ops.route";
