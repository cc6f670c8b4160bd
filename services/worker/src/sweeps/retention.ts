import { type Db, Prisma } from "@scan/db";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** Days each plan keeps full check lists; scores, grades and issue counts are kept for good. */
export type RetentionDays = { anonymous: number; free: number; starter: number; pro: number; agency: number };

export type PruneResult = { scans: number; auditPages: number; batches: number };

/**
 * Prunes what grows without end once audits run on schedules: the full check lists of scans
 * (`scans.checks`) and of audit pages (`audit_pages.checks` and `facts`) older than the owner's
 * plan keeps them. Scores, grades, issue counts and audit reports stay, so history and the
 * site report are whole. Each batch is one short statement that skips rows another transaction
 * holds, so pruning never takes a long lock and never waits on a scan being stored; a run does
 * at most `maxBatches` batches and the next run goes on.
 */
export const createPruner = ({
  db,
  days,
  batchSize,
  maxBatches,
  log,
}: {
  db: Db;
  days: RetentionDays;
  batchSize: number;
  maxBatches: number;
  log: Logger;
}) => {
  // anonymous scans (no user) keep theirs for RETENTION_DAYS_ANONYMOUS
  const cutoff = Prisma.sql`now() - (CASE WHEN u."id" IS NULL THEN ${days.anonymous}::int
    WHEN u."plan" = 'starter' THEN ${days.starter}::int WHEN u."plan" = 'pro' THEN ${days.pro}::int
    WHEN u."plan" = 'agency' THEN ${days.agency}::int ELSE ${days.free}::int END) * interval '1 day'`;

  const pruneScans = () =>
    db.$executeRaw`UPDATE "scans" SET "checks" = NULL, "checks_pruned_at" = now() WHERE "id" IN (
      SELECT s."id" FROM "scans" s LEFT JOIN "users" u ON u."id" = s."user_id"
      WHERE s."checks" IS NOT NULL AND s."status" IN ('completed', 'failed') AND s."created_at" < ${cutoff}
      LIMIT ${batchSize} FOR UPDATE OF s SKIP LOCKED)`;

  const pruneAuditPages = () =>
    db.$executeRaw`UPDATE "audit_pages" SET "checks" = NULL, "facts" = NULL WHERE "id" IN (
      SELECT p."id" FROM "audit_pages" p JOIN "audits" a ON a."id" = p."audit_id" JOIN "users" u ON u."id" = a."user_id"
      WHERE (p."checks" IS NOT NULL OR p."facts" IS NOT NULL) AND a."status" IN ('completed', 'failed', 'cancelled')
        AND a."created_at" < ${cutoff}
      LIMIT ${batchSize} FOR UPDATE OF p SKIP LOCKED)`;

  const prune = async (): Promise<PruneResult> => {
    const result: PruneResult = { scans: 0, auditPages: 0, batches: 0 };
    for (const [step, key] of [
      [pruneScans, "scans"],
      [pruneAuditPages, "auditPages"],
    ] as const) {
      while (result.batches < maxBatches) {
        const count = await step();
        result.batches += 1;
        result[key] += count;
        if (count < batchSize) break;
      }
    }
    if (result.scans + result.auditPages > 0) log.info(result, "old check lists pruned");
    return result;
  };
  return { prune };
};

/**
 * Runs the pruner at most every intervalMs, one worker at a time (a Redis key held for the
 * interval), as one of the reaper's sweeps.
 */
export const pruneEvery = (
  pruner: ReturnType<typeof createPruner>,
  { redis, key, intervalMs }: { redis: Pick<Redis, "set">; key: string; intervalMs: number },
) => {
  return async () => {
    const mine = await redis.set(key, "1", "PX", intervalMs, "NX");
    if (mine === "OK") await pruner.prune();
  };
};
