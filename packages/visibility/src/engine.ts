import { z } from "zod";

export const ENGINE_IDS = ["chatgpt", "claude", "perplexity", "gemini"] as const;
export const EngineId = z.enum(ENGINE_IDS);
export type EngineId = z.infer<typeof EngineId>;

export const EnginePrices = z.object({
  /** US dollars per million input tokens */
  inputPerMTok: z.number().nonnegative(),
  /** US dollars per million output tokens */
  outputPerMTok: z.number().nonnegative(),
  /** US dollars per billable search unit (see `EngineUsage.searchCalls`) */
  perSearch: z.number().nonnegative().optional(),
});
export type EnginePrices = z.infer<typeof EnginePrices>;

export const EngineConfig = z.object({
  engine: EngineId,
  apiKey: z.string().min(1, "an engine needs its API key"),
  /** the vendor's API root; defaults to the vendor's public address (`ENGINE_DEFAULTS`) */
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1),
  /** one answer's whole budget, search included; default 120 s */
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  /** defaults to the published prices of a known model (`KNOWN_PRICES`) */
  prices: EnginePrices.optional(),
});
export type EngineConfig = z.infer<typeof EngineConfig>;

export type EnginePrompt = { text: string; locale?: string };

export type CitationSpan = { start: number; end: number };

export type Citation = {
  /** normalised (see `normaliseUrl`); one entry per distinct normalised URL */
  url: string;
  /** as the engine sent it */
  rawUrl: string;
  title?: string;
  /**
   * the cited site's host without `www.`: the URL's host, or, where the engine cites through a
   * redirect link (Gemini's grounding links) that was not followed, the site the engine names for it
   */
  domain: string;
  /** 1-based order of first appearance in the answer */
  position: number;
  /** the first span of the answer text the engine attributes to this source, where it marks one */
  start?: number;
  end?: number;
  /** every span the engine attributes to this source, in text order */
  spans: CitationSpan[];
};

export type EngineUsage = {
  inputTokens: number;
  outputTokens: number;
  /**
   * billable search units as the vendor bills them: web search calls (ChatGPT), web search
   * requests (Claude), requests (Perplexity's request fee), grounded answers (Gemini)
   */
  searchCalls: number;
};

export type EngineAnswer = {
  engine: EngineId;
  /** the model the vendor says answered, or the configured one when it says none */
  model: string;
  text: string;
  citations: Citation[];
  searchQueries: string[];
  usage: EngineUsage;
  costUsd: number;
};

export type AskOptions = { signal?: AbortSignal };

export const ENGINE_ERROR_KINDS = [
  "rate_limited",
  "unavailable",
  "timeout",
  "refused",
  "malformed",
  "auth",
  "bad_request",
] as const;
export type EngineErrorKind = (typeof ENGINE_ERROR_KINDS)[number];

/**
 * Why an engine gave no answer. Retrying is the caller's decision: `rate_limited` (after
 * `retryAfterMs` when the vendor said), `unavailable` and `timeout` are worth another try;
 * `auth`, `bad_request` and `refused` are not; `malformed` is a vendor fault that may pass.
 * The message never holds the API key.
 */
export class EngineError extends Error {
  override readonly name = "EngineError";
  constructor(
    readonly engine: EngineId,
    readonly kind: EngineErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The vendors' public addresses, and the model asked when none is configured. */
export const ENGINE_DEFAULTS: Record<EngineId, { baseUrl: string; model: string }> = {
  chatgpt: { baseUrl: "https://api.openai.com/v1", model: "gpt-5.1" },
  claude: { baseUrl: "https://api.anthropic.com", model: "claude-sonnet-4-6" },
  perplexity: { baseUrl: "https://api.perplexity.ai", model: "sonar" },
  gemini: { baseUrl: "https://generativelanguage.googleapis.com", model: "gemini-2.5-flash" },
};

/**
 * Published list prices (US dollars) of the models this package knows; another model needs its
 * prices configured, since a call whose cost cannot be counted cannot be budgeted. Compared on
 * 2026-12-07 with the vendors' pricing pages as quoted in public copies (the pages themselves were
 * not reachable from where this was written; docs/visibility.md, "Cost", names the sources).
 * ChatGPT's search is the Responses API's generally available `web_search` tool: $10 per 1,000
 * calls whatever the model (the $25 of the older `web_search_preview` applies to non-reasoning
 * models there). Only gpt-4.1-mini's per-search price here includes a fixed 8,000 input tokens
 * billed with each call (0.01 + 8,000 × $0.40 / 1M = 0.0132), which the quoted pages give for the
 * non-reasoning mini models; no other model's price here includes such tokens.
 */
export const KNOWN_PRICES: Record<string, EnginePrices> = {
  "gpt-5.1": { inputPerMTok: 1.25, outputPerMTok: 10, perSearch: 0.01 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10, perSearch: 0.01 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2, perSearch: 0.01 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8, perSearch: 0.01 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6, perSearch: 0.0132 },
  "claude-sonnet-4-6": { inputPerMTok: 3, outputPerMTok: 15, perSearch: 0.01 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5, perSearch: 0.01 },
  sonar: { inputPerMTok: 1, outputPerMTok: 1, perSearch: 0.005 },
  "sonar-pro": { inputPerMTok: 3, outputPerMTok: 15, perSearch: 0.006 },
  "gemini-2.5-flash": { inputPerMTok: 0.3, outputPerMTok: 2.5, perSearch: 0.035 },
  "gemini-2.5-pro": { inputPerMTok: 1.25, outputPerMTok: 10, perSearch: 0.035 },
};

/** The prices an answer of this configuration is counted at, or null when none are known. */
export const pricesFor = (config: Pick<EngineConfig, "model" | "prices">): EnginePrices | null =>
  config.prices ?? KNOWN_PRICES[config.model] ?? null;

/** US dollars for the usage at the prices. */
export const costOf = (usage: EngineUsage, prices: EnginePrices): number =>
  (usage.inputTokens * prices.inputPerMTok + usage.outputTokens * prices.outputPerMTok) / 1_000_000 +
  usage.searchCalls * (prices.perSearch ?? 0);
