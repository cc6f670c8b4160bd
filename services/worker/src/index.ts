/** The worker as a library, for the tests and scripts that run it in process. */

export * from "./config";
export * from "./domain/follow-redirect";
export * from "./domain/scan-gate";
export * from "./domain/site-access";
export * from "./infra/ops-server";
export * from "./sweeps/reaper";
export * from "./sweeps/retention";
export * from "./worker";
