import { z } from "zod";
import { ResponseForm } from "./envelope";

export { Email, emailOrRefusal, normaliseEmail } from "./email";

/** A user's plan (docs/spec/public-scanning-api.md §8): sets the hourly rate limit and the monthly scan quota. */
export const Plan = z.enum(["free", "starter", "pro", "agency"]);
export type Plan = z.infer<typeof Plan>;

/** What a user may do in the dashboard: an `operator` also reads the service's operations. */
export const Role = z.enum(["member", "operator"]);
export type Role = z.infer<typeof Role>;

const FormField = z
  .string({ error: 'must be "A" or "B"' })
  .transform((value) => value.trim().toUpperCase())
  .pipe(ResponseForm);

/** POST /api/v1/keys body. */
export const CreateKeyRequest = z.strictObject({
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .min(1, "name must not be empty: send 1 to 100 characters, or leave name out")
    .max(100, "name must be at most 100 characters")
    .optional(),
  /** the envelope for requests made with this key that carry no X-Response-Form header */
  default_form: FormField.nullable().optional(),
  /** limits the key to this client's sites and their records; absent or null: the whole workspace */
  client_id: z
    .uuid({ error: "client_id must be a client's id (a UUID) or null" })
    .transform((id) => id.toLowerCase())
    .nullable()
    .optional(),
  /** a read-only key's every write is refused (403 `read_only_key`) */
  read_only: z.boolean({ error: "read_only must be true or false" }).optional(),
});
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

/** An API key as the key endpoints show it: never the key itself, except once on creation. */
export const ApiKeyView = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  /** the key's first characters, to tell keys apart */
  prefix: z.string(),
  /** the owner's plan, which sets the key's limits */
  plan: Plan,
  default_form: ResponseForm.nullable(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
  /** the client the key is limited to; null: the whole workspace */
  client_id: z.uuid().nullable(),
  /** whether the key only reads */
  read_only: z.boolean(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

/** The create response: the only time the full key is ever sent. */
export const CreatedApiKey = ApiKeyView.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const KeyIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

/** page and limit of a list (docs/spec/public-scanning-api.md §8: limit at most 100, default 20; page default 1). */
export const PageQuery = z.object({
  page: z.coerce.number({ error: "page must be an integer" }).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number({ error: "limit must be an integer" }).int().min(1).max(100).default(20),
});
export type PageQuery = z.infer<typeof PageQuery>;
