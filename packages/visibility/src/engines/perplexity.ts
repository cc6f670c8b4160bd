import OpenAI from "openai";
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

/** The part of a Sonar chat completion this adapter reads. */
const CompletionBody = z.object({
  model: z.string().nullish(),
  choices: z
    .array(z.object({ finish_reason: z.string().nullish(), message: z.object({ content: z.string().nullish() }) }))
    .min(1),
  citations: z.array(z.string()).nullish(),
  search_results: z.array(z.object({ url: z.string(), title: z.string().nullish() })).nullish(),
  usage: z
    .object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      cost: z.object({ total_cost: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

/**
 * Perplexity's Sonar through its OpenAI-compatible chat completions, called with OpenAI's
 * client (Perplexity documents that use; its own client ships as an ES module only). Cited
 * sources are `citations` (or `search_results` where no `citations` list comes), numbered in
 * the text as `[n]`; Sonar does not report the queries it searched.
 */
export const askPerplexity = async (
  config: EngineConfig,
  prompt: EnginePrompt,
  options?: AskOptions,
): Promise<EngineAnswer> => {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseUrl ?? ENGINE_DEFAULTS.perplexity.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: (config.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 1_000,
  });
  const country = countryOfLocale(prompt.locale);
  // Perplexity's own parameter, which OpenAI's types spell differently
  const request = {
    model: config.model,
    messages: [{ role: "user" as const, content: prompt.text }],
    ...(country ? { web_search_options: { user_location: { country } } } : {}),
  } as OpenAI.ChatCompletionCreateParamsNonStreaming;
  const raw = await underDeadline("perplexity", config, options?.signal, (signal) =>
    client.chat.completions.create(request, { signal }),
  );
  const parsed = CompletionBody.safeParse(raw);
  if (!parsed.success) throw malformed("perplexity", "the documented completion fields");
  const body = parsed.data;
  const choice = body.choices[0];
  if (choice?.finish_reason === "content_filter")
    throw new EngineError("perplexity", "refused", "perplexity stopped the answer at its content filter");
  const text = choice?.message.content ?? "";
  if (text.trim() === "") throw malformed("perplexity", "answer text");
  const results = body.search_results ?? [];
  const sources = body.citations ?? results.map((result) => result.url);
  const titleOf = (url: string) => results.find((result) => result.url === url)?.title ?? undefined;
  const marks: SourceMark[] = [];
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) {
    const url = sources[Number(match[1]) - 1];
    if (url === undefined) continue;
    const title = titleOf(url);
    marks.push({
      rawUrl: url,
      ...(title ? { title } : {}),
      span: { start: match.index, end: match.index + match[0].length },
    });
  }
  for (const url of sources) {
    const title = titleOf(url);
    marks.push({ rawUrl: url, ...(title ? { title } : {}) });
  }
  const usage = {
    inputTokens: body.usage?.prompt_tokens ?? 0,
    outputTokens: body.usage?.completion_tokens ?? 0,
    // Sonar charges a fee per request, searched or not
    searchCalls: 1,
  };
  return priced(
    config,
    {
      engine: "perplexity",
      model: body.model ?? config.model,
      text,
      citations: collectCitations(marks),
      searchQueries: [],
      usage,
    },
    body.usage?.cost?.total_cost ?? undefined,
  );
};
