import type { ScanOutcome } from "@scan/contract";
import type { AuditPage, Prisma } from "@scan/db";
import { outcomeColumns } from "./outcome";
import { type DbClient, startStates, type Transitions } from "./transitions";

export type AuditPageState = AuditPage["status"];

export const AUDIT_PAGE_STATES = [
  "queued",
  "running",
  "scanned",
  "failed",
  "blocked",
  "cancelled",
] as const satisfies readonly AuditPageState[];
/** A page in one of these has ended: it is counted, and no move takes it anywhere else. */
export const AUDIT_PAGE_ENDED = [
  "scanned",
  "failed",
  "blocked",
  "cancelled",
] as const satisfies readonly AuditPageState[];
/** A page still to end: the audit waits for it before its report. */
export const AUDIT_PAGE_OPEN = ["queued", "running"] as const satisfies readonly AuditPageState[];

/**
 * Every move of an audit page. A page is admitted `queued` (audits.admitPages); it is scanned
 * only from `running`, so a page run twice stores and counts once; an ended page stays ended.
 */
export const AUDIT_PAGE_TRANSITIONS = {
  markRunning: { from: ["queued", "running"], to: "running" },
  complete: { from: ["running"], to: "scanned" },
  fail: { from: ["queued", "running"], to: "failed" },
  /** robots.txt disallows the audit's crawler */
  block: { from: ["queued", "running"], to: "blocked" },
  /** its audit ended before the page ran */
  cancel: { from: ["queued", "running"], to: "cancelled" },
  /** its audit is cancelled: pages not started are cancelled, pages being scanned finish */
  cancelWaiting: { from: ["queued"], to: "cancelled" },
  requeue: { from: ["queued", "running"], to: "queued" },
} as const satisfies Transitions<AuditPageState>;

/** Row filters for reads: pages a sweep may still move on. */
export const AUDIT_PAGE_WHERE = {
  open: { status: { in: startStates(AUDIT_PAGE_TRANSITIONS.requeue) } },
} as const satisfies Record<string, Prisma.AuditPageWhereInput>;

/** The row as a sweep read it: a move made on it only if nothing changed it since. */
export type AuditPageGuard = { updatedAt: Date; requeues: number };

const where = (
  id: string,
  move: { from: readonly AuditPageState[] },
  guard?: AuditPageGuard,
): Prisma.AuditPageWhereInput => ({
  id,
  status: { in: [...move.from] },
  ...(guard ? { updatedAt: guard.updatedAt, requeues: guard.requeues } : {}),
});

const move = async (
  db: DbClient,
  id: string,
  step: { from: readonly AuditPageState[]; to: AuditPageState },
  data: Prisma.AuditPageUpdateManyMutationInput,
  guard?: AuditPageGuard,
) => {
  const { count } = await db.auditPage.updateMany({
    where: where(id, step, guard),
    data: { ...data, status: step.to },
  });
  return { moved: count > 0 };
};

/** A worker starts scanning the page. */
export const markRunning = (db: DbClient, id: string) =>
  move(db, id, AUDIT_PAGE_TRANSITIONS.markRunning, { startedAt: new Date() });

/** Stores a scanned page: its answer's status, outcome and facts. `stored: false`: it was not running. */
export const complete = async (
  db: DbClient,
  id: string,
  scanned: { httpStatus: number | null; outcome: ScanOutcome; facts: Prisma.InputJsonValue },
) => {
  const { moved } = await move(db, id, AUDIT_PAGE_TRANSITIONS.complete, {
    httpStatus: scanned.httpStatus,
    ...outcomeColumns(scanned.outcome),
    facts: scanned.facts,
    errorMessage: null,
    completedAt: new Date(),
  });
  return { stored: moved };
};

/** The page could not be judged: no answer, refused, or its scan broke. */
export const fail = (
  db: DbClient,
  id: string,
  reason: { message: string; httpStatus?: number | null },
  guard?: AuditPageGuard,
) =>
  move(
    db,
    id,
    AUDIT_PAGE_TRANSITIONS.fail,
    {
      errorMessage: reason.message.slice(0, 1000),
      ...(reason.httpStatus !== undefined ? { httpStatus: reason.httpStatus } : {}),
      completedAt: new Date(),
    },
    guard,
  );

/** robots.txt disallows the audit's crawler on this page. */
export const block = (db: DbClient, id: string, message: string) =>
  move(db, id, AUDIT_PAGE_TRANSITIONS.block, { errorMessage: message, completedAt: new Date() });

/** The page's audit ended before the page ran. */
export const cancel = (db: DbClient, id: string, guard?: AuditPageGuard) =>
  move(db, id, AUDIT_PAGE_TRANSITIONS.cancel, { completedAt: new Date() }, guard);

/** An audit is cancelled: its pages not started are cancelled; returns how many. */
export const cancelWaiting = async (db: DbClient, auditId: string): Promise<number> => {
  const { count } = await db.auditPage.updateMany({
    where: { auditId, status: { in: [...AUDIT_PAGE_TRANSITIONS.cancelWaiting.from] } },
    data: { status: AUDIT_PAGE_TRANSITIONS.cancelWaiting.to, completedAt: new Date() },
  });
  return count;
};

/** Claims a page whose job was lost, to queue it again: one more requeue, back to `queued`. */
export const requeue = (db: DbClient, id: string, guard: AuditPageGuard) =>
  move(db, id, AUDIT_PAGE_TRANSITIONS.requeue, { startedAt: null, requeues: guard.requeues + 1 }, guard);
