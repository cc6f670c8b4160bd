import { z } from "zod";
import type { PageMeta } from "./envelope";

/**
 * Query-string parameters of the list endpoints (docs/spec/public-scanning-api.md §4.4 to §4.6, limits in §8). A query
 * value arrives as a string, or as an array when the parameter is repeated; only one plain
 * decimal string is a number here (`limit=1e1`, `limit=0x10`, `limit= 5` and `limit=5&limit=6`
 * are refused rather than guessed at), so a typo never silently pages differently.
 */

export const MAX_PAGE = 1_000_000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

const once = (what: string) => (issue: { input?: unknown }) =>
  Array.isArray(issue.input) ? "must be given once" : `must be ${what}`;

/**
 * How the API reference (OpenAPI, `override` of zod-openapi) shows a query value: as the value
 * it spells (an integer from 1 to 100, one of an enum, a UUID) rather than as the text the
 * parser reads it from.
 */
const documentedAs = (schema: Record<string, unknown>) => ({
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, schema);
  },
});

/** A whole number in [min, max] written as plain digits; `fallback` when the parameter is absent. */
export const queryInt = (min: number, max: number, fallback: number) => {
  const what = `an integer from ${min} to ${max}`;
  return z
    .string({ error: once(what) })
    .regex(/^\d{1,9}$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.int().min(min, `must be ${what}`).max(max, `must be ${what}`))
    .default(fallback)
    .meta(documentedAs({ type: "integer", minimum: min, maximum: max, default: fallback }));
};

/** One of `values`, exactly as written; `fallback` when absent. */
export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .string({ error: once(`one of ${values.join(", ")}`) })
    .pipe(z.enum(values, { error: `must be one of ${values.join(", ")}` }))
    .default(fallback)
    .meta(documentedAs({ type: "string", enum: [...values] }));

/** One of `values`, exactly as written; absent is no filter. */
export const queryFilter = <const T extends readonly string[]>(values: T) =>
  z
    .string({ error: once(`one of ${values.join(", ")}`) })
    .pipe(z.enum(values, { error: `must be one of ${values.join(", ")}` }))
    .optional()
    .meta(documentedAs({ type: "string", enum: [...values] }));

/** A UUID (compared lower-cased); absent is no filter. */
export const queryUuid = () =>
  z
    .string({ error: once("a UUID") })
    .pipe(z.uuid({ error: "must be a UUID" }))
    .transform((value) => value.toLowerCase())
    .optional()
    .meta(documentedAs({ type: "string", format: "uuid" }));

/** `page` (default 1) and `limit` (1 to 100, default 20). */
export const pageParams = {
  page: queryInt(1, MAX_PAGE, 1),
  limit: queryInt(1, MAX_LIMIT, DEFAULT_LIMIT),
};

export type ListPage = { page: number; limit: number };

/** Rows to skip for a page. */
export const offsetOf = ({ page, limit }: ListPage): number => (page - 1) * limit;

export const pageMeta = ({ page, limit }: ListPage, total: number): PageMeta => ({
  page,
  limit,
  total,
  hasMore: page * limit < total,
});

/**
 * `text` as a LIKE/ILIKE pattern body that matches it literally: `%`, `_` and the escape
 * character itself are escaped with a backslash (PostgreSQL's default LIKE escape).
 */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
