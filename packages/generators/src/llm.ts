import { z } from "zod";

/**
 * An OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). The
 * service's config parses these once at start and passes them in; this package reads no
 * environment. `baseUrl` is the API root, such as https://api.openai.com/v1; requests go to
 * `{baseUrl}/chat/completions`.
 */
export const LlmEndpoint = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1),
  model: z.string().min(1).max(200),
  /** the whole call, connection to last byte */
  timeoutMs: z.int().min(100).max(120_000).default(20_000),
  /** page text sent to the model, in characters */
  maxInputChars: z.int().min(500).max(200_000).default(12_000),
});
export type LlmEndpoint = z.input<typeof LlmEndpoint>;

/** A failure to get a draft from the model, said without the key, the URL's credentials or the answer's body. */
export class LlmError extends Error {
  override readonly name = "LlmError";
}

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

// an answer longer than this is not a draft of one page; the read stops there
const MAX_ANSWER_BYTES = 1_000_000;
const MAX_DRAFT_CHARS = 20_000;

const readBounded = async (response: Response): Promise<string> => {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new LlmError(`the model endpoint's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
};

export type ChatMessage = { role: "system" | "user"; content: string };

/**
 * One chat completion, bounded in time (`timeoutMs` for the whole exchange) and in size. The key
 * goes in the Authorization header only; errors name the status or the cause, never the key or
 * the answer's body (an endpoint may echo what it was sent).
 */
export const chatCompletion = async (endpoint: LlmEndpoint, messages: readonly ChatMessage[]): Promise<string> => {
  const config = LlmEndpoint.parse(endpoint);
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const signal = AbortSignal.timeout(config.timeoutMs);
  let text: string;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: `Bearer ${config.apiKey}`,
      },
      body: JSON.stringify({ model: config.model, messages, temperature: 0 }),
      signal,
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new LlmError(`the model endpoint answered HTTP ${response.status}`);
    }
    text = await readBounded(response);
  } catch (error) {
    if (error instanceof LlmError) throw error;
    if (signal.aborted) throw new LlmError(`the model endpoint did not answer within ${config.timeoutMs} ms`);
    // the cause's code (ECONNREFUSED, ENOTFOUND) says what went wrong without saying what was sent
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new LlmError(
      `the model endpoint could not be reached (${typeof cause === "string" ? cause : (error as Error).name})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LlmError("the model endpoint's answer is not JSON");
  }
  const parsed = ChatCompletion.safeParse(json);
  const content = parsed.success ? parsed.data.choices[0]?.message.content?.trim() : undefined;
  if (!content) throw new LlmError("the model endpoint's answer holds no message content");
  return content.slice(0, MAX_DRAFT_CHARS);
};
