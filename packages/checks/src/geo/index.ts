import type { CheckDefinition } from "../check";
import { aiSearchAccess } from "./ai-search-access.check";
import { aiSnippetDirectives } from "./ai-snippet-directives.check";
import { botAccessParity } from "./bot-access-parity.check";
import { citationsOutbound, quotations, statistics } from "./content-signals.check";
import { author, entitySameas, trustPages } from "./entity-signals.check";
import { llmsTxt, llmsTxtFormat } from "./llms-txt.check";
import { freshness, publishDate } from "./publish-date.check";
import { rawHtmlContent } from "./raw-html-content.check";

/** The GEO checks in checks.md order. */
export const geoChecks: readonly CheckDefinition[] = [
  aiSearchAccess,
  botAccessParity,
  llmsTxt,
  llmsTxtFormat,
  aiSnippetDirectives,
  rawHtmlContent,
  statistics,
  citationsOutbound,
  quotations,
  author,
  publishDate,
  freshness,
  entitySameas,
  trustPages,
];
