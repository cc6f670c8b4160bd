import { z } from "zod";
import { pageParams } from "./list-query";
import { hasNoNul, NUL_MESSAGE } from "./text";

/** Longest client notes. */
export const MAX_CLIENT_NOTES = 2_000;

const ClientName = z
  .string({ error: "is required and must be a string" })
  .trim()
  .min(1, "must not be blank")
  .max(100, "must be at most 100 characters")
  .refine(hasNoNul, NUL_MESSAGE);

const ClientNotes = z
  .string({ error: "must be a string or null" })
  .trim()
  .max(MAX_CLIENT_NOTES, `must be at most ${MAX_CLIENT_NOTES} characters`)
  .refine(hasNoNul, NUL_MESSAGE)
  .transform((value) => (value === "" ? null : value))
  .nullable();

/** POST /api/v1/clients body. */
export const CreateClientRequest = z.strictObject({
  name: ClientName,
  notes: ClientNotes.optional(),
});
export type CreateClientRequest = z.infer<typeof CreateClientRequest>;

/** PATCH /api/v1/clients/:id body: a new name, new notes (null clears them), or both. */
export const UpdateClientRequest = z
  .strictObject({ name: ClientName.optional(), notes: ClientNotes.optional() })
  .refine((body) => body.name !== undefined || body.notes !== undefined, "give name, notes or both");
export type UpdateClientRequest = z.infer<typeof UpdateClientRequest>;

/** GET/PATCH/DELETE /api/v1/clients/:id */
export const ClientIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

/** GET /api/v1/clients query. */
export const ClientListQuery = z.strictObject({ ...pageParams });
export type ClientListQuery = z.infer<typeof ClientListQuery>;

/** An agency's client as the API shows it: a named group of the workspace's sites. */
export const ClientView = z.object({
  id: z.uuid(),
  name: z.string(),
  notes: z.string().nullable(),
  /** how many of the workspace's sites are assigned to it */
  site_count: z.int().min(0),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type ClientView = z.infer<typeof ClientView>;
