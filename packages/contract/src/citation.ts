import { z } from "zod";
import { pageParams, queryEnum, queryUuid } from "./list-query";
import { hasNoNul, NUL_MESSAGE } from "./text";
import { MAX_URL_LENGTH } from "./url";

/** The AI engines whose answers are tracked (docs/spec/public-scanning-api.md §2.6 `platform`, §4.6 `engine`). */
export const AiEngine = z.enum(["chatgpt", "claude", "perplexity", "gemini"]);
export type AiEngine = z.infer<typeof AiEngine>;

/** `date_range` values and the days each covers, counted back from now over `checked_at`. */
export const DATE_RANGE_DAYS = { "7d": 7, "30d": 30, "90d": 90 } as const;
export type DateRange = keyof typeof DATE_RANGE_DAYS;
const DATE_RANGES = ["7d", "30d", "90d"] as const satisfies readonly DateRange[];

/** `engine` filter values: one engine, or `all`. */
const ENGINE_FILTERS = ["chatgpt", "claude", "perplexity", "gemini", "all"] as const satisfies readonly (
  | AiEngine
  | "all"
)[];

/** GET /api/v1/citations query (docs/spec/public-scanning-api.md §4.6); unknown parameters are refused. */
export const CitationListQuery = z.strictObject({
  ...pageParams,
  site_id: queryUuid(),
  /** only the tracks of this client's sites */
  client_id: queryUuid(),
  engine: queryEnum(ENGINE_FILTERS, "all"),
  date_range: queryEnum(DATE_RANGES, "30d"),
});
export type CitationListQuery = z.infer<typeof CitationListQuery>;

/** How far in the future a `checked_at` may be: clock skew between the caller and us. */
export const CHECKED_AT_SKEW_MS = 5 * 60_000;

const HttpUrl = z
  .string({ error: "must be a URL" })
  .trim()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .pipe(z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }))
  // stored as the URL parser writes it: host lower-cased, unsafe characters percent-encoded
  .transform((value) => new URL(value).href);

/**
 * POST /api/v1/citations body: one observation of an AI engine's answer to a query. A cited
 * observation names the page of the site the answer cited; one that did not cite the site may
 * name what the answer cited instead, or nothing.
 */
const QueryText = z
  .string({ error: "is required and must be a string" })
  .trim()
  .min(1, "must not be blank")
  .max(500, "must be at most 500 characters")
  .refine(hasNoNul, NUL_MESSAGE);

/** PATCH and DELETE /api/v1/citations/:id */
export const CitationIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

/** PATCH /api/v1/citations/:id body: the query's wording corrected; what was observed stays. */
export const RenameCitationRequest = z.strictObject({ query_text: QueryText });
export type RenameCitationRequest = z.infer<typeof RenameCitationRequest>;

export const RecordCitationRequest = z
  .strictObject({
    site_id: z.uuid({ error: "must be a UUID" }).transform((value) => value.toLowerCase()),
    platform: z.enum(AiEngine.options, { error: `must be one of ${AiEngine.options.join(", ")}` }),
    query_text: QueryText,
    cited: z.boolean({ error: "must be true or false" }),
    citation_url: HttpUrl.nullable().optional(),
    /** when the answer was observed; now when absent */
    checked_at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
  })
  .refine((value) => !value.cited || (value.citation_url ?? null) !== null, {
    path: ["citation_url"],
    message: "is required when cited is true",
  });
export type RecordCitationRequest = z.infer<typeof RecordCitationRequest>;

/** A citation track as the API shows it (docs/spec/public-scanning-api.md §2.6, plus its site). */
export const CitationView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  platform: AiEngine,
  query_text: z.string(),
  cited: z.boolean(),
  citation_url: z.string().nullable(),
  checked_at: z.iso.datetime(),
});
export type CitationView = z.infer<typeof CitationView>;
