-- CreateEnum
CREATE TYPE "AiEngine" AS ENUM ('chatgpt', 'claude', 'perplexity', 'gemini');

-- CreateEnum
CREATE TYPE "KeywordTrend" AS ENUM ('up', 'down', 'flat', 'new');

-- CreateTable
CREATE TABLE "sites" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "latest_seo" INTEGER,
    "latest_aeo" INTEGER,
    "latest_geo" INTEGER,
    "latest_mode" "ScanMode",
    "latest_scores_at" TIMESTAMPTZ(3),
    "latest_scan_id" UUID,
    "last_scan_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "keywords" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "keyword" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "previous_position" INTEGER,
    "volume" INTEGER NOT NULL,
    "difficulty" INTEGER NOT NULL,
    "trend" "KeywordTrend" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "keywords_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "citation_tracks" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "platform" "AiEngine" NOT NULL,
    "query_text" TEXT NOT NULL,
    "cited" BOOLEAN NOT NULL,
    "citation_url" TEXT,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "citation_tracks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sites_user_id_created_at_id_idx" ON "sites"("user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sites_latest_scan_id_idx" ON "sites"("latest_scan_id");

-- CreateIndex
CREATE UNIQUE INDEX "sites_user_id_url_key" ON "sites"("user_id", "url");

-- CreateIndex
CREATE UNIQUE INDEX "sites_id_user_id_key" ON "sites"("id", "user_id");

-- CreateIndex
CREATE INDEX "keywords_user_id_created_at_id_idx" ON "keywords"("user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "keywords_user_id_site_id_created_at_id_idx" ON "keywords"("user_id", "site_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "keywords_site_id_keyword_key" ON "keywords"("site_id", "keyword");

-- CreateIndex
CREATE INDEX "citation_tracks_user_id_checked_at_id_idx" ON "citation_tracks"("user_id", "checked_at", "id");

-- CreateIndex
CREATE INDEX "citation_tracks_user_id_platform_checked_at_id_idx" ON "citation_tracks"("user_id", "platform", "checked_at", "id");

-- CreateIndex
CREATE INDEX "citation_tracks_user_id_site_id_checked_at_id_idx" ON "citation_tracks"("user_id", "site_id", "checked_at", "id");

-- CreateIndex
CREATE INDEX "citation_tracks_user_id_site_id_platform_checked_at_id_idx" ON "citation_tracks"("user_id", "site_id", "platform", "checked_at", "id");

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_latest_scan_id_fkey" FOREIGN KEY ("latest_scan_id") REFERENCES "scans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "keywords" ADD CONSTRAINT "keywords_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "keywords" ADD CONSTRAINT "keywords_site_id_user_id_fkey" FOREIGN KEY ("site_id", "user_id") REFERENCES "sites"("id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "citation_tracks" ADD CONSTRAINT "citation_tracks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "citation_tracks" ADD CONSTRAINT "citation_tracks_site_id_user_id_fkey" FOREIGN KEY ("site_id", "user_id") REFERENCES "sites"("id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;
