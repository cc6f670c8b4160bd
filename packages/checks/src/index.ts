/** The check catalogue and the reading of a page the checks share (the generators build on the same reading). Test fixtures: @scan/checks/testing. */

export * from "./aeo/article-schema.check";
export * from "./aeo/breadcrumb-schema.check";
export * from "./aeo/faq-schema.check";
export * from "./aeo/headings";
export { mainAncestorNamed } from "./aeo/main-dom";
export * from "./aeo/organization-schema.check";
export * from "./aeo/qa-pairs";
export * from "./aeo/structured-data.check";
export { agenticChecks } from "./agentic";
export { AXE_UNFINISHED } from "./agentic/agent-accessibility-tree.check";
export * from "./agentic/ai-catalog";
export { CLS_GOOD, CLS_POOR } from "./agentic/layout-shift.check";
export { formLabel } from "./agentic/webmcp.check";
export * from "./check";
export * from "./evidence";
export * from "./geo/ai-search-access.check";
export * from "./geo/author.check";
export * from "./geo/byline";
export * from "./geo/dates";
export * from "./geo/llms-txt.check";
export * from "./geo/llms-txt-format.check";
export * from "./geo/publish-date.check";
export * from "./geo/site";
export * from "./geo/words";
export * from "./lib/ai-crawlers";
export * from "./lib/jsonld";
export * from "./lib/memo";
export * from "./lib/meta-robots";
export * from "./lib/microdata";
export * from "./lib/organization";
export {
  breadcrumbTrail,
  headlineOf,
  inNavigation,
  type LinkCandidate,
  linkCandidates,
  NOT_RUNNING_TEXT,
  type OwnLink,
  type OwnLinkRule,
  ownLinks,
  withoutHash,
} from "./lib/own-content";
export * from "./lib/page-kind";
export { type Profile, type ProfileStep, recordProfile } from "./lib/profile";
export * from "./lib/robots";
export {
  type Group,
  pathOfUrl,
  patternMatches,
  productTokenOf,
  type RobotsFile,
  readRobotsFile,
  /** a robots.txt line's bytes as text (the reader works on bytes, as Google's does) */
  textOf as robotsText,
} from "./lib/robots-txt/index";
export * from "./lib/text";
export * from "./page";
export * from "./registry";
export * from "./run";
export * from "./score/grade";
export * from "./score/scorer";
export * from "./seo/anchors";
export * from "./seo/dom";
export * from "./seo/head";
export * from "./seo/indexable.check";
export * from "./seo/robots-txt.check";
export * from "./seo/title.check";
