import type { AccountView, OperationsView, Plan } from "@scan/contract";
import type { Db } from "@scan/db";
import type { Queue } from "bullmq";
import { z } from "zod";
import { workerNameOf } from "../audits";
import { quotaMonth, scansThisMonth } from "../scans";

/** The latest failed scans shown. */
const FAILURES_SHOWN = 10;
const MINUTE_MS = 60_000;

const QUEUE_STATES = ["waiting", "active", "delayed", "prioritized", "failed", "completed"] as const;

const MinuteRow = z.object({ minute: z.date(), done: z.number(), failed: z.number() });
const PercentileRow = z.object({ p50: z.number().nullable(), p95: z.number().nullable() });

/**
 * A worker as Redis lists it (CLIENT LIST through BullMQ): a named worker's connection is
 * called `<prefix>:<queue>:w:<name>`; `idle` is the seconds since it last sent a command, and a
 * waiting worker sends one every few seconds.
 */
const workerOf = (client: Record<string, string>, now: number): OperationsView["workers"][number] => {
  const idleS = Number(client.idle);
  return {
    name: workerNameOf(client) ?? `worker at ${client.addr ?? "an unknown address"}`,
    lastSeen: new Date(now - (Number.isFinite(idleS) ? idleS * 1000 : 0)).toISOString(),
  };
};

export type OperationsDeps = {
  db: Db;
  queue: Queue;
  /** scans per calendar month (UTC) by plan; null is unlimited */
  monthlyQuotas: Record<Plan, number | null>;
  /** the queue dashboard's path, when the deployment serves one */
  queueDashboard: string | null;
};

export type Operations = {
  /** The workspace's scans this calendar month (UTC) against its plan's monthly quota. */
  quota: (workspaceId: string, plan: Plan) => Promise<AccountView["quota"]>;
  /** The operators' view: the queue and its workers, the last hour of finished scans, the latest failures. */
  overview: () => Promise<OperationsView>;
};

/**
 * What the dashboard shows of the service: a user's monthly quota, and for operators the
 * queue (BullMQ's counts and the workers Redis knows), the last hour of finished scans from
 * the scans table, and the latest failures with their reasons.
 */
export const createOperations = ({ db, queue, monthlyQuotas, queueDashboard }: OperationsDeps): Operations => {
  const quota = async (workspaceId: string, plan: Plan): Promise<AccountView["quota"]> => {
    const now = new Date();
    return {
      used: await scansThisMonth(db, workspaceId, now),
      limit: monthlyQuotas[plan],
      resetsAt: quotaMonth(now).resetsAt.toISOString(),
    };
  };

  /** Finished scans of the last 60 whole minutes (the current one included), per minute and their scan time. */
  const lastHour = async (now: number): Promise<OperationsView["lastHour"]> => {
    const since = new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS - 59 * MINUTE_MS);
    // updated_at is never before completed_at: the (status, updated_at) index finds the rows
    const [minutes, percentiles] = await Promise.all([
      db.$queryRaw<unknown[]>`
        SELECT date_trunc('minute', "completed_at") AS minute,
               count(*) FILTER (WHERE "status" = 'completed')::int AS done,
               count(*) FILTER (WHERE "status" = 'failed')::int AS failed
        FROM "scans"
        WHERE "status" IN ('completed', 'failed') AND "updated_at" >= ${since} AND "completed_at" >= ${since}
        GROUP BY 1`,
      db.$queryRaw<unknown[]>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "duration_ms") AS p50,
               percentile_cont(0.95) WITHIN GROUP (ORDER BY "duration_ms") AS p95
        FROM "scans"
        WHERE "status" = 'completed' AND "updated_at" >= ${since} AND "completed_at" >= ${since}
          AND "duration_ms" IS NOT NULL`,
    ]);
    const counted = new Map(
      minutes.map((row) => MinuteRow.parse(row)).map((row) => [row.minute.getTime(), row] as const),
    );
    const perMinute = Array.from({ length: 60 }, (_, i) => {
      const at = since.getTime() + i * MINUTE_MS;
      const row = counted.get(at);
      return { at: new Date(at).toISOString(), done: row?.done ?? 0, failed: row?.failed ?? 0 };
    });
    const { p50, p95 } = PercentileRow.parse(percentiles[0] ?? { p50: null, p95: null });
    return {
      done: perMinute.reduce((sum, minute) => sum + minute.done, 0),
      failed: perMinute.reduce((sum, minute) => sum + minute.failed, 0),
      perMinute,
      p50Ms: p50 === null ? null : Math.round(p50),
      p95Ms: p95 === null ? null : Math.round(p95),
    };
  };

  const overview = async (): Promise<OperationsView> => {
    const now = Date.now();
    const [counts, clients, hour, failed] = await Promise.all([
      queue.getJobCounts(...QUEUE_STATES),
      queue.getWorkers(),
      lastHour(now),
      db.scan.findMany({
        where: { status: "failed" },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        take: FAILURES_SHOWN,
        select: { id: true, url: true, mode: true, errorCode: true, errorMessage: true, completedAt: true },
      }),
    ]);
    return {
      queue: Object.fromEntries(QUEUE_STATES.map((state) => [state, counts[state] ?? 0])) as OperationsView["queue"],
      workers: clients.map((client) => workerOf(client, now)).sort((a, b) => a.name.localeCompare(b.name)),
      lastHour: hour,
      failures: failed.map((scan) => ({
        id: scan.id,
        url: scan.url,
        mode: scan.mode,
        error: scan.errorMessage ?? scan.errorCode ?? "failed without a recorded reason",
        code: scan.errorCode,
        finishedAt: scan.completedAt?.toISOString() ?? null,
      })),
      queueDashboard,
    };
  };

  return { quota, overview };
};
