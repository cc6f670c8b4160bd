import { z } from "zod";
import { pageParams, queryUuid } from "./list-query";
import { hasNoNul, NUL_MESSAGE } from "./text";

/**
 * How a keyword's position moved at its last recorded observation (docs/spec/public-scanning-api.md §2.5 shows `up`):
 * `new` the first observation, `up` a smaller position number (a better rank), `down` a larger
 * one, `flat` the same.
 */
export const KeywordTrend = z.enum(["up", "down", "flat", "new"]);
export type KeywordTrend = z.infer<typeof KeywordTrend>;

/** The trend from the previously recorded position (null: none) to the current one. */
export const keywordTrend = (previous: number | null, current: number): KeywordTrend => {
  if (previous === null) return "new";
  if (current < previous) return "up";
  if (current > previous) return "down";
  return "flat";
};

/** Search positions are 1-based; rank trackers follow results to at most a few hundred. */
export const MAX_POSITION = 1_000;

export const MAX_VOLUME = 2_000_000_000;

/** A JSON integer in [min, max]; strings and fractions are refused. */
const bodyInt = (min: number, max: number) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z.int({ error: message }).min(min, message).max(max, message);
};

/**
 * One record per search query and site: trimmed, inner whitespace collapsed and lower-cased,
 * as search engines treat queries that differ only so as the same query.
 */
export const KeywordText = z
  .string({ error: "is required and must be a string" })
  .transform((value) => value.trim().replace(/\s+/g, " ").toLowerCase())
  .pipe(
    z.string().min(1, "must not be blank").max(200, "must be at most 200 characters").refine(hasNoNul, NUL_MESSAGE),
  );

/** GET /api/v1/keywords query (docs/spec/public-scanning-api.md §4.5); unknown parameters are refused. */
/** PATCH and DELETE /api/v1/keywords/:id */
export const KeywordIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

/** PATCH /api/v1/keywords/:id body: the query's new wording; its positions stay. */
export const RenameKeywordRequest = z.strictObject({ keyword: KeywordText });
export type RenameKeywordRequest = z.infer<typeof RenameKeywordRequest>;

export const KeywordListQuery = z.strictObject({
  ...pageParams,
  site_id: queryUuid(),
  /** only the keywords of this client's sites */
  client_id: queryUuid(),
});
export type KeywordListQuery = z.infer<typeof KeywordListQuery>;

/** POST /api/v1/keywords body: records the keyword's current position for one of the caller's sites. */
export const RecordKeywordRequest = z.strictObject({
  site_id: z.uuid({ error: "must be a UUID" }).transform((value) => value.toLowerCase()),
  keyword: KeywordText,
  position: bodyInt(1, MAX_POSITION),
  /** average monthly searches */
  volume: bodyInt(0, MAX_VOLUME),
  /** ranking difficulty on the usual 0 (easy) to 100 (hardest) scale */
  difficulty: bodyInt(0, 100),
});
export type RecordKeywordRequest = z.infer<typeof RecordKeywordRequest>;

/** A tracked keyword as the API shows it (docs/spec/public-scanning-api.md §2.5, plus its site, previous position and times). */
export const KeywordView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  keyword: z.string(),
  position: z.int(),
  /** the position recorded before this one; null for a new keyword */
  previous_position: z.int().nullable(),
  volume: z.int(),
  difficulty: z.int(),
  trend: KeywordTrend,
  /** Search Console's clicks in the period last imported; null for a keyword never imported */
  clicks: z.int().nullable(),
  /** Search Console's impressions in the period last imported; null for a keyword never imported */
  impressions: z.int().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type KeywordView = z.infer<typeof KeywordView>;

/** The most queries one import takes: Search Console's performance export holds at most 1,000. */
export const MAX_KEYWORD_IMPORT_ROWS = 1_000;

/** One query of a Search Console import: its words, its average position, clicks and impressions. */
export type SearchQueryRow = { keyword: string; position: number; clicks: number; impressions: number };

/**
 * A Search Console query's average position (a fraction, 1 the top) as a keyword's position: the
 * nearest whole rank, never above 1.
 */
export const positionOfAverage = (average: number): number => Math.max(1, Math.round(average));

/** POST /api/v1/sites/:id/keywords/import and …/keywords/search-console answer. */
export const KeywordImportResult = z.object({
  /** queries read: CSV data rows (the header not counted) or Search Console API rows */
  rows: z.int(),
  /** keywords first tracked by this import (`trend: new`) */
  created: z.int(),
  /** keywords tracked already, their position moved to `previous_position` and the trend set */
  updated: z.int(),
  /** queries not imported, with why (a query repeated once normalised, a position past 1,000) */
  skipped: z.array(z.object({ row: z.int(), query: z.string(), reason: z.string() })),
  keywords: z.array(KeywordView),
});
export type KeywordImportResult = z.infer<typeof KeywordImportResult>;

/**
 * MCP aeo_import_keywords: a site and the text of Search Console's `Queries.csv`, imported as
 * POST /api/v1/sites/{id}/keywords/import imports it (the tool server's body limit bounds it).
 */
export const ImportKeywordsToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  csv: z.string().min(1, { error: "csv must be the text of Search Console's Queries.csv" }),
});

/** Search Console's search types (searchanalytics.query `type`). */
export const SearchConsoleType = z.enum(["web", "image", "video", "news", "discover", "googleNews"], {
  error: "search_type must be one of web, image, video, news, discover, googleNews",
});

const isoDay = (name: string) => z.iso.date({ error: `${name} must be a date as YYYY-MM-DD` });

/**
 * POST /api/v1/sites/:id/keywords/search-console body: the caller's OAuth access token (used for
 * this one request, never stored, logged or answered), the Search Console property and the period.
 */
export const SearchConsoleImportRequest = z
  .strictObject({
    access_token: z
      .string({ error: "access_token is required: an OAuth access token with the webmasters.readonly scope" })
      .min(1, "access_token must not be blank")
      .max(4096, "access_token must be at most 4,096 characters")
      .regex(/^[\x21-\x7e]+$/, "access_token must be printable ASCII without spaces"),
    /** `sc-domain:acme.com` (a domain property) or `https://acme.com/` (a URL-prefix property) */
    property: z
      .string({ error: "property is required: sc-domain:<domain> or the property's URL prefix" })
      .min(1, "property must not be blank")
      .max(2048, "property must be at most 2,048 characters"),
    start_date: isoDay("start_date"),
    end_date: isoDay("end_date"),
    search_type: SearchConsoleType.default("web"),
    /** queries asked for, the most clicked first: 1 to 1,000 (default 1,000) */
    row_limit: bodyInt(1, MAX_KEYWORD_IMPORT_ROWS).default(MAX_KEYWORD_IMPORT_ROWS),
  })
  .refine((body) => body.start_date <= body.end_date, {
    message: "start_date must not be after end_date",
    path: ["start_date"],
  });
export type SearchConsoleImportRequest = z.infer<typeof SearchConsoleImportRequest>;
