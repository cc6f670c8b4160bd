import { CheckStatus, Grade, ToolUrl } from "@scan/contract";
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
    "Check ids to fix, such as llms-txt, structured-data, faq-schema, ai-search-access, ai-catalog-schema or " +
      "webmcp-form-coverage; only the files that address one of them are generated. Every file the page gives " +
      "facts for (llms.txt, JSON-LD, robots.txt, ai-catalog.json, WebMCP form annotations) when absent.",
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
const Verdicts = z.record(z.string(), CheckStatus).describe("The scan's verdicts on the checks in addresses.");
const Addresses = z
  .array(z.string())
  .describe("The checks this file makes pass: each passes when the checks run on the page with the file in place.");
const OwnerMustSupply = z
  .array(
    z.object({
      id: z.string(),
      before: CheckStatus,
      after: CheckStatus,
      what: z.string().describe("what the page does not state and its owner must supply (a logo, a publication date)"),
    }),
  )
  .describe(
    "Checks this file is meant to fix that still do not pass with it in place, and what the owner must supply.",
  );
const Scored = z.object({
  scores: z.object({ seo: z.number(), aeo: z.number(), geo: z.number(), overall: z.number() }),
  grade: Grade,
});
const Proof = z
  .object({
    scannedAt: z.string().describe("the scan time the checks were run at, before and after"),
    before: Scored.describe("scores and grade of the page as scanned"),
    after: Scored.describe("scores and grade of a copy of the page with the returned files in place"),
    checks: z
      .array(z.object({ id: z.string(), before: CheckStatus, after: CheckStatus, description: z.string() }))
      .describe(
        "every check a returned file is meant to fix, and every other check whose verdict changed; description is the verdict after",
      ),
    siteChecks: z
      .array(z.object({ id: z.string(), before: CheckStatus, after: CheckStatus, description: z.string() }))
      .describe(
        "the site checks ai-catalog and ai-catalog-schema, run as a site audit runs them on the copy with the ai-catalog.json served where the page names it; before is skip, as a page scan does not fetch the catalog. They weigh in a site audit, not in these scores. Empty without aiCatalog.",
      ),
  })
  .describe(
    "The files proven before they are returned: the checks run on the page's snapshot as scanned and on a copy with the files in place (JSON-LD in place of the page's own blocks, the ai-catalog link added, bare forms annotated, llms.txt and robots.txt served at the origin).",
  );
const TextFile = z.looseObject({
  addresses: Addresses,
  path: z.string(),
  contentType: z.string(),
  content: z.string(),
  placement: z.string(),
  notes: z.array(z.string()),
  verdicts: Verdicts,
  ownerMustSupply: OwnerMustSupply,
});
const JsonLdFile = z.looseObject({
  addresses: Addresses,
  types: z.array(z.string()),
  data: z.looseObject({
    "@context": z.literal("https://schema.org"),
    "@graph": z.array(z.record(z.string(), z.unknown())),
  }),
  html: z.string(),
  placement: z.string(),
  notes: z.array(z.string()),
  verdicts: Verdicts,
  ownerMustSupply: OwnerMustSupply,
});

const AiCatalogFile = TextFile.extend({
  link: z
    .string()
    .nullable()
    .describe('the <link rel="ai-catalog"> to add to the page\'s head; null when the page already names this URL'),
});
const WebMcpForms = z.looseObject({
  addresses: Addresses,
  forms: z
    .array(
      z.looseObject({
        form: z
          .string()
          .describe('the form as found in the source: <form id="…">, <form name="…"> or <form action="…">'),
        toolname: z.string().nullable(),
        tooldescription: z.string().nullable(),
        fields: z.array(z.object({ name: z.string(), toolparamdescription: z.string().nullable() })),
        html: z.string().describe("the form with its annotations, to paste in place of the page's"),
        missing: z.array(z.string()).describe("what the form does not state, for its owner to add"),
      }),
    )
    .describe(
      "each form without toolname or tooldescription, annotated from its own id, name, legend, labels and submit text",
    ),
  placement: z.string(),
  notes: z.array(z.string()),
  recheck: z
    .string()
    .describe("what re-running webmcp-form-coverage on the patched copy can and cannot show with the scan's Chromium"),
  verdicts: Verdicts,
  ownerMustSupply: OwnerMustSupply,
});

/** What fix answers: the scan it was drawn from, and the files ready to paste. */
export const FixResult = z.looseObject({
  /** the full scan the files were generated from (GET /api/v1/scan/:id) */
  scanId: z.uuid(),
  url: z.string(),
  llmsTxt: TextFile.nullable(),
  jsonLd: JsonLdFile.nullable(),
  robotsTxt: TextFile.nullable(),
  aiCatalog: AiCatalogFile.nullable().describe(
    "an ai-catalog.json (Agent Resource Discovery) listing the site's own files, valid against the ARD schema",
  ),
  webmcpForms: WebMcpForms.nullable().describe(
    "WebMCP annotations (toolname, tooldescription, toolparamdescription) for the page's bare forms; null when none is bare",
  ),
  unaddressed: z
    .array(z.object({ id: z.string(), reason: z.string() }))
    .describe("asked-for checks that no returned file makes pass, and why"),
  proof: Proof,
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
