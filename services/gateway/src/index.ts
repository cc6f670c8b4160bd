/** The gateway as a library, for the tests and scripts that run it in process: the app, its config and the account services. */

export * from "./config";
export { createApiDocument } from "./docs/openapi";
export * from "./generators/generator-schemas";
export * from "./auth/jwt-issuer";
export * from "./keys/key-service";
export * from "./auth/one-time-links";
export * from "./auth/user-service";
export * from "./gateway";
export * from "./seed/demo-seed";
