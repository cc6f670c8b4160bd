/** The clients feature's surface: what the composition root uses of it. */
export { type ClientService, clientNotFound, createClientService } from "./client-service";
export { clientRoutes } from "./clients.route";
