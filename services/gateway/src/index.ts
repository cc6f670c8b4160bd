/** The gateway as a library, for the tests and scripts that run it in process: the app, its config and the account services. */

export { describeApi } from "./app";
export * from "./config";
export * from "./domain/generator-schemas";
export * from "./domain/jwt-issuer";
export * from "./domain/key-service";
export * from "./domain/one-time-links";
export * from "./domain/user-service";
export * from "./gateway";
export * from "./seed/demo-seed";
