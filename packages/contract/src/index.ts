/**
 * The wire contract: the bodies, queries and params of the HTTP API and its webhooks, the
 * envelopes and the error table; and the gzip archive of a captured snapshot. The queue's
 * contract is @scan/queue; the scorer is @scan/checks'.
 */
export * from "./account";
export * from "./audit";
export * from "./audit-alerts";
export * from "./audit-issues";
export * from "./audit-log";
export * from "./audit-schedule";
export * from "./check-result";
export * from "./citation";
export * from "./client";
export * from "./envelope";
export * from "./errors";
export * from "./grade";
export * from "./keyword";
export * from "./list-query";
export * from "./operations";
export * from "./render-failure";
export * from "./report-branding";
export * from "./scan";
export * from "./session";
export * from "./site";
export * from "./site-credentials";
export * from "./site-history";
export * from "./site-report";
export * from "./snapshot";
export * from "./snapshot-archive";
export * from "./text";
export * from "./tools";
export * from "./url";
export * from "./visibility";
export * from "./wait";
export * from "./workspace";
