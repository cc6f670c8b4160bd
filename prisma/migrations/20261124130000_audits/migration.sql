-- CreateEnum
CREATE TYPE "AuditStatus" AS ENUM ('discovering', 'running', 'finalizing', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "AuditPageStatus" AS ENUM ('queued', 'running', 'scanned', 'failed', 'blocked', 'cancelled');

-- CreateEnum
CREATE TYPE "AuditFrequency" AS ENUM ('daily', 'weekly');

-- AlterTable
ALTER TABLE "sites" ADD COLUMN "latest_audit_id" UUID;

-- CreateTable
CREATE TABLE "audit_schedules" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "frequency" "AuditFrequency" NOT NULL,
    "mode" "ScanMode" NOT NULL,
    "max_pages" INTEGER NOT NULL,
    "include" JSONB NOT NULL,
    "exclude" JSONB NOT NULL,
    "alert_url" TEXT,
    "alert_drop" INTEGER NOT NULL DEFAULT 5,
    "last_audit_id" UUID,
    "last_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audits" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "start_url" TEXT NOT NULL,
    "mode" "ScanMode" NOT NULL,
    "status" "AuditStatus" NOT NULL DEFAULT 'discovering',
    "max_pages" INTEGER NOT NULL,
    "include" JSONB NOT NULL,
    "exclude" JSONB NOT NULL,
    "discovered" INTEGER NOT NULL DEFAULT 0,
    "discovery" JSONB,
    "report" JSONB,
    "seo" INTEGER,
    "aeo" INTEGER,
    "geo" INTEGER,
    "overall" INTEGER,
    "grade" TEXT,
    "issues_critical" INTEGER NOT NULL DEFAULT 0,
    "issues_warning" INTEGER NOT NULL DEFAULT 0,
    "issues_info" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "request_id" TEXT,
    "requeues" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_pages" (
    "id" UUID NOT NULL,
    "audit_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "depth" INTEGER NOT NULL,
    "in_sitemap" BOOLEAN NOT NULL DEFAULT false,
    "status" "AuditPageStatus" NOT NULL DEFAULT 'queued',
    "http_status" INTEGER,
    "final_url" TEXT,
    "seo" INTEGER,
    "aeo" INTEGER,
    "geo" INTEGER,
    "overall" INTEGER,
    "grade" TEXT,
    "issues_critical" INTEGER NOT NULL DEFAULT 0,
    "issues_warning" INTEGER NOT NULL DEFAULT 0,
    "issues_info" INTEGER NOT NULL DEFAULT 0,
    "checks" JSONB,
    "facts" JSONB,
    "error_message" TEXT,
    "requeues" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_pages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audits_site_id_created_at_idx" ON "audits"("site_id", "created_at");

-- CreateIndex
CREATE INDEX "audits_user_id_status_idx" ON "audits"("user_id", "status");

-- CreateIndex
CREATE INDEX "audits_status_updated_at_idx" ON "audits"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "audit_pages_audit_id_url_key" ON "audit_pages"("audit_id", "url");

-- CreateIndex
CREATE INDEX "audit_pages_audit_id_status_idx" ON "audit_pages"("audit_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "audit_pages_audit_id_position_key" ON "audit_pages"("audit_id", "position");

-- CreateIndex
CREATE INDEX "audit_pages_status_updated_at_idx" ON "audit_pages"("status", "updated_at");

-- AddForeignKey
ALTER TABLE "audits" ADD CONSTRAINT "audits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audits" ADD CONSTRAINT "audits_site_id_user_id_fkey" FOREIGN KEY ("site_id", "user_id") REFERENCES "sites"("id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_pages" ADD CONSTRAINT "audit_pages_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE UNIQUE INDEX "audit_schedules_site_id_key" ON "audit_schedules"("site_id");

-- CreateIndex
CREATE INDEX "audit_schedules_user_id_idx" ON "audit_schedules"("user_id");

-- AddForeignKey
ALTER TABLE "audit_schedules" ADD CONSTRAINT "audit_schedules_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_schedules" ADD CONSTRAINT "audit_schedules_site_id_user_id_fkey" FOREIGN KEY ("site_id", "user_id") REFERENCES "sites"("id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateEnum
CREATE TYPE "AlertState" AS ENUM ('pending', 'delivered', 'failed');

-- CreateTable
CREATE TABLE "audit_alerts" (
    "id" UUID NOT NULL,
    "audit_id" UUID NOT NULL,
    "previous_audit_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "state" "AlertState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "audit_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_alerts_audit_id_key" ON "audit_alerts"("audit_id");

-- CreateIndex
CREATE INDEX "audit_alerts_site_id_created_at_idx" ON "audit_alerts"("site_id", "created_at");
