-- A run keeps a window of its samples on the queue, fed in plan order, instead of every sample's job at once.
ALTER TABLE "visibility_runs" ADD COLUMN "queued_samples" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "visibility_samples" ADD COLUMN "ordinal" INTEGER NOT NULL DEFAULT 0;

-- runs stored before had every sample queued at once (and their samples all have ordinal 0)
UPDATE "visibility_runs" SET "queued_samples" = "planned";

CREATE INDEX "visibility_samples_run_id_ordinal_idx" ON "visibility_samples"("run_id", "ordinal");
