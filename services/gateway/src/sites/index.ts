/** The sites feature's surface: what the composition root and other features use of it. */
export { type CitationService, createCitationService } from "./citation-service";
export { citationRoutes } from "./citations.route";
export { createKeywordService, type KeywordService } from "./keyword-service";
export { keywordRoutes } from "./keywords.route";
export { createSearchConsoleReader, type SearchConsoleReader } from "./search-console-api";
export { createSiteCredentials, type SiteCredentials } from "./site-credentials";
export { createSiteService, type SiteService, siteNotFound } from "./site-service";
export { siteRoutes } from "./sites.route";
