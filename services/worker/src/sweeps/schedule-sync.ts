import type { Db } from "@scan/db";
import { auditScheduler } from "@scan/queue";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

const BATCH = 500;

/**
 * Audit schedules survive a Redis that lost its data: the job schedulers live in Redis, the
 * schedules in Postgres. A marker key is set once every schedule's scheduler is in Redis; a
 * Redis that restarted empty (or was flushed, or failed over to a replica behind) has lost the
 * marker with the schedulers, and the next sweep makes every scheduler again from the rows.
 * Upserting a scheduler that exists changes nothing, so two workers syncing at once is harmless.
 */
export const createScheduleSync = ({
  db,
  queue,
  redis,
  log,
}: {
  db: Db;
  queue: Pick<Queue, "upsertJobScheduler" | "toKey">;
  redis: Pick<Redis, "exists" | "set">;
  log: Logger;
}) => {
  const marker = queue.toKey("audit-schedulers-synced");
  const sweep = async (): Promise<number> => {
    if ((await redis.exists(marker)) === 1) return 0;
    let synced = 0;
    let after: string | undefined;
    for (;;) {
      const rows = await db.auditSchedule.findMany({
        where: after ? { id: { gt: after } } : {},
        select: { id: true, siteId: true, frequency: true },
        orderBy: { id: "asc" },
        take: BATCH,
      });
      for (const row of rows) {
        const scheduler = auditScheduler(row);
        await queue.upsertJobScheduler(scheduler.id, scheduler.repeat, scheduler.template);
        synced += 1;
      }
      if (rows.length < BATCH) break;
      after = rows.at(-1)?.id;
    }
    await redis.set(marker, new Date().toISOString());
    if (synced > 0) log.warn({ schedules: synced }, "audit schedules made again from their rows");
    return synced;
  };
  return { sweep };
};
