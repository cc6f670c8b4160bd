import type { Db } from "@scan/db";
import { type AlertJobPayload, alertJobId, type WebhookJobPayload } from "@scan/queue";
import { alerts as alertRows, SCAN_WHERE, scans } from "@scan/records";
import type { Queue } from "bullmq";
import type { Logger } from "pino";

/** Job states in which a delivery is still on its way: its row is left alone. */
const ALIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
/** rows looked at per sweep and kind; a longer backlog is covered over several sweeps */
const PAGE = 200;

/** How a delivery is queued again: the attempts it has made, and when its next one is due. */
export type Resumed = { attemptsBefore: number; delayMs: number };

export type DeliveryReaperDeps = {
  db: Db;
  /** the webhook queue, where callback and alert jobs live */
  queue: Pick<Queue, "getJob">;
  enqueueCallback: (payload: WebhookJobPayload, resumed: Resumed) => Promise<void>;
  enqueueAlert: (payload: AlertJobPayload, resumed: Resumed) => Promise<void>;
  /** WEBHOOK_ATTEMPTS: a delivery that made this many attempts is dead */
  attempts: number;
  /** a delivery is looked at once its last move is this old: its job is queued milliseconds after */
  orphanAfterMs: number;
  /** WEBHOOK_TIMEOUT_MS: an attempt under way when the queue lost its job ends within this */
  timeoutMs: number;
  log: Logger;
};

export type DeliverySweep = { callbacksRequeued: number; alertsRequeued: number; failed: number };

type Cursor = { at: Date; id: string };

/** What a sweep knows of one delivery from its row. */
type Pending = {
  jobId: string;
  /** attempts made (and stored) so far */
  made: number;
  /** when the next attempt is due, or when the delivery became due (its scan finished, its alert was made) */
  dueAt: Date;
};

/**
 * Deliveries survive a Redis that restarted empty the way scans do: from their rows. A
 * callback is pending on its scan (`callback_state`), its attempts are its webhook_deliveries
 * rows; an alert is pending on its row with its attempts counted there. A sweep finds pending
 * deliveries whose job the queue no longer has, or whose job is dead (it failed while the
 * database was away, so the row could not say so), and queues them again at the attempt they
 * had reached, due when their next attempt was due. One that made every attempt is marked
 * failed, which the API shows. A delivery is left alone while an attempt may still be under
 * way (until its due time plus the orphan age and one attempt's time-out), and a delivered one
 * is never touched: the jobs read the row before sending and send nothing once it is delivered.
 */
export const createDeliveryReaper = ({
  db,
  queue,
  enqueueCallback,
  enqueueAlert,
  attempts,
  orphanAfterMs,
  timeoutMs,
  log,
}: DeliveryReaperDeps) => {
  /** the job's state, or null when the delivery is still on its way or may be */
  const lostJob = async (pending: Pending, now: number): Promise<string | null> => {
    if (now < pending.dueAt.getTime() + orphanAfterMs + timeoutMs) return null;
    const job = await queue.getJob(pending.jobId);
    const state = job ? await job.getState() : "missing";
    if (ALIVE.has(state)) return null;
    // a dead job keeps the id: it goes first, or the add would be a no-op
    if (job) await job.remove();
    return state;
  };

  const resumedAt = (pending: Pending, now: number): Resumed => ({
    attemptsBefore: pending.made,
    delayMs: Math.max(0, pending.dueAt.getTime() - now),
  });

  /**
   * where each kind's last sweep stopped when it read a full page: a backlog of deliveries still
   * on their way (a receiver down for hours) does not hide the lost ones behind it
   */
  const cursors: { callbacks: Cursor | null; alerts: Cursor | null; visibilityAlerts: Cursor | null } = {
    callbacks: null,
    alerts: null,
    visibilityAlerts: null,
  };
  const after = (cursor: Cursor | null, field: "completedAt" | "createdAt") =>
    cursor ? { OR: [{ [field]: { gt: cursor.at } }, { [field]: cursor.at, id: { gt: cursor.id } }] } : {};
  const next = (rows: ReadonlyArray<{ id: string; at: Date | null }>): Cursor | null => {
    const last = rows.at(-1);
    return rows.length === PAGE && last?.at ? { at: last.at, id: last.id } : null;
  };

  const sweepCallbacks = async (result: DeliverySweep, now: number) => {
    const rows = await db.scan.findMany({
      where: {
        callbackState: "pending",
        ...SCAN_WHERE.ended,
        completedAt: { lt: new Date(now - orphanAfterMs) },
        ...after(cursors.callbacks, "completedAt"),
      },
      select: {
        id: true,
        requestId: true,
        completedAt: true,
        deliveries: {
          orderBy: { attempt: "desc" },
          take: 1,
          select: { attempt: true, createdAt: true, nextAttemptAt: true },
        },
      },
      orderBy: [{ completedAt: "asc" }, { id: "asc" }],
      take: PAGE,
    });
    cursors.callbacks = next(rows.map((scan) => ({ id: scan.id, at: scan.completedAt })));
    for (const scan of rows) {
      const [last] = scan.deliveries;
      const pending: Pending = {
        jobId: scan.id,
        made: last?.attempt ?? 0,
        dueAt: last ? (last.nextAttemptAt ?? last.createdAt) : (scan.completedAt ?? new Date(now)),
      };
      const state = await lostJob(pending, now);
      if (state === null) continue;
      if (pending.made >= attempts) {
        // its last attempt was made; only saying so was lost
        const { moved } = await scans.callbackFailed(db, scan.id);
        if (moved) result.failed += 1;
        if (moved) log.warn({ scanId: scan.id, attempts: pending.made }, "callback not delivered; giving up");
        continue;
      }
      await enqueueCallback(
        { scanId: scan.id, ...(scan.requestId ? { requestId: scan.requestId } : {}), attemptsBefore: pending.made },
        resumedAt(pending, now),
      );
      result.callbacksRequeued += 1;
      log.warn(
        { scanId: scan.id, jobState: state, attemptsBefore: pending.made },
        "callback queued again from its row",
      );
    }
  };

  /** An alert table as the sweep reads and gives up on it: audits' regressions or visibility runs' changes. */
  const alertTables = {
    audit: {
      cursor: "alerts" as const,
      pending: (where: object) =>
        db.auditAlert.findMany({
          where,
          select: { id: true, attempts: true, createdAt: true, nextAttemptAt: true },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          take: PAGE,
        }),
      giveUp: (id: string) => alertRows.giveUp(db, "audit", id),
      name: "regression alert",
    },
    visibility: {
      cursor: "visibilityAlerts" as const,
      pending: (where: object) =>
        db.visibilityAlert.findMany({
          where,
          select: { id: true, attempts: true, createdAt: true, nextAttemptAt: true },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          take: PAGE,
        }),
      giveUp: (id: string) => alertRows.giveUp(db, "visibility", id),
      name: "visibility alert",
    },
  };

  const sweepAlerts = async (result: DeliverySweep, now: number, kind: keyof typeof alertTables) => {
    const table = alertTables[kind];
    const alerts = await table.pending({
      state: "pending",
      createdAt: { lt: new Date(now - orphanAfterMs) },
      ...after(cursors[table.cursor], "createdAt"),
    });
    cursors[table.cursor] = next(alerts.map((alert) => ({ id: alert.id, at: alert.createdAt })));
    for (const alert of alerts) {
      const pending: Pending = {
        jobId: alertJobId(alert.id),
        made: alert.attempts,
        dueAt: alert.nextAttemptAt ?? alert.createdAt,
      };
      const state = await lostJob(pending, now);
      if (state === null) continue;
      if (pending.made >= attempts) {
        const { moved } = await table.giveUp(alert.id);
        if (moved) {
          result.failed += 1;
          log.warn({ alertId: alert.id, attempts: pending.made }, `${table.name} not delivered; giving up`);
        }
        continue;
      }
      await enqueueAlert(
        { alertId: alert.id, attemptsBefore: pending.made, ...(kind === "visibility" ? { kind } : {}) },
        resumedAt(pending, now),
      );
      result.alertsRequeued += 1;
      log.warn(
        { alertId: alert.id, jobState: state, attemptsBefore: pending.made },
        `${table.name} queued again from its row`,
      );
    }
  };

  const sweep = async (): Promise<DeliverySweep> => {
    const result: DeliverySweep = { callbacksRequeued: 0, alertsRequeued: 0, failed: 0 };
    const now = Date.now();
    await sweepCallbacks(result, now);
    await sweepAlerts(result, now, "audit");
    await sweepAlerts(result, now, "visibility");
    return result;
  };
  return { sweep };
};
