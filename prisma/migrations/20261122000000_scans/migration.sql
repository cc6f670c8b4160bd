-- CreateEnum
CREATE TYPE "ScanMode" AS ENUM ('quick', 'full');

-- CreateEnum
CREATE TYPE "ScanStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- CreateTable
CREATE TABLE "scans" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "final_url" TEXT,
    "mode" "ScanMode" NOT NULL,
    "status" "ScanStatus" NOT NULL DEFAULT 'queued',
    "seo" INTEGER,
    "aeo" INTEGER,
    "geo" INTEGER,
    "overall" INTEGER,
    "grade" TEXT,
    "issues_critical" INTEGER NOT NULL DEFAULT 0,
    "issues_warning" INTEGER NOT NULL DEFAULT 0,
    "issues_info" INTEGER NOT NULL DEFAULT 0,
    "checks" JSONB,
    "duration_ms" INTEGER,
    "error_code" TEXT,
    "error_message" TEXT,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "scans_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scans_status_updated_at_idx" ON "scans"("status", "updated_at");

-- CreateIndex
CREATE INDEX "scans_created_at_idx" ON "scans"("created_at");
