import { GoogleGenAI } from "@google/genai";
import { z } from "zod";
import { DEFAULT_TIMEOUT_MS, malformed, retryAfterMsOf, underDeadline } from "../call";
import { collectCitations, type SourceMark } from "../citations";
import {
  type AskOptions,
  ENGINE_DEFAULTS,
  type EngineAnswer,
  type EngineConfig,
  EngineError,
  type EnginePrompt,
} from "../engine";
import { GROUNDING_REDIRECT_HOSTS } from "../redirects";
import { priced } from "./priced";

/** Finish and block reasons that mean Gemini would not answer. */
const REFUSALS = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "OTHER"]);

const Part = z.object({ text: z.string().nullish(), thought: z.boolean().nullish() });
/** The part of a generateContent response this adapter reads. */
const GenerateBody = z.object({
  modelVersion: z.string().nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish() }).nullish(),
  candidates: z
    .array(
      z.object({
        finishReason: z.string().nullish(),
        content: z.object({ parts: z.array(Part).nullish() }).nullish(),
        groundingMetadata: z
          .object({
            webSearchQueries: z.array(z.string()).nullish(),
            groundingChunks: z
              .array(z.object({ web: z.object({ uri: z.string().nullish(), title: z.string().nullish() }).nullish() }))
              .nullish(),
            groundingSupports: z
              .array(
                z.object({
                  segment: z
                    .object({
                      partIndex: z.number().int().nullish(),
                      startIndex: z.number().int().nullish(),
                      endIndex: z.number().int().nullish(),
                    })
                    .nullish(),
                  groundingChunkIndices: z.array(z.number().int()).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  usageMetadata: z
    .object({
      promptTokenCount: z.number().nullish(),
      candidatesTokenCount: z.number().nullish(),
      thoughtsTokenCount: z.number().nullish(),
      toolUsePromptTokenCount: z.number().nullish(),
    })
    .nullish(),
});

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
/** Gemini measures segments in UTF-8 bytes of the part; JavaScript strings count UTF-16 units. */
const unitsAtByte = (text: string, byte: number): number => fromUtf8.decode(utf8.encode(text).slice(0, byte)).length;

/** Whether an error body says the key is wrong: Gemini answers a bad key with 400, reason API_KEY_INVALID. */
const keyRejected = async (response: Response): Promise<boolean> => {
  try {
    const body = (await response.clone().json()) as { error?: { details?: Array<Record<string, unknown>> } };
    return body.error?.details?.some((d) => d.reason === "API_KEY_INVALID") ?? false;
  } catch {
    return false;
  }
};

/** How long Gemini asks to wait: `Retry-After`, else the `RetryInfo` detail of its error body. */
const retryAfterOfResponse = async (response: Response): Promise<number | undefined> => {
  const fromHeader = retryAfterMsOf(response.headers);
  if (fromHeader !== undefined) return fromHeader;
  try {
    const body = (await response.clone().json()) as { error?: { details?: Array<Record<string, unknown>> } };
    const delay = body.error?.details?.find((d) => String(d["@type"]).endsWith("google.rpc.RetryInfo"))?.retryDelay;
    const seconds = typeof delay === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1] : undefined;
    return seconds === undefined ? undefined : Math.round(Number(seconds) * 1000);
  } catch {
    return undefined;
  }
};

/**
 * Gemini through the Gemini API's generateContent with the `googleSearch` tool. Cited sources
 * are `groundingMetadata.groundingChunks`, placed in the text by `groundingSupports`; search
 * queries are `webSearchQueries`.
 */
export const askGemini = async (
  config: EngineConfig,
  prompt: EnginePrompt,
  options?: AskOptions,
): Promise<EngineAnswer> => {
  let retryAfterMs: number | undefined;
  let badKey = false;
  const ai = new GoogleGenAI({
    vertexai: false,
    apiKey: config.apiKey,
    apiVersion: "v1beta",
    httpOptions: {
      baseUrl: config.baseUrl ?? ENGINE_DEFAULTS.gemini.baseUrl,
      timeout: (config.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 1_000,
      // no retryOptions: the client then makes exactly one attempt
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.status === 429) retryAfterMs = await retryAfterOfResponse(response);
        if (response.status === 400) badKey = await keyRejected(response);
        return response;
      },
    },
  });
  let raw: unknown;
  try {
    raw = await underDeadline("gemini", config, options?.signal, (signal) =>
      ai.models.generateContent({
        model: config.model,
        contents: prompt.text,
        config: { tools: [{ googleSearch: {} }], abortSignal: signal },
      }),
    );
  } catch (error) {
    if (error instanceof EngineError && badKey)
      throw new EngineError("gemini", "auth", `gemini refused the API key (${error.status})`, error.status);
    if (error instanceof EngineError && error.kind === "rate_limited" && retryAfterMs !== undefined)
      throw new EngineError("gemini", "rate_limited", error.message, error.status, retryAfterMs);
    throw error;
  }
  const parsed = GenerateBody.safeParse(raw);
  if (!parsed.success) throw malformed("gemini", "the documented response fields");
  const body = parsed.data;
  const blocked = body.promptFeedback?.blockReason;
  if (blocked) throw new EngineError("gemini", "refused", `gemini blocked the prompt (${blocked})`);
  const candidate = body.candidates?.[0];
  if (!candidate) throw malformed("gemini", "a candidate");
  if (candidate.finishReason && REFUSALS.has(candidate.finishReason))
    throw new EngineError("gemini", "refused", `gemini stopped the answer (${candidate.finishReason})`);
  const parts = candidate.content?.parts ?? [];
  const offsets: number[] = [];
  let text = "";
  for (const part of parts) {
    offsets.push(text.length);
    if (!part.thought) text += part.text ?? "";
  }
  if (text.trim() === "") throw malformed("gemini", "answer text");
  const grounding = candidate.groundingMetadata;
  const chunks = grounding?.groundingChunks ?? [];
  const marks: SourceMark[] = [];
  for (const support of grounding?.groundingSupports ?? []) {
    const segment = support.segment;
    const partIndex = segment?.partIndex ?? 0;
    const partText = parts[partIndex]?.text ?? "";
    const base = offsets[partIndex] ?? 0;
    // proto3 leaves a zero start out of the JSON
    const start = base + unitsAtByte(partText, segment?.startIndex ?? 0);
    const end = base + unitsAtByte(partText, segment?.endIndex ?? 0);
    for (const index of support.groundingChunkIndices ?? []) {
      const web = chunks[index]?.web;
      if (web?.uri) marks.push({ rawUrl: web.uri, ...(web.title ? { title: web.title } : {}), span: { start, end } });
    }
  }
  for (const chunk of chunks)
    if (chunk.web?.uri) marks.push({ rawUrl: chunk.web.uri, ...(chunk.web.title ? { title: chunk.web.title } : {}) });
  const searchQueries = grounding?.webSearchQueries ?? [];
  const usage = {
    inputTokens: (body.usageMetadata?.promptTokenCount ?? 0) + (body.usageMetadata?.toolUsePromptTokenCount ?? 0),
    outputTokens: (body.usageMetadata?.candidatesTokenCount ?? 0) + (body.usageMetadata?.thoughtsTokenCount ?? 0),
    // grounding is billed per grounded answer
    searchCalls: searchQueries.length > 0 || chunks.length > 0 ? 1 : 0,
  };
  return priced(config, {
    engine: "gemini",
    model: body.modelVersion ?? config.model,
    text,
    citations: collectCitations(marks, [...GROUNDING_REDIRECT_HOSTS]),
    searchQueries,
    usage,
  });
};
