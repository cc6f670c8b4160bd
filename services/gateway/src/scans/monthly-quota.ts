import type { Db } from "@scan/db";
import { quotaMonth } from "@scan/records";

export { quotaMonth };

type Reader = Pick<Db, "scan">;

/** The scans a monthly quota counts, of those stored since `start`: every one but one the service could not queue. */
export const countedScans = (start: Date) => ({
  createdAt: { gte: start },
  // a scan the service could not queue was never run: it does not count
  OR: [{ errorCode: null }, { errorCode: { not: "service_unavailable" } }],
});

/**
 * The workspace's scans that count against this month's quota: every one stored this month, from
 * any of its keys or its members' sessions and whatever its outcome, but one the service could not queue.
 */
export const scansThisMonth = (db: Reader, workspaceId: string, now = new Date()): Promise<number> =>
  db.scan.count({ where: { workspaceId, ...countedScans(quotaMonth(now).start) } });

/** The client's scans that count against its quota this month: those stored for it, as the workspace's count them. */
export const clientScansThisMonth = (db: Reader, clientId: string, now = new Date()): Promise<number> =>
  db.scan.count({ where: { clientId, ...countedScans(quotaMonth(now).start) } });
