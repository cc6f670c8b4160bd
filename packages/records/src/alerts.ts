import type { Prisma } from "@scan/db";
import type { DbClient } from "./transitions";

/**
 * The delivery state of an alert, an audit's regression alert or a visibility run's change alert:
 * `pending` until a delivery succeeds (`delivered`) or is given up (`failed`); each attempt is
 * counted with its error and when the queue tries again. Visibility alerts are made with their
 * run's end (visibility-runs.ts), audit alerts with their audit's completion (`insertAuditAlerts`).
 */

export type AlertKind = "audit" | "visibility";

/** An attempt's outcome: delivered, given up, or to be tried again at `nextAttemptAt`. */
export type Attempt = {
  attempt: number;
  error: string | null;
  outcome: "delivered" | "failed" | "retry";
  nextAttemptAt: Date | null;
  at: Date;
};

/** Records a delivery attempt on the alert's row. */
export const recordAttempt = (db: DbClient, kind: AlertKind, id: string, attempt: Attempt) => {
  const data = {
    attempts: attempt.attempt,
    lastError: attempt.error,
    nextAttemptAt: attempt.outcome === "retry" ? attempt.nextAttemptAt : null,
    ...(attempt.outcome === "delivered"
      ? { state: "delivered" as const, deliveredAt: attempt.at }
      : attempt.outcome === "failed"
        ? { state: "failed" as const }
        : {}),
  };
  return kind === "visibility"
    ? db.visibilityAlert.update({ where: { id }, data })
    : db.auditAlert.update({ where: { id }, data });
};

/** Gives up a delivery that is still pending (the delivery sweep, once its attempts are spent); `moved: false` otherwise. */
export const giveUp = async (db: DbClient, kind: AlertKind, id: string): Promise<{ moved: boolean }> => {
  const where = { id, state: "pending" as const };
  const data = { state: "failed" as const, nextAttemptAt: null };
  const { count } =
    kind === "visibility"
      ? await db.visibilityAlert.updateMany({ where, data })
      : await db.auditAlert.updateMany({ where, data });
  return { moved: count > 0 };
};

/** Stores an audit's alerts, one a channel, in the audit's completing transaction; a repeat adds none. */
export const insertAuditAlerts = async (
  tx: DbClient,
  alerts: readonly Prisma.AuditAlertCreateManyInput[],
): Promise<number> =>
  alerts.length === 0 ? 0 : (await tx.auditAlert.createMany({ data: [...alerts], skipDuplicates: true })).count;
