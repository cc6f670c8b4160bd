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

const UrlCitation = z.object({
  type: z.literal("url_citation"),
  url: z.string(),
  title: z.string().nullish(),
  start_index: z.number().int().nonnegative().optional(),
  end_index: z.number().int().nonnegative().optional(),
});
const ContentPart = z.union([
  z.object({ type: z.literal("output_text"), text: z.string(), annotations: z.array(z.unknown()).nullish() }),
  z.object({ type: z.literal("refusal"), refusal: z.string() }),
  z.object({ type: z.string() }),
]);
const OutputItem = z.union([
  z.object({ type: z.literal("message"), content: z.array(ContentPart) }),
  z.object({
    type: z.literal("web_search_call"),
    action: z
      .object({ type: z.string(), query: z.string().nullish(), queries: z.array(z.string()).nullish() })
      .nullish(),
  }),
  z.object({ type: z.string() }),
]);
/** The part of a Responses API response this adapter reads. */
const ResponsesBody = z.object({
  model: z.string().nullish(),
  status: z.string().nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  output: z.array(OutputItem),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullish(),
});
type ResponsesBody = z.infer<typeof ResponsesBody>;

/**
 * ChatGPT through OpenAI's Responses API with the `web_search` tool. The answer is the
 * assistant's text after its last search; cited sources are the `url_citation` annotations on
 * it, search queries the `web_search_call` items' actions.
 */
export const askChatGpt = async (
  config: EngineConfig,
  prompt: EnginePrompt,
  options?: AskOptions,
): Promise<EngineAnswer> => {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseUrl ?? ENGINE_DEFAULTS.chatgpt.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    // the deadline below bounds the call; this is only a backstop
    timeout: (config.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 1_000,
  });
  const country = countryOfLocale(prompt.locale);
  const raw = await underDeadline("chatgpt", config, options?.signal, (signal) =>
    client.responses.create(
      {
        model: config.model,
        input: prompt.text,
        tools: [{ type: "web_search", ...(country ? { user_location: { type: "approximate", country } } : {}) }],
        store: false,
      },
      { signal },
    ),
  );
  const parsed = ResponsesBody.safeParse(raw);
  if (!parsed.success) throw malformed("chatgpt", "the documented response fields");
  return readResponse(config, parsed.data);
};

const readResponse = (config: EngineConfig, body: ResponsesBody): EngineAnswer => {
  if (body.status === "failed") {
    const code = body.error?.code ?? "";
    const kind =
      code === "rate_limit_exceeded" ? "rate_limited" : code === "invalid_prompt" ? "bad_request" : "unavailable";
    throw new EngineError("chatgpt", kind, `chatgpt failed the answer (${code || "no code"})`);
  }
  if (body.status === "incomplete" && body.incomplete_details?.reason === "content_filter")
    throw new EngineError("chatgpt", "refused", "chatgpt stopped the answer at its content filter");
  const lastSearch = body.output.findLastIndex((item) => item.type === "web_search_call");
  const searches = body.output.flatMap((item) => (item.type === "web_search_call" && "action" in item ? [item] : []));
  const searchQueries = searches.flatMap(({ action }) =>
    action?.type === "search" ? (action.queries ?? (action.query ? [action.query] : [])) : [],
  );
  const afterSearch = body.output.slice(lastSearch + 1).some((item) => item.type === "message");
  const messages = body.output.filter(
    (item, index): item is Extract<ResponsesBody["output"][number], { type: "message"; content: unknown }> =>
      item.type === "message" && "content" in item && (!afterSearch || index > lastSearch),
  );
  let text = "";
  const marks: SourceMark[] = [];
  const refusals: string[] = [];
  for (const message of messages) {
    if (text !== "") text += "\n\n";
    for (const part of message.content) {
      if (part.type === "refusal" && "refusal" in part) refusals.push(part.refusal);
      if (part.type !== "output_text" || !("text" in part)) continue;
      const offset = text.length;
      for (const annotation of part.annotations ?? []) {
        const citation = UrlCitation.safeParse(annotation);
        if (!citation.success) continue;
        const { url, title, start_index: start, end_index: end } = citation.data;
        const span =
          start !== undefined && end !== undefined && end >= start && end <= part.text.length
            ? { start: offset + start, end: offset + end }
            : undefined;
        marks.push({ rawUrl: url, ...(title ? { title } : {}), ...(span ? { span } : {}) });
      }
      text += part.text;
    }
  }
  if (text.trim() === "") {
    if (refusals.length > 0) throw new EngineError("chatgpt", "refused", "chatgpt refused to answer");
    throw malformed("chatgpt", "answer text");
  }
  const usage = {
    inputTokens: body.usage?.input_tokens ?? 0,
    outputTokens: body.usage?.output_tokens ?? 0,
    searchCalls: searches.length,
  };
  return priced(config, {
    engine: "chatgpt",
    model: body.model ?? config.model,
    text,
    citations: collectCitations(marks),
    searchQueries,
    usage,
  });
};
