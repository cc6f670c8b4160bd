import { CheckStatus, ToolUrl } from "@scan/contract";
import { ContentType, FixOptions, GenerateOptions } from "@scan/generators";
import { z } from "zod";

/**
 * Inputs and outputs of fix and generate, the same for the MCP tools (aeo_fix, aeo_generate)
 * and the REST endpoints (POST /api/v1/fix, POST /api/v1/generate). The option fields are the
 * generators' own schemas (check ids of the catalogue; faq, blog or product; a topic of 1 to
 * 200 characters), under the names docs/spec/public-scanning-api.md §4.8 gives them.
 */

export const FixInput = z.strictObject({
  url: ToolUrl,
  issues: FixOptions.shape.issues.describe(
    "Check ids to fix, such as llms-txt, structured-data, faq-schema or ai-search-access; only the files that " +
      "address one of them are generated. All three files (llms.txt, JSON-LD, robots.txt) when absent.",
  ),
});
export type FixInput = z.infer<typeof FixInput>;

export const GenerateInput = z.strictObject({
  url: ToolUrl,
  content_type: ContentType.describe(
    "faq: questions and answers; blog: an outline with key points; product: a product description.",
  ),
  topic: GenerateOptions.shape.topic.describe("Keep only what the page says about this topic (1 to 200 characters)."),
});
export type GenerateInput = z.infer<typeof GenerateInput>;

// the generators' files are described by their stable fields; fields they add later pass through
const Verdicts = z.record(z.string(), CheckStatus);
const TextFile = z.looseObject({
  addresses: z.array(z.string()),
  path: z.string(),
  contentType: z.string(),
  content: z.string(),
  placement: z.string(),
  notes: z.array(z.string()),
  verdicts: Verdicts,
});
const JsonLdFile = z.looseObject({
  addresses: z.array(z.string()),
  types: z.array(z.string()),
  data: z.looseObject({
    "@context": z.literal("https://schema.org"),
    "@graph": z.array(z.record(z.string(), z.unknown())),
  }),
  html: z.string(),
  placement: z.string(),
  notes: z.array(z.string()),
  verdicts: Verdicts,
});

/** What fix answers: the scan it was drawn from, and the files ready to paste. */
export const FixResult = z.looseObject({
  /** the full scan the files were generated from (GET /api/v1/scan/:id) */
  scanId: z.uuid(),
  url: z.string(),
  llmsTxt: TextFile.nullable(),
  jsonLd: JsonLdFile.nullable(),
  robotsTxt: TextFile.nullable(),
  unaddressed: z.array(z.object({ id: z.string(), reason: z.string() })),
});
export type FixResult = z.infer<typeof FixResult>;

/** What generate answers: the scan it was drawn from, the content, and how it was made. */
export const GenerateResult = z.looseObject({
  scanId: z.uuid(),
  contentType: ContentType,
  url: z.string(),
  topic: z.string().nullable(),
  /** extractive: the page's own words; llm: drafted by the configured model from the page's text */
  method: z.enum(["extractive", "llm"]),
  llm: z.object({ model: z.string(), error: z.string().nullable() }).nullable(),
  title: z.string(),
  markdown: z.string(),
  notes: z.array(z.string()),
});
export type GenerateResult = z.infer<typeof GenerateResult>;
