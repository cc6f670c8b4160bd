-- CreateIndex
CREATE INDEX "scans_user_id_created_at_id_idx" ON "scans"("user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "scans_user_id_status_created_at_id_idx" ON "scans"("user_id", "status", "created_at", "id");
