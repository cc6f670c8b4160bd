import type { AuditLogAction, AuditLogTarget } from "@scan/contract";
import type { Db, Prisma } from "@scan/db";
import { transaction } from "./transaction";
import type { DbClient } from "./transitions";

/**
 * The workspace's audit log: who (a member, or an API key) changed what, when and from where.
 * Entries are only appended, in the transaction of the change they record; the database refuses
 * to change one and to delete one but through `prune` (retention) or with its workspace.
 */

/** Who is making a change, and the request it comes in. */
export type Actor = {
  /** the signed-in member; for an API key, its maker (not recorded: the key is the actor) */
  userId: string;
  /** the API key the request was made with; null for a member's session or token */
  keyId: string | null;
  requestId: string | null;
  ip: string | null;
};

/** A change to record. `changes` holds names, roles, quotas and ids, never a secret. */
export type AuditEvent = {
  action: AuditLogAction;
  target: { type: AuditLogTarget; id: string };
  changes?: Record<string, unknown>;
};

/** Field names that would hold a secret: refused, so a careless caller fails loudly rather than store one. */
const SECRET_NAME = /secret|token|hash|password|credential|authorization|cookie|^key$|headers/i;

const assertNoSecret = (value: unknown, path: string): void => {
  if (typeof value !== "object" || value === null) return;
  for (const [name, inner] of Object.entries(value)) {
    if (SECRET_NAME.test(name)) throw new Error(`audit log: ${path}${name} looks like a secret and is not recorded`);
    assertNoSecret(inner, `${path}${name}.`);
  }
};

/** `{from, to}` for each field whose value changed; fields not given are left out. */
export const changed = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([name, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(before[name]))
      .map(([name, value]) => [name, { from: before[name] ?? null, to: value }]),
  );

/** Appends an entry; the actor's email or key prefix is read as it is now, in the same transaction. */
export const append = async (db: DbClient, workspaceId: string, actor: Actor, event: AuditEvent) => {
  const changes = event.changes ?? {};
  assertNoSecret(changes, "");
  const [user, key] = await Promise.all([
    actor.keyId === null ? db.user.findUnique({ where: { id: actor.userId }, select: { email: true } }) : null,
    actor.keyId === null ? null : db.apiKey.findUnique({ where: { id: actor.keyId }, select: { prefix: true } }),
  ]);
  await db.auditLogEntry.create({
    data: {
      workspaceId,
      action: event.action,
      actorUserId: actor.keyId === null ? actor.userId : null,
      actorEmail: user?.email ?? null,
      actorKeyId: actor.keyId,
      actorKeyPrefix: key?.prefix ?? null,
      targetType: event.target.type,
      targetId: event.target.id,
      requestId: actor.requestId,
      ip: actor.ip,
      changes: changes as Prisma.InputJsonObject,
    },
  });
};

/** Days a workspace's audit log keeps an entry, by the workspace's plan. */
export type LogRetentionDays = { free: number; starter: number; pro: number; agency: number };

/**
 * Deletes entries older than their workspace's plan keeps them (`days`, by the plan it has now),
 * at most `batchSize`; answers how many. The one delete the database lets through
 * (`audit_log_entries_append_only` reads the transaction's setting). The shortest retention
 * bounds the scan of `audit_log_entries (created_at)`.
 */
export const prune = (db: Db, days: LogRetentionDays, batchSize: number): Promise<number> => {
  const shortest = Math.min(days.free, days.starter, days.pro, days.agency);
  return transaction(db, async (tx) => {
    await tx.$executeRaw`SELECT set_config('scan.audit_log_prune', 'on', true)`;
    return tx.$executeRaw`DELETE FROM "audit_log_entries" WHERE "id" IN (
      SELECT e."id" FROM "audit_log_entries" e JOIN "workspaces" w ON w."id" = e."workspace_id"
      WHERE e."created_at" < now() - ${shortest}::int * interval '1 day'
        AND e."created_at" < now() - (CASE w."plan" WHEN 'starter' THEN ${days.starter}::int
          WHEN 'pro' THEN ${days.pro}::int WHEN 'agency' THEN ${days.agency}::int ELSE ${days.free}::int END) * interval '1 day'
      ORDER BY e."created_at" LIMIT ${batchSize} FOR UPDATE OF e SKIP LOCKED)`;
  });
};
