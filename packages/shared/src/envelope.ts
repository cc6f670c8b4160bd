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
export type PageMeta = { page: number; limit: number; total: number; hasMore: boolean };

export type SuccessOptions = {
  /** the scan endpoint's Form A body also carries `success: true` (spec 2.1) */
  scanEndpoint?: boolean;
};

export const successBody = (form: ResponseForm, data: unknown, meta: Meta = {}, options: SuccessOptions = {}) =>
  form === "A"
    ? options.scanEndpoint
      ? { ok: true as const, success: true as const, data, meta }
      : { ok: true as const, data, meta }
    : { success: true as const, data };

/** Form B has no paginated shape in the spec; it gets `{success, data, meta}` with the same meta. */
export const pageBody = (form: ResponseForm, data: readonly unknown[], meta: PageMeta) =>
  form === "A" ? { ok: true as const, data, meta } : { success: true as const, data, meta };

export const errorBody = (form: ResponseForm, error: Pick<AppError, "kind" | "message" | "hint">) => {
  const codes = ERROR_TABLE[error.kind];
  return form === "A"
    ? { ok: false as const, error: { code: codes.a, message: error.message, hint: error.hint } }
    : { error: error.message, code: codes.b };
};
