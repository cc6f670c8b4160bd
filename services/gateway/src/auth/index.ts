/** The auth feature's surface: what the composition root and other features use of it. */

export { accountRoutes } from "./account.route";
export { type AccountService, createAccountService, type SignUpMode } from "./account-service";
export { AUTH_PREFIX, type AuthRouteDeps, authRoutes, INVITATION_LOOKUP } from "./auth.route";
export * from "./jwt-issuer";
export { jwtKeysFrom } from "./jwt-keys";
export * from "./one-time-links";
export { createPasswordCheck, type PasswordCheck } from "./passwords";
export { createSignInThrottle, type SignInThrottle } from "./sign-in-throttle";
export * from "./user-service";
