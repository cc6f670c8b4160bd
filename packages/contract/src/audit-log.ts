import { z } from "zod";

/** What the workspace's audit log records: one action per change a member or key makes. */
export const AuditLogAction = z.enum([
  "workspace.renamed",
  "member.invited",
  "member.invitation_revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "key.created",
  "key.revoked",
  "client.created",
  "client.changed",
  "client.deleted",
  "site.created",
  "site.renamed",
  "site.assigned",
  "site.deleted",
  "schedule.created",
  "schedule.changed",
  "schedule.deleted",
]);
export type AuditLogAction = z.infer<typeof AuditLogAction>;

/** The kind of record an entry is about. */
export const AuditLogTarget = z.enum(["workspace", "member", "invitation", "key", "client", "site", "schedule"]);
export type AuditLogTarget = z.infer<typeof AuditLogTarget>;

/** Most entries in one page of the log. */
export const MAX_AUDIT_LOG_LIMIT = 100;

/** GET /api/v1/workspaces/:id/audit-log query: a page after `cursor`, of one action or one actor's. */
export const AuditLogQuery = z.strictObject({
  cursor: z
    .string({ error: "cursor must be a string" })
    .regex(/^[A-Za-z0-9_-]{1,200}$/, "cursor must be the next_cursor of a previous page")
    .optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_AUDIT_LOG_LIMIT, `limit must be at most ${MAX_AUDIT_LOG_LIMIT}`)
    .default(20),
  action: AuditLogAction.optional(),
  /** a member's user id or an API key's id */
  actor: z
    .uuid({ error: "actor must be a user id or an API key id" })
    .transform((id) => id.toLowerCase())
    .optional(),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

/** Who made a change: a signed-in member, or an API key. */
export const AuditLogActor = z.object({
  type: z.enum(["user", "key"]),
  /** the member (`type: user`); null for a key */
  user_id: z.uuid().nullable(),
  email: z.string().nullable(),
  /** the key (`type: key`); null for a member */
  key_id: z.uuid().nullable(),
  key_prefix: z.string().nullable(),
});

/** One entry of the audit log: who did what to which record, when, from where. Never holds a secret. */
export const AuditLogEntryView = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  action: AuditLogAction,
  actor: AuditLogActor,
  target: z.object({ type: AuditLogTarget, id: z.string() }),
  /** the request that made the change (its X-Request-Id); null when made outside a request */
  request_id: z.string().nullable(),
  /** the address the request came from; null when made outside a request */
  ip: z.string().nullable(),
  /** the fields changed: a new value, or `{from, to}` */
  changes: z.record(z.string(), z.unknown()),
});
export type AuditLogEntryView = z.infer<typeof AuditLogEntryView>;
