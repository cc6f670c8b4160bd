import type { Db } from "@scan/db";

type Reader = Pick<Db, "scan">;

/** The calendar month (UTC) a moment falls in: its start, and the start of the next one, when the quota resets. */
export const quotaMonth = (now: Date): { start: Date; resetsAt: Date } => ({
  start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
  resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
});

/**
 * The workspace's scans that count against this month's quota: every one stored this month, from
 * any of its keys or its members' sessions and whatever its outcome, but one the service could not queue.
 */
export const scansThisMonth = (db: Reader, workspaceId: string, now = new Date()): Promise<number> =>
  db.scan.count({
    where: {
      workspaceId,
      createdAt: { gte: quotaMonth(now).start },
      // a scan the service could not queue was never run: it does not count
      OR: [{ errorCode: null }, { errorCode: { not: "service_unavailable" } }],
    },
  });
