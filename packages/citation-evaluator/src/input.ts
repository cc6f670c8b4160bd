import { MAX_URL_LENGTH } from "@scan/contract";
import { z } from "zod";

/** docs/spec/public-scanning-api.md §4.2 and §8: at most this many citations and this many evidence items per call. */
export const MAX_CITATIONS = 100;
export const MAX_EVIDENCE = 100;
/** Sources one answer may cite; engines cite a handful, rarely more than twenty. */
export const MAX_CITED_SOURCES = 100;
export const MAX_RESPONSE_TEXT = 50_000;
export const MAX_SNIPPET = 5_000;
export const MAX_POSITION = 1_000;

/** An absolute http(s) URL; observations point at web pages, and nothing else can be compared by site. */
const HttpUrl = z
  .url({ protocol: /^https?$/, error: "must be a valid absolute http(s) URL" })
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` });

/** docs/spec/public-scanning-api.md §2.7: ratios are decimals from 0 to 1 inclusive. */
const Ratio = z.number({ error: "must be a number" }).min(0, { error: "must be a decimal from 0 to 1" }).max(1, {
  error: "must be a decimal from 0 to 1",
});

const SourceType = z.string().trim().max(50, { error: "must be at most 50 characters" });

/**
 * One source an AI answer cited. `sourceType` is accepted for symmetry with evidence items and
 * is not scored: what matters for a citation is whose site it is.
 */
export const CitedSource = z.strictObject({
  url: HttpUrl,
  sourceType: SourceType.nullish(),
});
export type CitedSource = z.infer<typeof CitedSource>;

/**
 * One observed AI answer to a query. `brandName` and `targetUrl` say whose visibility is being
 * measured, so they are required; the rest may be absent (or null) when not observed.
 * `position` is the 1-based rank at which the brand appears in the answer (1 = first named or
 * cited); omit it when unknown.
 */
export const CitationObservation = z.strictObject({
  brandName: z
    .string({ error: "is required: the brand whose visibility is measured" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" }),
  targetUrl: HttpUrl,
  responseText: z
    .string()
    .max(MAX_RESPONSE_TEXT, { error: `must be at most ${MAX_RESPONSE_TEXT} characters` })
    .nullish(),
  citedSources: z
    .array(CitedSource)
    .max(MAX_CITED_SOURCES, { error: `must hold at most ${MAX_CITED_SOURCES} sources` })
    .nullish(),
  position: z
    .int({ error: "must be an integer" })
    .min(1, { error: "must be 1 or more (1 = first); omit it when the brand is not ranked" })
    .max(MAX_POSITION, { error: `must be at most ${MAX_POSITION}` })
    .nullish(),
});
export type CitationObservation = z.infer<typeof CitationObservation>;

/** One piece of evidence for a claim. Every field may be absent: absence lowers the score. */
export const EvidenceItem = z.strictObject({
  sourceType: SourceType.nullish(),
  url: HttpUrl.nullish(),
  snippet: z
    .string()
    .max(MAX_SNIPPET, { error: `must be at most ${MAX_SNIPPET} characters` })
    .nullish(),
  supportsClaim: z.boolean({ error: "must be true or false" }).nullish(),
});
export type EvidenceItem = z.infer<typeof EvidenceItem>;

const NonNegative = (max: number) =>
  z
    .number({ error: "must be a number" })
    .min(0, { error: "must be 0 or more" })
    .max(max, { error: `must be at most ${max}` });

/**
 * The revenue funnel of AI answers. All five fields are required when the object is sent: a
 * money estimate from part of a funnel would be a guess.
 */
export const RevenueInput = z.strictObject({
  monthlyAiImpressions: NonNegative(1e12),
  conversionRate: Ratio,
  revenuePerConversion: NonNegative(1e9),
  grossMargin: Ratio,
  attributionCoverage: Ratio,
});
export type RevenueInput = z.infer<typeof RevenueInput>;

/**
 * POST /api/v1/aeo-2/evaluate body (docs/spec/public-scanning-api.md §2.7, §4.2). All fields are optional (null counts
 * as absent). Unknown fields are refused at every level, as on POST /scan: a misspelt field
 * would otherwise be scored as missing without a word.
 */
export const EvaluateRequest = z
  .strictObject({
    citations: z
      .array(CitationObservation)
      .max(MAX_CITATIONS, { error: `must hold at most ${MAX_CITATIONS} citations` })
      .nullish(),
    evidence: z
      .array(EvidenceItem)
      .max(MAX_EVIDENCE, { error: `must hold at most ${MAX_EVIDENCE} evidence items` })
      .nullish(),
    revenue: RevenueInput.nullish(),
    /**
     * A stored visibility run of the caller's workspace whose answers are the citations: one
     * observation per completed sample (`observationsOfRun`). Instead of `citations`, not beside them.
     */
    runId: z.uuid({ error: "must be a visibility run id (a UUID)" }).nullish(),
  })
  .refine((request) => !(request.runId && request.citations), {
    error: "send citations or runId, not both: a run's answers are its citations",
    path: ["runId"],
  });
export type EvaluateRequest = z.infer<typeof EvaluateRequest>;
