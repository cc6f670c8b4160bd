import Anthropic from "@anthropic-ai/sdk";
import { z } from "zod";
import { countryOfLocale, DEFAULT_TIMEOUT_MS, malformed, underDeadline } from "../call";
import { collectCitations, type SourceMark } from "../citations";
import {
  type AskOptions,
  ENGINE_DEFAULTS,
  type EngineAnswer,
  type EngineConfig,
  EngineError,
  type EnginePrompt,
} from "../engine";
import { priced } from "./priced";

const MAX_TOKENS = 4096;
/** web searches the model may run for one answer */
const MAX_SEARCHES = 5;
/** a long search turn comes back as `pause_turn`; it is sent back to continue, this many times at most */
const MAX_CONTINUATIONS = 3;

const SearchLocation = z.object({
  type: z.literal("web_search_result_location"),
  url: z.string(),
  title: z.string().nullish(),
});
const Block = z.union([
  z.object({ type: z.literal("text"), text: z.string(), citations: z.array(z.unknown()).nullish() }),
  z.object({ type: z.literal("server_tool_use"), name: z.string(), input: z.unknown() }),
  z.object({ type: z.string() }),
]);
/** The part of a Messages API response this adapter reads. */
const MessageBody = z.object({
  model: z.string().nullish(),
  content: z.array(Block),
  stop_reason: z.string().nullish(),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    server_tool_use: z.object({ web_search_requests: z.number().nullish() }).nullish(),
  }),
});
type MessageBody = z.infer<typeof MessageBody>;
type Block = z.infer<typeof Block>;

/**
 * Claude through Anthropic's Messages API with the `web_search_20250305` server tool. The
 * answer is the text after the last search; cited sources are the text blocks'
 * `web_search_result_location` citations, search queries the `server_tool_use` inputs.
 */
export const askClaude = async (
  config: EngineConfig,
  prompt: EnginePrompt,
  options?: AskOptions,
): Promise<EngineAnswer> => {
  const client = new Anthropic({
    apiKey: config.apiKey,
    authToken: null,
    baseURL: config.baseUrl ?? ENGINE_DEFAULTS.claude.baseUrl,
    maxRetries: 0,
    timeout: (config.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 1_000,
  });
  const country = countryOfLocale(prompt.locale);
  const tool = {
    type: "web_search_20250305" as const,
    name: "web_search" as const,
    max_uses: MAX_SEARCHES,
    ...(country ? { user_location: { type: "approximate" as const, country } } : {}),
  };
  const blocks: Block[] = [];
  let model = config.model;
  const usage = { inputTokens: 0, outputTokens: 0, searchCalls: 0 };
  await underDeadline("claude", config, options?.signal, async (signal) => {
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt.text }];
    for (let turn = 0; ; turn++) {
      const raw = await client.messages.create(
        { model: config.model, max_tokens: MAX_TOKENS, messages, tools: [tool] },
        { signal },
      );
      const parsed = MessageBody.safeParse(raw);
      if (!parsed.success) throw malformed("claude", "the documented message fields");
      const body: MessageBody = parsed.data;
      blocks.push(...body.content);
      model = body.model ?? model;
      usage.inputTokens += body.usage.input_tokens;
      usage.outputTokens += body.usage.output_tokens;
      usage.searchCalls += body.usage.server_tool_use?.web_search_requests ?? 0;
      if (body.stop_reason === "refusal") throw new EngineError("claude", "refused", "claude refused to answer");
      if (body.stop_reason !== "pause_turn") return;
      if (turn >= MAX_CONTINUATIONS) throw new EngineError("claude", "unavailable", "claude kept pausing its answer");
      messages.push({ role: "assistant", content: raw.content });
    }
  });
  const lastSearch = blocks.findLastIndex((block) => block.type !== "text");
  const afterSearch = blocks.slice(lastSearch + 1).some((block) => block.type === "text");
  let text = "";
  const marks: SourceMark[] = [];
  blocks.forEach((block, index) => {
    if (block.type !== "text" || !("text" in block) || (afterSearch && index < lastSearch)) return;
    if (text !== "" && blocks[index - 1]?.type !== "text") text += "\n\n";
    const span = { start: text.length, end: text.length + block.text.length };
    for (const raw of block.citations ?? []) {
      const citation = SearchLocation.safeParse(raw);
      if (citation.success)
        marks.push({ rawUrl: citation.data.url, ...(citation.data.title ? { title: citation.data.title } : {}), span });
    }
    text += block.text;
  });
  if (text.trim() === "") throw malformed("claude", "answer text");
  const searchQueries = blocks.flatMap((block) => {
    if (block.type !== "server_tool_use" || !("name" in block) || block.name !== "web_search") return [];
    const query = (block.input as { query?: unknown } | null)?.query;
    return typeof query === "string" ? [query] : [];
  });
  if (usage.searchCalls === 0) usage.searchCalls = searchQueries.length;
  return priced(config, { engine: "claude", model, text, citations: collectCitations(marks), searchQueries, usage });
};
