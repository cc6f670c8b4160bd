import { AppError, AuditLogAction, type AuditLogEntryView, type AuditLogQuery, AuditLogTarget } from "@scan/contract";
import type { AuditLogEntry, Db, Prisma } from "@scan/db";
import { z } from "zod";

export type AuditLogService = {
  /** A page of the workspace's log, newest first, after `cursor`: its owners' and admins' to read. */
  list: (
    reader: { userId: string },
    workspaceId: string,
    query: AuditLogQuery,
  ) => Promise<{ entries: AuditLogEntryView[]; nextCursor: string | null }>;
};

/** A position in the log: the last entry of a page, newest-first order (created_at, id). */
const Cursor = z.tuple([z.iso.datetime(), z.uuid()]);

const badCursor = () =>
  new AppError(
    "invalid_request",
    "cursor is not a cursor of this log",
    "Leave cursor out for the first page, then pass each page's meta.next_cursor as it is.",
  );

const encode = (entry: AuditLogEntry) =>
  Buffer.from(JSON.stringify([entry.createdAt.toISOString(), entry.id])).toString("base64url");

const decode = (cursor: string): { at: Date; id: string } => {
  try {
    const [at, id] = Cursor.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { at: new Date(at), id };
  } catch {
    throw badCursor();
  }
};

const Changes = z.record(z.string(), z.unknown());

export const toAuditLogEntryView = (entry: AuditLogEntry): AuditLogEntryView => ({
  id: entry.id,
  at: entry.createdAt.toISOString(),
  action: AuditLogAction.parse(entry.action),
  actor: {
    type: entry.actorKeyId === null ? "user" : "key",
    user_id: entry.actorUserId,
    email: entry.actorEmail,
    key_id: entry.actorKeyId,
    key_prefix: entry.actorKeyPrefix,
  },
  target: { type: AuditLogTarget.parse(entry.targetType), id: entry.targetId },
  request_id: entry.requestId,
  ip: entry.ip,
  changes: Changes.parse(entry.changes),
});

const READERS = new Set(["owner", "admin"]);

/**
 * Reads a workspace's audit log for its owners and admins: newest first, by cursor (a position,
 * not an offset: entries written while one pages do not shift the pages), filtered by action or
 * actor, each filter served by its index `(workspace_id, action | actor_user_id | actor_key_id,
 * created_at, id)`. A workspace the reader is not a member of is 404, as elsewhere.
 */
export const createAuditLogService = ({ db }: { db: Db }): AuditLogService => {
  const list = async (reader: { userId: string }, workspaceId: string, query: AuditLogQuery) => {
    const membership = await db.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId: reader.userId } },
      select: { role: true },
    });
    if (!membership)
      throw new AppError(
        "not_found",
        `No workspace with id ${workspaceId}`,
        "Use a workspace id from GET /api/v1/workspaces.",
      );
    if (!READERS.has(membership.role))
      throw new AppError(
        "forbidden",
        `Your role in this workspace is ${membership.role}; its audit log is for its owners and admins`,
        "Ask an owner or admin of the workspace.",
      );
    const after = query.cursor === undefined ? undefined : decode(query.cursor);
    const where: Prisma.AuditLogEntryWhereInput = {
      workspaceId,
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.actor === undefined ? {} : { OR: [{ actorUserId: query.actor }, { actorKeyId: query.actor }] }),
      ...(after === undefined
        ? {}
        : {
            AND: [{ OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }],
          }),
    };
    const rows = await db.auditLogEntry.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      entries: page.map(toAuditLogEntryView),
      nextCursor: rows.length > query.limit && last ? encode(last) : null,
    };
  };
  return { list };
};
