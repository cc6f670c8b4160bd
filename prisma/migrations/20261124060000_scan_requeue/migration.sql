-- A scan the queue lost (Redis restarted empty) is queued again from its row: the row keeps
-- what the job carried (keep_snapshot) and how often it was queued again (requeues, bounded).
ALTER TABLE "scans" ADD COLUMN "keep_snapshot" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "scans" ADD COLUMN "requeues" INTEGER NOT NULL DEFAULT 0;
