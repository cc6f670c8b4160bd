-- The name and logo a workspace's client reports carry
CREATE TABLE "report_brandings" (
    "workspace_id" UUID NOT NULL,
    "agency_name" TEXT,
    "logo" BYTEA,
    "logo_type" TEXT,
    "logo_token" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_brandings_pkey" PRIMARY KEY ("workspace_id")
);

CREATE UNIQUE INDEX "report_brandings_logo_token_key" ON "report_brandings"("logo_token");

ALTER TABLE "report_brandings" ADD CONSTRAINT "report_brandings_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
