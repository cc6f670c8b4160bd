import { z } from "zod";
import { type AppError, ERROR_TABLE } from "./errors";

/** Form A: `{ok, data, meta}` / `{ok: false, error}`. Form B: `{success, data}` / `{error, code}`. */
export const ResponseForm = z.enum(["A", "B"]);
export type ResponseForm = z.infer<typeof ResponseForm>;

/** `X-Response-Form: a|b` (case-insensitive) picks the form; anything else falls back. */
export const parseResponseForm = (header: string | undefined, fallback: ResponseForm): ResponseForm => {
  const value = header?.trim().toUpperCase();
  return value === "A" || value === "B" ? value : fallback;
};

export type Meta = Record<string, unknown>;

/** A paginated list's meta (docs/spec/public-scanning-api.md §2.1): `hasMore` is `page × limit < total`. */
export const PageMeta = z.object({
  page: z.int().min(1),
  limit: z.int().min(1).max(100),
  /** records matching the filters, on every page */
  total: z.int().nonnegative(),
  hasMore: z.boolean(),
});
export type PageMeta = z.infer<typeof PageMeta>;

export type SuccessOptions = {
  /** the scan endpoint's Form A body also carries `success: true` (docs/spec/public-scanning-api.md §2.1) */
  scanEndpoint?: boolean;
};

export const successBody = (form: ResponseForm, data: unknown, meta: Meta = {}, options: SuccessOptions = {}) =>
  form === "A"
    ? options.scanEndpoint
      ? { ok: true as const, success: true as const, data, meta }
      : { ok: true as const, data, meta }
    : { success: true as const, data };

/**
 * A page of a list. Form A's `meta` carries the request id like every other Form A `meta`; Form B
 * has no paginated shape in docs/spec/public-scanning-api.md and gets `{success, data, meta}` with the page's meta.
 */
export const pageBody = (form: ResponseForm, data: readonly unknown[], meta: PageMeta, requestId: string) =>
  form === "A" ? { ok: true as const, data, meta: { ...meta, requestId } } : { success: true as const, data, meta };

export const errorBody = (form: ResponseForm, error: Pick<AppError, "kind" | "message" | "hint">) => {
  const codes = ERROR_TABLE[error.kind];
  return form === "A"
    ? { ok: false as const, error: { code: codes.a, message: error.message, hint: error.hint } }
    : { error: error.message, code: codes.b };
};

/*
 * The envelopes' shapes, which the functions above render: the API reference is generated
 * from these, and the envelope tests hold the functions to them.
 */

/** Form A's `meta` on a single record: the request id, also sent as X-Request-Id. */
export const RequestMeta = z.object({ requestId: z.string() });

/** Form A's `meta` on a page of a list: the page's counts and the request id. */
export const PageMetaA = PageMeta.extend(RequestMeta.shape);

/** Form A success: `{ok: true, data, meta}`; the scan endpoint adds `success: true` (docs/spec/public-scanning-api.md §2.1). */
export const formASuccess = <D extends z.ZodType, M extends z.ZodType>(
  data: D,
  meta: M,
  options: SuccessOptions = {},
) =>
  options.scanEndpoint
    ? z.strictObject({ ok: z.literal(true), success: z.literal(true), data, meta })
    : z.strictObject({ ok: z.literal(true), data, meta });

/** Form B success: `{success: true, data}`, with `meta` where the endpoint carries one (lists, the evaluator). */
export const formBSuccess = <D extends z.ZodType, M extends z.ZodType>(data: D, meta?: M) =>
  meta ? z.strictObject({ success: z.literal(true), data, meta }) : z.strictObject({ success: z.literal(true), data });

/** Form A error with one of `codes` (docs/spec/public-scanning-api.md §7.1). */
export const formAError = (codes: readonly [string, ...string[]]) =>
  z.strictObject({
    ok: z.literal(false),
    error: z.strictObject({ code: z.enum(codes), message: z.string(), hint: z.string() }),
  });

/** Form B error with one of `codes` (docs/spec/public-scanning-api.md §7.2): the message in `error`. */
export const formBError = (codes: readonly [string, ...string[]]) =>
  z.strictObject({ error: z.string(), code: z.enum(codes) });
