import type { ScanMode, ScanOutcome } from "@scan/contract";
import type { Db, Prisma, Scan } from "@scan/db";
import { outcomeColumns } from "./outcome";
import { recordScanScores } from "./sites";
import { transaction } from "./transaction";
import { type DbClient, startStates, type Transitions } from "./transitions";

export type ScanState = Scan["status"];
export type CallbackState = NonNullable<Scan["callbackState"]>;

export const SCAN_STATES = ["queued", "running", "completed", "failed"] as const satisfies readonly ScanState[];
/** A scan in one of these has ended: no move takes it anywhere else. */
export const SCAN_ENDED = ["completed", "failed"] as const satisfies readonly ScanState[];

/**
 * Every move of a scan row. A new row is `queued` (insertQueued). A scan may complete from
 * `queued`: the reaper can queue again a scan whose first worker is still running it, and that
 * worker stores it without its job. An ended scan stays ended: a worker that finishes after
 * the reaper failed its scan (or after another run stored it) is told its result was not
 * stored, and the stored verdict stands.
 */
export const SCAN_TRANSITIONS = {
  markRunning: { from: ["queued", "running"], to: "running" },
  complete: { from: ["queued", "running"], to: "completed" },
  fail: { from: ["queued", "running"], to: "failed" },
  requeue: { from: ["queued", "running"], to: "queued" },
  /** a requeue whose job could not be queued gives its count back */
  returnRequeue: { from: ["queued", "running"], to: null },
  /** retention drops an ended scan's check list; scores and counts stay */
  pruneChecks: { from: ["completed", "failed"], to: null },
} as const satisfies Transitions<ScanState>;

/** Where a scan's callback delivery stands: `pending` until it is delivered or given up. */
export const CALLBACK_TRANSITIONS = {
  callbackDelivered: { from: ["pending"], to: "delivered" },
  callbackFailed: { from: ["pending"], to: "failed" },
} as const satisfies Transitions<CallbackState>;

/** Row filters for reads: scans a sweep may still move on, and scans that have ended. */
export const SCAN_WHERE = {
  open: { status: { in: startStates(SCAN_TRANSITIONS.requeue) } },
  ended: { status: { in: [...SCAN_ENDED] } },
} as const satisfies Record<string, Prisma.ScanWhereInput>;

export const isEnded = (status: ScanState): boolean => (SCAN_ENDED as readonly string[]).includes(status);

/** The row as a sweep read it: a move made on it only if nothing changed it since. */
export type ScanGuard = { updatedAt: Date; requeues: number };

const where = (id: string, move: { from: readonly ScanState[] }, guard?: ScanGuard): Prisma.ScanWhereInput => ({
  id,
  status: { in: [...move.from] },
  ...(guard ? { updatedAt: guard.updatedAt, requeues: guard.requeues } : {}),
});

/** A scan to store: `keepSnapshot` asks the worker to keep the captured page for the generators. */
export type NewScan = {
  id: string;
  url: string;
  mode: ScanMode;
  requestId: string;
  keepSnapshot?: boolean;
  /** anonymous scans: the hash of the access link's token */
  accessTokenHash?: string;
};

/** The workspace that owns the scan, the member who made it, and the key it was made with. */
export type ScanOwner = { workspaceId: string; userId: string; apiKeyId: string | null };

/**
 * Stores new scans as `queued`, all or none; a callback URL starts its delivery `pending`.
 * `clients` holds, by scan id, the client each scan counts for (none when absent).
 */
export const insertQueued = (
  db: DbClient,
  scans: readonly NewScan[],
  {
    owner,
    callbackUrl,
    clients,
  }: { owner: ScanOwner | null; callbackUrl: string | null; clients?: ReadonlyMap<string, string> },
) =>
  db.scan.createMany({
    data: scans.map((scan) => ({
      ...scan,
      clientId: clients?.get(scan.id) ?? null,
      status: "queued" as const,
      callbackUrl,
      callbackState: callbackUrl ? ("pending" as const) : null,
      ...(owner ? { workspaceId: owner.workspaceId, userId: owner.userId, apiKeyId: owner.apiKeyId } : {}),
    })),
  });

/** A worker starts the scan. `moved: false`: it has ended already, or does not exist. */
export const markRunning = async (db: DbClient, id: string) => {
  const { count } = await db.scan.updateMany({
    where: where(id, SCAN_TRANSITIONS.markRunning),
    data: { status: SCAN_TRANSITIONS.markRunning.to, startedAt: new Date() },
  });
  return { moved: count > 0 };
};

export type Completed =
  | { stored: true; callbackUrl: string | null }
  /** the scan had ended (or does not exist): nothing was written, the stored state stands */
  | { stored: false; status: ScanState | null };

/**
 * Stores a scan's outcome: the row completes and, for a scan made with a key, its workspace's
 * site takes the scores, in one transaction (no completed scan without its site, and no site
 * scored by a result that was not stored). On every scan's path, so as few statements as
 * that allows: what the move needs from the row (its address, owner and creation time) never
 * changes once the row is stored and is read before; a scan made without a key is then one
 * conditional statement, all or none by itself, with no transaction around it. One made with
 * a key moves the row and scores its site in an interactive transaction: with Prisma 7 it cost
 * the worker less CPU than the same two statements as an array `$transaction`
 * (docs/reports/architecture-before-after.md).
 */
export const complete = async (db: Db, id: string, outcome: ScanOutcome, mode: ScanMode): Promise<Completed> => {
  const scan = await db.scan.findUnique({
    where: { id },
    select: { createdAt: true, userId: true, workspaceId: true, url: true },
  });
  if (!scan) return { stored: false, status: null };
  const move = (client: DbClient, completedAt: Date) =>
    client.scan.updateManyAndReturn({
      where: where(id, SCAN_TRANSITIONS.complete),
      data: {
        status: SCAN_TRANSITIONS.complete.to,
        ...outcomeColumns(outcome),
        rendered: outcome.rendered,
        renderFailure: outcome.renderFailure,
        durationMs: completedAt.getTime() - scan.createdAt.getTime(),
        completedAt,
        errorCode: null,
        errorMessage: null,
      },
      select: { callbackUrl: true },
    });
  const { userId, workspaceId } = scan;
  const [stored] =
    userId && workspaceId
      ? await transaction(db, async (tx) => {
          const completedAt = new Date();
          const moved = await move(tx, completedAt);
          if (moved.length > 0) {
            const owner = { workspaceId, userId };
            await recordScanScores(tx, { id, owner, url: scan.url, mode, scores: outcome.scores, completedAt });
          }
          return moved;
        })
      : await move(db, new Date());
  if (stored) return { stored: true, callbackUrl: stored.callbackUrl };
  const now = await db.scan.findUnique({ where: { id }, select: { status: true } });
  return { stored: false, status: now?.status ?? null };
};

export type Failed = { moved: true; callbackUrl: string | null } | { moved: false };

/**
 * Fails a scan with its reason. With `guard` (a sweep), only if the row is as the sweep read it.
 * A scan that has ended keeps its verdict.
 */
export const fail = async (
  db: DbClient,
  id: string,
  reason: { code: string; message: string },
  guard?: ScanGuard,
): Promise<Failed> => {
  const [failed] = await db.scan.updateManyAndReturn({
    where: where(id, SCAN_TRANSITIONS.fail, guard),
    data: {
      status: SCAN_TRANSITIONS.fail.to,
      errorCode: reason.code,
      errorMessage: reason.message.slice(0, 1000),
      completedAt: new Date(),
    },
    select: { callbackUrl: true },
  });
  return failed ? { moved: true, callbackUrl: failed.callbackUrl } : { moved: false };
};

/** Claims a scan whose job was lost, to queue it again: one more requeue, back to `queued`. */
export const requeue = async (db: DbClient, id: string, guard: ScanGuard) => {
  const { count } = await db.scan.updateMany({
    where: where(id, SCAN_TRANSITIONS.requeue, guard),
    data: { status: SCAN_TRANSITIONS.requeue.to, startedAt: null, requeues: guard.requeues + 1 },
  });
  return { moved: count > 0 };
};

/** Gives back the count a requeue took when its job could not be queued: the next sweep tries again. */
export const returnRequeue = async (db: DbClient, id: string, requeued: { requeues: number }) => {
  const { count } = await db.scan.updateMany({
    where: { id, requeues: requeued.requeues, status: { in: [...SCAN_TRANSITIONS.returnRequeue.from] } },
    data: { requeues: requeued.requeues - 1 },
  });
  return { moved: count > 0 };
};

/**
 * Drops the check lists of ended scans older than `cutoff`, at most `batchSize` of them, skipping
 * rows another transaction holds. `cutoff` is SQL over the scan's workspace as `u` (a left join:
 * anonymous scans have none). Returns how many were pruned.
 */
export const pruneChecks = (db: DbClient, cutoff: Prisma.Sql, batchSize: number): Promise<number> =>
  db.$executeRaw`UPDATE "scans" SET "checks" = NULL, "checks_pruned_at" = now() WHERE "id" IN (
    SELECT s."id" FROM "scans" s LEFT JOIN "workspaces" u ON u."id" = s."workspace_id"
    WHERE s."checks" IS NOT NULL AND s."status" = ANY(${startStates(SCAN_TRANSITIONS.pruneChecks)}::"ScanStatus"[])
      AND s."created_at" < ${cutoff}
    LIMIT ${batchSize} FOR UPDATE OF s SKIP LOCKED)`;

const moveCallback = async (
  db: DbClient,
  id: string,
  move: (typeof CALLBACK_TRANSITIONS)[keyof typeof CALLBACK_TRANSITIONS],
) => {
  const { count } = await db.scan.updateMany({
    where: { id, callbackState: { in: [...move.from] } },
    data: { callbackState: move.to },
  });
  return { moved: count > 0 };
};

/** The callback reached its receiver. */
export const callbackDelivered = (db: DbClient, id: string) =>
  moveCallback(db, id, CALLBACK_TRANSITIONS.callbackDelivered);

/** The callback's last attempt failed: it is not tried again. */
export const callbackFailed = (db: DbClient, id: string) => moveCallback(db, id, CALLBACK_TRANSITIONS.callbackFailed);
