import { type Db, Prisma } from "@scan/db";
import { auditLog, audits, scans } from "@scan/records";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** Days each plan keeps full check lists; scores, grades and issue counts are kept for good. */
export type RetentionDays = { anonymous: number; free: number; starter: number; pro: number; agency: number };

export type PruneResult = { scans: number; auditPages: number; auditLog: number; batches: number };

export type Pruner = {
  /** Prunes old check lists, scans' first and then audit pages', then old audit log entries, for at most `maxBatches` batches; answers the counts. */
  prune: () => Promise<PruneResult>;
};

/**
 * Prunes what grows without end once audits run on schedules: the full check lists of scans
 * (`scans.checks`) and of audit pages (`audit_pages.checks` and `facts`) older than the owner's
 * plan keeps them. Scores, grades, issue counts and audit reports stay, so history and the
 * site report are whole. Each batch is one short statement that skips rows another transaction
 * holds, so pruning never takes a long lock and never waits on a scan being stored; a run does
 * at most `maxBatches` batches and the next run goes on. Workspaces' audit log entries older than
 * their workspace's plan keeps them (`auditLogDays`) are deleted, the one delete their table lets through.
 */
export const createPruner = ({
  db,
  days,
  auditLogDays,
  batchSize,
  maxBatches,
  log,
}: {
  db: Db;
  days: RetentionDays;
  /** days an audit log entry is kept, by its workspace's plan */
  auditLogDays: { free: number; starter: number; pro: number; agency: number };
  batchSize: number;
  maxBatches: number;
  log: Logger;
}): Pruner => {
  // anonymous scans (no user) keep theirs for RETENTION_DAYS_ANONYMOUS
  const cutoff = Prisma.sql`now() - (CASE WHEN u."id" IS NULL THEN ${days.anonymous}::int
    WHEN u."plan" = 'starter' THEN ${days.starter}::int WHEN u."plan" = 'pro' THEN ${days.pro}::int
    WHEN u."plan" = 'agency' THEN ${days.agency}::int ELSE ${days.free}::int END) * interval '1 day'`;

  const pruneScans = () => scans.pruneChecks(db, cutoff, batchSize);
  const pruneAuditPages = () => audits.prunePageChecks(db, cutoff, batchSize);
  const pruneAuditLog = () => auditLog.prune(db, auditLogDays, batchSize);

  const prune = async (): Promise<PruneResult> => {
    const result: PruneResult = { scans: 0, auditPages: 0, auditLog: 0, batches: 0 };
    for (const [step, key] of [
      [pruneScans, "scans"],
      [pruneAuditPages, "auditPages"],
      [pruneAuditLog, "auditLog"],
    ] as const) {
      while (result.batches < maxBatches) {
        const count = await step();
        result.batches += 1;
        result[key] += count;
        if (count < batchSize) break;
      }
    }
    if (result.scans + result.auditPages + result.auditLog > 0)
      log.info(result, "old check lists and audit log entries pruned");
    return result;
  };
  return { prune };
};

/**
 * Runs the pruner at most every intervalMs, one worker at a time (a Redis key held for the
 * interval), as one of the reaper's sweeps.
 */
export const pruneEvery = (
  pruner: Pruner,
  { redis, key, intervalMs }: { redis: Pick<Redis, "set">; key: string; intervalMs: number },
) => {
  return async () => {
    const mine = await redis.set(key, "1", "PX", intervalMs, "NX");
    if (mine === "OK") await pruner.prune();
  };
};
