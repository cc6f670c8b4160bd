import type { Snapshot } from "@scan/contract";
import { packSnapshot } from "@scan/contract";
import type { Db } from "@scan/db";
import { scanSnapshots } from "@scan/records";

export type SnapshotRetention = {
  /** largest gzipped snapshot kept; a larger one is trimmed, then not kept */
  maxBytes: number;
  /** how long a kept snapshot may be read */
  retentionS: number;
};

export type KeptSnapshot =
  | { kept: true; bytes: number; size: number; trimmed: boolean }
  | { kept: false; reason: string };

/**
 * Stores a scan's snapshot for the generators, compressed and capped, until it expires; and
 * deletes the snapshots that have expired, so the table holds at most a retention period of
 * them. Runs before the scan is marked completed: whoever waits on the scan finds its
 * snapshot stored when it wakes.
 */
export const keepSnapshot = async (
  db: Db,
  scanId: string,
  snapshot: Snapshot,
  { maxBytes, retentionS }: SnapshotRetention,
): Promise<KeptSnapshot> => {
  const now = new Date();
  await scanSnapshots.dropExpired(db, now);
  const packed = await packSnapshot(snapshot, maxBytes);
  if (!packed) return { kept: false, reason: `larger than ${maxBytes} bytes compressed` };
  const row = {
    data: new Uint8Array(packed.data),
    size: packed.size,
    trimmed: packed.trimmed,
    createdAt: now,
    expiresAt: new Date(now.getTime() + retentionS * 1000),
  };
  // a retried attempt stores again over the first one
  await scanSnapshots.store(db, scanId, row);
  return { kept: true, bytes: packed.data.byteLength, size: packed.size, trimmed: packed.trimmed };
};
