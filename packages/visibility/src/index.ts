export { type AnswerAnalysis, analyseAnswer, type Brand, type Competitor, type EntityPresence } from "./analyse";
export { askEngine } from "./ask";
export {
  type CheckGap,
  type CheckVerdict,
  type CitedPage,
  type CitedPageBounds,
  type CitedPageSide,
  type CitingAnswer,
  checkGaps,
  citedPagesOf,
  type PromptCitedPages,
} from "./cited-pages";
export {
  type AskOptions,
  type Citation,
  type CitationSpan,
  costOf,
  ENGINE_DEFAULTS,
  ENGINE_ERROR_KINDS,
  ENGINE_IDS,
  type EngineAnswer,
  EngineConfig,
  EngineError,
  type EngineErrorKind,
  EngineId,
  EnginePrices,
  type EnginePrompt,
  type EngineUsage,
  KNOWN_PRICES,
  pricesFor,
} from "./engine";
export { findNames, type NameMatch } from "./mentions";
export {
  ENGINE_VENDORS,
  type OperatorEngine,
  OperatorEngineSettings,
  operatorEnginesOf,
  VisibilityBudgetSettings,
  type VisibilityBudgets,
  visibilityBudgetsOf,
} from "./operator";
export { type FollowRedirect, GROUNDING_REDIRECT_HOSTS, resolveCitationRedirects } from "./redirects";
export {
  averagePosition,
  brandRates,
  compareRates,
  fisherExactTwoSided,
  type Interval,
  type RateChange,
  type RateCount,
  shareOfVoice,
  type VoiceShare,
  wilsonInterval,
  Z_95,
} from "./statistics";
export { domainOf, hostIsOnDomain, normaliseUrl, siteHost } from "./url";
export {
  type AnsweredRate,
  compareRateCounts,
  type EngineComparison,
  type RateComparison,
  type RateView,
  rateView,
  versusPrevious,
} from "./versus-previous";
