import type { CitationTrack, Prisma } from "@scan/db";
import type { DbClient } from "./transitions";

/**
 * Citation tracks: what a caller observed an AI engine answer for a query (cited or not). They
 * have no states; each is stored as observed, its query's wording may be corrected, and it may be
 * deleted. Every change names the workspace with the row, so another workspace's is never touched.
 */

export type NewTrack = Omit<Prisma.CitationTrackUncheckedCreateInput, "id" | "createdAt">;

/** Stores one observation. */
export const insert = (db: DbClient, track: NewTrack): Promise<CitationTrack> =>
  db.citationTrack.create({ data: track });

/** Stores many observations at once (the demo seed); answers how many. */
export const insertMany = async (db: DbClient, tracks: readonly NewTrack[]): Promise<number> =>
  tracks.length === 0 ? 0 : (await db.citationTrack.createMany({ data: [...tracks] })).count;

/** Corrects the wording of one of the workspace's tracks; null when it has no such track. */
export const rename = async (
  db: DbClient,
  workspaceId: string,
  id: string,
  queryText: string,
): Promise<CitationTrack | null> => {
  const { count } = await db.citationTrack.updateMany({ where: { id, workspaceId }, data: { queryText } });
  return count === 0 ? null : db.citationTrack.findUnique({ where: { id } });
};

/** Deletes one of the workspace's tracks; `removed: false` when it has no such track. */
export const remove = async (db: DbClient, workspaceId: string, id: string): Promise<{ removed: boolean }> => {
  const { count } = await db.citationTrack.deleteMany({ where: { id, workspaceId } });
  return { removed: count > 0 };
};
