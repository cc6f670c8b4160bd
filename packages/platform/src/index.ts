/** What both services run on: logging, configuration, readiness, the address policy, signing, keys and shutdown. */
export * from "./access-token";
export * from "./address-policy";
export * from "./api-key";
export * from "./at-most";
export * from "./config";
export * from "./log";
export * from "./readiness";
export * from "./redis-policy";
export * from "./secret-box";
export * from "./shutdown";
export * from "./special-addresses";
export * from "./webhook-signature";
