/** The clients feature's surface: what the composition root uses of it. */
export { type ClientService, clientNotFound, createClientService } from "./client-service";
export { clientRoutes } from "./clients.route";
export { usageRoutes } from "./usage.route";
export { createUsageService, type UsageService } from "./usage-service";
