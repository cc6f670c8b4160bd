/** The page-scan pipeline: one page fetched under the address policy, rendered, captured as a snapshot and judged. */

export { AGENT_AXE_RULES, axeSource } from "./agent-capture";
export * from "./browser-pool";
export * from "./capture";
export * from "./document-fetch";
export * from "./egress-proxy";
export * from "./http-fetch";
export * from "./scan-page";
export * from "./scanner";
export * from "./served-reader";
export * from "./settings";
export * from "./site-files";
