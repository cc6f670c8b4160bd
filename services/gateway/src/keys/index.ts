/** The keys feature's surface: what the composition root and other features use of it. */

export * from "./key-service";
export { keyRoutes } from "./keys.route";
