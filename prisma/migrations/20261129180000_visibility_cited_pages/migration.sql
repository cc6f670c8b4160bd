-- The pages a completed visibility run's answers cited, joined to the scans that judged them
CREATE TABLE "visibility_cited_pages" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "scan_url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "competitor" TEXT,
    "citations" INTEGER NOT NULL,
    "scan_id" UUID,
    "reused" BOOLEAN NOT NULL DEFAULT false,
    "refused_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "visibility_cited_pages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "visibility_cited_pages_side_check" CHECK ("side" IN ('brand', 'competitor')),
    -- a page is scanned or refused, never both
    CONSTRAINT "visibility_cited_pages_scan_or_refusal_check" CHECK ("scan_id" IS NULL OR "refused_reason" IS NULL)
);

CREATE UNIQUE INDEX "visibility_cited_pages_run_id_url_key" ON "visibility_cited_pages"("run_id", "url");
CREATE INDEX "visibility_cited_pages_workspace_id_run_id_idx" ON "visibility_cited_pages"("workspace_id", "run_id");
CREATE INDEX "visibility_cited_pages_scan_id_idx" ON "visibility_cited_pages"("scan_id");
ALTER TABLE "visibility_cited_pages" ADD CONSTRAINT "visibility_cited_pages_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "visibility_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_cited_pages" ADD CONSTRAINT "visibility_cited_pages_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_cited_pages" ADD CONSTRAINT "visibility_cited_pages_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE SET NULL ON UPDATE CASCADE;
