import { type AskOptions, type EngineAnswer, EngineConfig, EngineError, type EnginePrompt, pricesFor } from "./engine";
import { askChatGpt } from "./engines/chatgpt";
import { askClaude } from "./engines/claude";
import { askGemini } from "./engines/gemini";
import { askPerplexity } from "./engines/perplexity";

const ADAPTERS = { chatgpt: askChatGpt, claude: askClaude, perplexity: askPerplexity, gemini: askGemini } as const;

/**
 * Asks one engine one prompt, with web search on, once. A configuration it cannot use or price
 * is refused before any request goes out; every failure of the call is an `EngineError`.
 * Nothing is retried here: the caller owns the retry policy.
 */
export const askEngine = async (
  config: EngineConfig,
  prompt: EnginePrompt,
  options?: AskOptions,
): Promise<EngineAnswer> => {
  const checked = EngineConfig.safeParse(config);
  if (!checked.success) {
    const fields = [...new Set(checked.error.issues.map((issue) => issue.path.join(".") || "config"))];
    throw new EngineError(
      EngineConfig.shape.engine.safeParse(config?.engine).data ?? "chatgpt",
      "bad_request",
      `engine configuration is invalid: ${fields.join(", ")}`,
    );
  }
  const valid = checked.data;
  if (!pricesFor(valid))
    throw new EngineError(valid.engine, "bad_request", `no prices known for model ${valid.model}; configure prices`);
  if (prompt.text.trim() === "") throw new EngineError(valid.engine, "bad_request", "the prompt is empty");
  return ADAPTERS[valid.engine](valid, prompt, options);
};
