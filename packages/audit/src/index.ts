/** Whole-site audits: discovery, URL rules, page facts, site checks, the site report and its CSV. */
export * from "./alert-message";
export * from "./crawler-robots";
export * from "./csv";
export * from "./exports";
export * from "./issues";
export * from "./page-facts";
export * from "./regression";
export * from "./site-checks";
export * from "./site-report";
export * from "./sitemaps";
export * from "./start-page-catalog";
export * from "./urls";
