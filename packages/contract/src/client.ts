import { z } from "zod";
import { Plan } from "./account";
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

/** The most a client's monthly quota may be set to. */
export const MAX_CLIENT_QUOTA = 10_000_000;

/** A client's monthly quota of scans, audits or audit pages: a count, or null for none of its own. */
const ClientQuota = z
  .int({ error: "must be a whole number or null" })
  .min(0, "must be 0 or more")
  .max(MAX_CLIENT_QUOTA, `must be at most ${MAX_CLIENT_QUOTA}`)
  .nullable();

/** POST /api/v1/clients body. */
export const CreateClientRequest = z.strictObject({
  name: ClientName,
  notes: ClientNotes.optional(),
  scan_quota: ClientQuota.optional(),
  audit_quota: ClientQuota.optional(),
  audit_page_quota: ClientQuota.optional(),
});
export type CreateClientRequest = z.infer<typeof CreateClientRequest>;

/** PATCH /api/v1/clients/:id body: a new name, notes (null clears them), quotas (null removes one), or several. */
export const UpdateClientRequest = z
  .strictObject({
    name: ClientName.optional(),
    notes: ClientNotes.optional(),
    scan_quota: ClientQuota.optional(),
    audit_quota: ClientQuota.optional(),
    audit_page_quota: ClientQuota.optional(),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    "give at least one of name, notes, scan_quota, audit_quota, audit_page_quota",
  );
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
  /** scans a calendar month (UTC) counted for the client; null: no quota of its own */
  scan_quota: z.int().min(0).nullable(),
  /** audits a calendar month (UTC) of the client's sites; null: no quota of its own */
  audit_quota: z.int().min(0).nullable(),
  /** audit pages a calendar month (UTC) its sites' audits admit, in the month each audit started; null: none of its own */
  audit_page_quota: z.int().min(0).nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type ClientView = z.infer<typeof ClientView>;

/** GET /api/v1/usage query: `client_id` keeps one client's usage. */
export const UsageQuery = z.strictObject({
  client_id: z
    .uuid({ error: "client_id must be a UUID" })
    .transform((id) => id.toLowerCase())
    .optional(),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

/** What was used of a monthly quota, and the quota (null: none). */
export const QuotaUse = z.object({ used: z.int().min(0), limit: z.int().min(0).nullable() });
export type QuotaUse = z.infer<typeof QuotaUse>;

/** One client's use of this month. */
export const ClientUsage = z.object({
  client_id: z.uuid(),
  name: z.string(),
  scans: QuotaUse,
  audits: QuotaUse,
  /** pages its sites' audits started this month admitted, against `audit_page_quota` */
  audit_pages: QuotaUse,
});
export type ClientUsage = z.infer<typeof ClientUsage>;

/** One API key's use of this month: the scans and audits made with it. */
export const KeyUsage = z.object({
  key_id: z.uuid(),
  name: z.string().nullable(),
  /** the key's public prefix, as the key list shows it */
  prefix: z.string(),
  /** the client the key is limited to; null: the whole workspace */
  client_id: z.uuid().nullable(),
  /** a revoked key is listed while it has usage this month */
  revoked: z.boolean(),
  scans: z.int().min(0),
  audits: z.int().min(0),
});
export type KeyUsage = z.infer<typeof KeyUsage>;

/** GET /api/v1/usage: this calendar month's (UTC) scans and audits, the workspace's and each client's. */
export const UsageView = z.object({
  month: z.object({ start: z.iso.datetime(), resets_at: z.iso.datetime() }),
  /** the workspace as a whole against its plan (audits have no plan quota: `limit` null); null for a key limited to a client */
  workspace: z.object({ plan: Plan, scans: QuotaUse, audits: QuotaUse, audit_pages: QuotaUse }).nullable(),
  /** the clients, by name; a key limited to a client sees its own alone */
  clients: z.array(ClientUsage),
  /** what counted for no client (sites of none, URLs of no site); null for a key limited to a client or a `client_id` filter */
  unassigned: z.object({ scans: z.int().min(0), audits: z.int().min(0), audit_pages: z.int().min(0) }).nullable(),
  /**
   * each API key's scans and audits this month, newest key first: the live keys and the revoked
   * ones with usage; with one client (a `client_id` filter, or a key limited to a client) the keys
   * limited to that client alone
   */
  keys: z.array(KeyUsage),
});
export type UsageView = z.infer<typeof UsageView>;
