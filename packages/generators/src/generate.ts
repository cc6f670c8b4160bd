import { preparePage } from "@scan/checks";
import type { Snapshot } from "@scan/contract";
import { z } from "zod";
import { type BlogContent, blogContent } from "./blog-content";
import { pageText } from "./content-blocks";
import { type FaqContent, faqContent } from "./faq-content";
import { type ChatMessage, chatCompletion, LlmEndpoint, LlmError } from "./llm";
import { pageFacts } from "./page-facts";
import { type ProductContent, productContent } from "./product-content";
import { topicMatcher } from "./topic";

export const ContentType = z.enum(["faq", "blog", "product"], { error: 'must be one of "faq", "blog", "product"' });
export type ContentType = z.infer<typeof ContentType>;

/** The options of `generate` as a caller sends them. */
export const GenerateOptions = z.strictObject({
  contentType: ContentType,
  topic: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" })
    .optional(),
});
export type GenerateOptions = z.input<typeof GenerateOptions>;

/** How the content was made, and what happened with the model when one is configured. */
export type Provenance = {
  url: string;
  topic: string | null;
  /** "extractive": drawn from the page's own words; "llm": drafted by the model from the page's text */
  method: "extractive" | "llm";
  /** null without a model; else the model asked and, when the draft fell back to extraction, why */
  llm: { model: string; error: string | null } | null;
};

export type GeneratedContent = (FaqContent | BlogContent | ProductContent) & Provenance;

// no generator reads the scan time
const EPOCH = new Date(0);

const extract = (snapshot: Snapshot, options: z.output<typeof GenerateOptions>) => {
  const facts = pageFacts(preparePage(snapshot, EPOCH));
  const topic = options.topic ?? null;
  const matches = topicMatcher(topic);
  const content =
    options.contentType === "faq"
      ? faqContent(facts, matches, topic)
      : options.contentType === "blog"
        ? blogContent(facts, matches, topic)
        : productContent(facts, matches, topic);
  return { facts, content, topic };
};

/**
 * Content drawn from the page without a model: deterministic, every sentence the page's own
 * (faq-content.ts, blog-content.ts, product-content.ts). Pure.
 */
export const generateExtractive = (snapshot: Snapshot, options: GenerateOptions): GeneratedContent => {
  const { facts, content, topic } = extract(snapshot, GenerateOptions.parse(options));
  return { ...content, url: facts.url, topic, method: "extractive", llm: null };
};

const TASKS: Record<ContentType, string> = {
  faq: "Write an FAQ of up to 8 questions that this page answers. Format each as a '## ' heading with the question, followed by a short answer paragraph.",
  blog: "Write a blog post outline based on this page: a '# ' title, a one-paragraph introduction, then '## ' section headings, each with two to four bullet points of key facts.",
  product:
    "Write a product description based on this page: a '# ' heading with the product name, a description of two or three sentences, then '## Key features' and '## Details' bullet lists (brand, price, availability only where the page states them).",
};

const SYSTEM =
  "You draft web content strictly from the page text you are given. Use only facts stated in that text: add no facts, figures, names, prices or claims that are not in it, and leave out what it does not say. Write in the language of the page. Answer with Markdown only.";

/** The messages sent to the model: the task, the topic, and the page's text between markers, cut at `maxChars`. */
export const groundedMessages = (snapshot: Snapshot, options: GenerateOptions, maxChars: number): ChatMessage[] => {
  const parsed = GenerateOptions.parse(options);
  const { facts } = extract(snapshot, parsed);
  const head = [
    facts.title ? `Title: ${facts.title}` : "",
    facts.description ? `Description: ${facts.description.value}` : "",
  ];
  const text = pageText(facts.page, head, maxChars);
  const focus = parsed.topic ? ` Keep only what the page says about this topic: ${parsed.topic}.` : "";
  return [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: `${TASKS[parsed.contentType]}${focus}\n\nPage URL: ${facts.url}\n\nPage text:\n<<<PAGE\n${text}\nPAGE>>>`,
    },
  ];
};

/**
 * FAQ, blog or product content from a page. Without `llm` it is `generateExtractive`. With an
 * OpenAI-compatible endpoint, the model drafts `markdown` from the page's extracted text
 * (`groundedMessages`: at most `maxInputChars` of it, within `timeoutMs`); the extractive
 * fields stay beside it as the grounding. When the call fails (status, timeout, a malformed
 * answer) the content is the extractive one and `llm.error` says why; `method` says which way
 * was used. The key is sent in the Authorization header and nowhere else: never in the output,
 * an error or a log.
 */
export const generate = async (
  snapshot: Snapshot,
  options: GenerateOptions,
  llm?: LlmEndpoint | null,
): Promise<GeneratedContent> => {
  const extractive = generateExtractive(snapshot, options);
  if (!llm) return extractive;
  const endpoint = LlmEndpoint.parse(llm);
  try {
    const messages = groundedMessages(snapshot, options, endpoint.maxInputChars);
    const markdown = await chatCompletion(endpoint, messages);
    return { ...extractive, markdown: `${markdown}\n`, method: "llm", llm: { model: endpoint.model, error: null } };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { ...extractive, llm: { model: endpoint.model, error: error.message } };
  }
};
