import { z } from "zod";
import { ENGINE_DEFAULTS, type EngineId, type EnginePrices } from "./engine";

/** The environment variables' prefix of each engine's vendor: `OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`… */
export const ENGINE_VENDORS: Record<EngineId, string> = {
  chatgpt: "OPENAI",
  claude: "ANTHROPIC",
  perplexity: "PERPLEXITY",
  gemini: "GEMINI",
};

const Prices = z
  .string()
  .regex(/^\d+(\.\d+)?,\d+(\.\d+)?(,\d+(\.\d+)?)?$/, "expected input,output[,perSearch]")
  .transform((value): EnginePrices => {
    const [input = 0, output = 0, perSearch] = value.split(",").map(Number);
    return { inputPerMTok: input, outputPerMTok: output, ...(perSearch === undefined ? {} : { perSearch }) };
  });

/**
 * Per engine, from the environment: the operator's key (`<VENDOR>_API_KEY`, used when a workspace
 * has none of its own), the vendor's address (`<VENDOR>_BASE_URL`, for every key: a proxy or a
 * regional endpoint), the model (`<VENDOR>_MODEL`) and prices (`<VENDOR>_PRICES`:
 * `input,output[,perSearch]` in US dollars per million tokens and per search unit).
 */
export const OperatorEngineSettings = Object.fromEntries(
  Object.values(ENGINE_VENDORS).flatMap((vendor) => [
    [`${vendor}_API_KEY`, z.string().min(1).optional().describe(`the operator's ${vendor} key for visibility runs`)],
    [
      `${vendor}_BASE_URL`,
      z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe(`the ${vendor} API's address`),
    ],
    [`${vendor}_MODEL`, z.string().min(1).optional().describe(`the ${vendor} model a run asks`)],
    [`${vendor}_PRICES`, Prices.optional().describe(`what the ${vendor} account pays: input,output[,perSearch] USD`)],
  ]),
) as Record<string, z.ZodOptional<z.ZodType>>;

export type OperatorEngine = { apiKey?: string; baseUrl?: string; model: string; prices?: EnginePrices };

/** Each engine's operator settings from parsed configuration holding `OperatorEngineSettings`. */
export const operatorEnginesOf = (config: Record<string, unknown>): Record<EngineId, OperatorEngine> =>
  Object.fromEntries(
    (Object.keys(ENGINE_VENDORS) as EngineId[]).map((engine) => {
      const vendor = ENGINE_VENDORS[engine];
      const apiKey = config[`${vendor}_API_KEY`] as string | undefined;
      const baseUrl = config[`${vendor}_BASE_URL`] as string | undefined;
      const prices = config[`${vendor}_PRICES`] as EnginePrices | undefined;
      return [
        engine,
        {
          model: (config[`${vendor}_MODEL`] as string | undefined) ?? ENGINE_DEFAULTS[engine].model,
          ...(apiKey ? { apiKey } : {}),
          ...(baseUrl ? { baseUrl } : {}),
          ...(prices ? { prices } : {}),
        },
      ];
    }),
  ) as Record<EngineId, OperatorEngine>;

const dollars = (fallback: number, what: string) =>
  z.coerce.number().min(0).max(1_000_000).default(fallback).describe(what);

/**
 * Each plan's monthly spend cap on visibility runs per workspace, in US dollars, read by the
 * gateway (a run is not started when the cap is spent, or 0) and the worker (each sample is
 * checked against it before it is asked).
 */
export const VisibilityBudgetSettings = {
  VISIBILITY_BUDGET_USD_FREE: dollars(0, "a Free workspace's monthly visibility spend cap (0: no runs)"),
  VISIBILITY_BUDGET_USD_STARTER: dollars(20, "a Starter workspace's monthly visibility spend cap"),
  VISIBILITY_BUDGET_USD_PRO: dollars(100, "a Pro workspace's monthly visibility spend cap"),
  VISIBILITY_BUDGET_USD_AGENCY: dollars(500, "an Agency workspace's monthly visibility spend cap"),
};

export type VisibilityBudgets = Record<"free" | "starter" | "pro" | "agency", number>;

export const visibilityBudgetsOf = (config: {
  VISIBILITY_BUDGET_USD_FREE: number;
  VISIBILITY_BUDGET_USD_STARTER: number;
  VISIBILITY_BUDGET_USD_PRO: number;
  VISIBILITY_BUDGET_USD_AGENCY: number;
}): VisibilityBudgets => ({
  free: config.VISIBILITY_BUDGET_USD_FREE,
  starter: config.VISIBILITY_BUDGET_USD_STARTER,
  pro: config.VISIBILITY_BUDGET_USD_PRO,
  agency: config.VISIBILITY_BUDGET_USD_AGENCY,
});
