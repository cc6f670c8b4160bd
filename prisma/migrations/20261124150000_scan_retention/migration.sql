-- Retention: a scan's full check list is dropped once its plan's retention has passed; its
-- scores and issue counts stay for the history. The partial index holds only the scans that
-- still carry a check list, oldest first, so a pruning batch reads just the rows it changes.
ALTER TABLE "scans" ADD COLUMN "checks_pruned_at" TIMESTAMPTZ(3);
CREATE INDEX "scans_created_at_with_checks_idx" ON "scans" ("created_at") WHERE "checks" IS NOT NULL;
