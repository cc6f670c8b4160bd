-- Regression alerts reach people: a schedule may mail addresses and post to a Slack incoming
-- webhook beside its signed webhook, and an audit stores one alert per channel.
CREATE TYPE "AlertChannel" AS ENUM ('webhook', 'email', 'slack');

ALTER TABLE "audit_schedules" ADD COLUMN "alert_emails" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "audit_schedules" ADD COLUMN "alert_slack_url" TEXT;

-- existing alerts were all signed webhooks
ALTER TABLE "audit_alerts" ADD COLUMN "channel" "AlertChannel" NOT NULL DEFAULT 'webhook';
CREATE UNIQUE INDEX "audit_alerts_audit_id_channel_key" ON "audit_alerts"("audit_id", "channel");
DROP INDEX "audit_alerts_audit_id_key";
