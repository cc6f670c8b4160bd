-- Alerts on a visibility run whose rates changed against the previous completed run
CREATE TABLE "visibility_alerts" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "previous_run_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "channel" "AlertChannel" NOT NULL DEFAULT 'webhook',
    "url" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "state" "AlertState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "visibility_alerts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "visibility_alerts_run_id_channel_key" ON "visibility_alerts"("run_id", "channel");
CREATE INDEX "visibility_alerts_site_id_created_at_idx" ON "visibility_alerts"("site_id", "created_at");
ALTER TABLE "visibility_alerts" ADD CONSTRAINT "visibility_alerts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "visibility_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
