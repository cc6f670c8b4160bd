/** The calendar month (UTC) a moment falls in: its start, and the start of the next one, when monthly quotas reset. */
export const quotaMonth = (now: Date): { start: Date; resetsAt: Date } => ({
  start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
  resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
});

/**
 * The lock every start of an audit in a workspace holds while it counts and inserts (the API's
 * and a schedule's): its key must stay `audits:<workspace id>`, the gateway's `withUserLock(db,
 * "audits", workspaceId)`, so the two cannot together pass a client's audit quota.
 */
export const AUDIT_START_LOCK = (workspaceId: string) => `audits:${workspaceId}`;

/**
 * The lock every admission of pages to an audit of a client holds while it counts the client's
 * audit pages of the month and admits: two audits of one client crawling at once cannot together
 * pass its page quota.
 */
export const AUDIT_PAGES_LOCK = (clientId: string) => `audit-pages:${clientId}`;
