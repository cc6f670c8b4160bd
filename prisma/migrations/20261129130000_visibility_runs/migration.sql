-- Visibility runs: each run asks every prompt of a site of every engine, samples times, and stores
-- each answer once (unique per run, prompt, engine and sample index). A completed sample also
-- writes the spec's citation track, which names the sample it came from (sample_id).

CREATE TYPE "VisibilityRunStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');
CREATE TYPE "VisibilitySampleStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

CREATE TABLE "visibility_runs" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "status" "VisibilityRunStatus" NOT NULL DEFAULT 'queued',
    "engines" "AiEngine"[] NOT NULL,
    "samples_per_prompt" INTEGER NOT NULL,
    "planned" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "visibility_runs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "visibility_runs_counts_check" CHECK ("planned" >= 0 AND "done" >= 0 AND "failed" >= 0 AND "done" + "failed" <= "planned")
);
CREATE INDEX "visibility_runs_workspace_id_site_id_created_at_id_idx" ON "visibility_runs"("workspace_id", "site_id", "created_at", "id");
CREATE INDEX "visibility_runs_status_updated_at_idx" ON "visibility_runs"("status", "updated_at");
CREATE INDEX "visibility_runs_user_id_idx" ON "visibility_runs"("user_id");
-- one run under way per site
CREATE UNIQUE INDEX "visibility_runs_one_under_way" ON "visibility_runs"("site_id") WHERE "status" IN ('queued', 'running');

CREATE TABLE "visibility_samples" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "prompt_text" TEXT NOT NULL,
    "prompt_locale" TEXT,
    "engine" "AiEngine" NOT NULL,
    "sample_index" INTEGER NOT NULL,
    "status" "VisibilitySampleStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "answer_text" TEXT,
    "model" TEXT,
    "citations" JSONB,
    "search_queries" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "mentions" JSONB,
    "brand_mentioned" BOOLEAN,
    "brand_cited" BOOLEAN,
    "cited_page" TEXT,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "reserved_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_kind" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "visibility_samples_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "visibility_samples_index_check" CHECK ("sample_index" >= 0)
);
CREATE UNIQUE INDEX "visibility_samples_run_id_prompt_id_engine_sample_index_key" ON "visibility_samples"("run_id", "prompt_id", "engine", "sample_index");
CREATE INDEX "visibility_samples_run_id_status_idx" ON "visibility_samples"("run_id", "status");

ALTER TABLE "visibility_runs" ADD CONSTRAINT "visibility_runs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_runs" ADD CONSTRAINT "visibility_runs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_runs" ADD CONSTRAINT "visibility_runs_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_samples" ADD CONSTRAINT "visibility_samples_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "visibility_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "citation_tracks" ADD COLUMN "sample_id" UUID;
CREATE UNIQUE INDEX "citation_tracks_sample_id_key" ON "citation_tracks"("sample_id");
ALTER TABLE "citation_tracks" ADD CONSTRAINT "citation_tracks_sample_id_fkey" FOREIGN KEY ("sample_id") REFERENCES "visibility_samples"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TRIGGER "visibility_runs_workspace" BEFORE INSERT ON "visibility_runs" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
