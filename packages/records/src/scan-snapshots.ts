import type { DbClient } from "./transitions";

/**
 * A scan's kept snapshot (what was captured, compressed), read by the generators until it
 * expires. No states: stored once per scan (a retried attempt stores over the first), and
 * deleted when it expires.
 */

export type SnapshotRow = {
  data: Uint8Array<ArrayBuffer>;
  size: number;
  trimmed: boolean;
  createdAt: Date;
  expiresAt: Date;
};

/** Stores the scan's snapshot, over one an earlier attempt stored. */
export const store = (db: DbClient, scanId: string, row: SnapshotRow) =>
  db.scanSnapshot.upsert({ where: { scanId }, create: { scanId, ...row }, update: row });

/** Deletes the snapshots that expired before `now`; answers how many. */
export const dropExpired = async (db: DbClient, now: Date): Promise<number> =>
  (await db.scanSnapshot.deleteMany({ where: { expiresAt: { lt: now } } })).count;
