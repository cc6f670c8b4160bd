/** The auth feature's surface: what the composition root and other features use of it. */

export { accountRoutes } from "./account.route";
export { createAccountService } from "./account-service";
export { AUTH_PREFIX, type AuthRouteDeps, authRoutes, INVITATION_LOOKUP } from "./auth.route";
export * from "./jwt-issuer";
export { jwtKeysFrom } from "./jwt-keys";
export * from "./one-time-links";
export { createPasswordCheck } from "./passwords";
export { createSignInThrottle } from "./sign-in-throttle";
export * from "./user-service";
