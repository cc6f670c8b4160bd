import { z } from "zod";
import { Plan } from "./account";
import { ScanMode } from "./scan";

/** GET /api/v1/account: the caller's plan and what is left of its limits. */
const Window = z.object({
  limit: z.int().nonnegative(),
  remaining: z.int().nonnegative(),
  /** Unix epoch seconds, as X-RateLimit-Reset */
  reset: z.int().nonnegative(),
});

export const AccountView = z.object({
  plan: Plan,
  /** the plan's window: the API key's counter this request was counted in; for a dashboard session, the user's counter its scans and other changes count against (its reads have a budget of their own) */
  rateLimit: Window,
  /**
   * a dashboard session's own budget of reads (RATE_LIMIT_SESSION_READS), as it stands: reading
   * this view spends none of it, so the page answers and explains it once it is spent; null for
   * an API key
   */
  sessionReads: Window.nullable(),
  /** the user's scans this calendar month (UTC); `limit` null is unlimited */
  quota: z.object({
    used: z.int().nonnegative(),
    limit: z.int().nonnegative().nullable(),
    resetsAt: z.iso.datetime(),
  }),
});
export type AccountView = z.infer<typeof AccountView>;

const Count = z.int().nonnegative();

/** GET /api/v1/operations: the queue, its workers and the last hour of scans, for operators. */
export const OperationsView = z.object({
  queue: z.object({
    waiting: Count,
    active: Count,
    delayed: Count,
    prioritized: Count,
    failed: Count,
    completed: Count,
  }),
  /** workers connected to the queue now, as Redis knows them */
  workers: z.array(
    z.object({
      name: z.string(),
      /** when the worker last spoke to Redis */
      lastSeen: z.iso.datetime(),
    }),
  ),
  lastHour: z.object({
    done: Count,
    failed: Count,
    /** the last 60 minutes, oldest first: scans finished in each */
    perMinute: z.array(z.object({ at: z.iso.datetime(), done: Count, failed: Count })),
    /** scan time (queued to finished) of the completed scans; null when none completed */
    p50Ms: z.int().nonnegative().nullable(),
    p95Ms: z.int().nonnegative().nullable(),
  }),
  /** the latest failed scans, newest first */
  failures: z.array(
    z.object({
      id: z.uuid(),
      url: z.string(),
      mode: ScanMode,
      error: z.string(),
      code: z.string().nullable(),
      finishedAt: z.iso.datetime().nullable(),
    }),
  ),
  /** the queue dashboard's path; null when the deployment has none (no ADMIN_TOKEN) */
  queueDashboard: z.string().nullable(),
});
export type OperationsView = z.infer<typeof OperationsView>;
