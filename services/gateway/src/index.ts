/** The gateway as a library, for the tests and scripts that run it in process: the app, its config and the account services. */

export { describeApi } from "./app";
export * from "./auth";
export * from "./config";
export * from "./gateway";
export * from "./generators";
export * from "./keys";
export * from "./seed/demo-seed";
