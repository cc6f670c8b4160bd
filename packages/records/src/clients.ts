import type { Client } from "@scan/db";
import type { DbClient } from "./transitions";

/**
 * An agency's clients inside a workspace. No states to move between: made, renamed or given
 * notes, deleted; each written here once. A client's sites go back to no client when it is
 * deleted (the foreign key), and a client with a live API key is not deleted at all (a trigger
 * keeps a live key's client, so the deletion fails rather than widen the key to the workspace).
 */

/** Makes a client; `null` when the workspace already has one of that name. */
export const insert = async (
  db: DbClient,
  workspaceId: string,
  input: {
    name: string;
    notes: string | null;
    scanQuota: number | null;
    auditQuota: number | null;
    auditPageQuota: number | null;
  },
): Promise<Client | null> => {
  const { count } = await db.client.createMany({
    data: [{ workspaceId, ...input }],
    skipDuplicates: true,
  });
  if (count === 0) return null;
  return db.client.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId, name: input.name } } });
};

/** What a change of a client may set; an absent field stays as it is. */
export type ClientChange = {
  name?: string | undefined;
  notes?: string | null | undefined;
  scanQuota?: number | null | undefined;
  auditQuota?: number | null | undefined;
  auditPageQuota?: number | null | undefined;
};

/** Renames a client, or changes its notes or quotas; `moved: false` when the workspace has no such client. */
export const update = async (db: DbClient, workspaceId: string, clientId: string, change: ClientChange) => {
  const data = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  const { count } = await db.client.updateMany({ where: { id: clientId, workspaceId }, data });
  return { moved: count > 0 };
};

/** Deletes a client; its sites keep everything and have no client. `moved: false` when there is no such client. */
export const remove = async (db: DbClient, workspaceId: string, clientId: string) => {
  const { count } = await db.client.deleteMany({ where: { id: clientId, workspaceId } });
  return { moved: count > 0 };
};
