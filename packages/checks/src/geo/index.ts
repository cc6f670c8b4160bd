import type { CheckDefinition } from "../check";
import { aiSearchAccess } from "./ai-search-access.check";
import { aiSnippetDirectives } from "./ai-snippet-directives.check";
import { author } from "./author.check";
import { botAccessParity } from "./bot-access-parity.check";
import { citationsOutbound } from "./citations-outbound.check";
import { entitySameas } from "./entity-sameas.check";
import { freshness } from "./freshness.check";
import { llmsTxt } from "./llms-txt.check";
import { llmsTxtFormat } from "./llms-txt-format.check";
import { publishDate } from "./publish-date.check";
import { quotations } from "./quotations.check";
import { rawHtmlContent } from "./raw-html-content.check";
import { statistics } from "./statistics.check";
import { trustPages } from "./trust-pages.check";

/** The GEO checks in docs/spec/checks.md order. */
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
