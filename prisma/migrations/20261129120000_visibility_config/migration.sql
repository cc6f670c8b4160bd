-- What a site's AI visibility is tracked with: its profile (brand names and domains, samples per
-- prompt, engines), its prompts and competitors, and each workspace's keys for the engines' APIs.
-- Workspace-owned as every other record: a profile, prompt or competitor references a site of its
-- own workspace ((site_id, workspace_id)), and a writer that names only the site (or, for a key,
-- only the user) lands in the right workspace through the triggers the workspaces migration made.

CREATE TABLE "visibility_profiles" (
    "site_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "brand_names" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "brand_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "samples_per_prompt" INTEGER NOT NULL DEFAULT 3,
    "engines" "AiEngine"[] NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "visibility_profiles_pkey" PRIMARY KEY ("site_id"),
    -- the API refuses these first, with its own words; the database keeps them true for any writer
    CONSTRAINT "visibility_profiles_samples_check" CHECK ("samples_per_prompt" BETWEEN 1 AND 10)
);
CREATE UNIQUE INDEX "visibility_profiles_site_id_workspace_id_key" ON "visibility_profiles"("site_id", "workspace_id");
CREATE INDEX "visibility_profiles_workspace_id_idx" ON "visibility_profiles"("workspace_id");
CREATE INDEX "visibility_profiles_user_id_idx" ON "visibility_profiles"("user_id");

CREATE TABLE "visibility_prompts" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "text_key" TEXT NOT NULL,
    "topic" TEXT,
    "tags" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "locale" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "visibility_prompts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "visibility_prompts_text_check" CHECK (char_length("text") BETWEEN 1 AND 500)
);
CREATE UNIQUE INDEX "visibility_prompts_site_id_text_key_key" ON "visibility_prompts"("site_id", "text_key");
CREATE INDEX "visibility_prompts_workspace_id_site_id_created_at_id_idx" ON "visibility_prompts"("workspace_id", "site_id", "created_at", "id");
CREATE INDEX "visibility_prompts_user_id_idx" ON "visibility_prompts"("user_id");

CREATE TABLE "competitors" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "aliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "competitors_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "competitors_site_id_name_key_key" ON "competitors"("site_id", "name_key");
CREATE INDEX "competitors_workspace_id_site_id_created_at_id_idx" ON "competitors"("workspace_id", "site_id", "created_at", "id");
CREATE INDEX "competitors_user_id_idx" ON "competitors"("user_id");

CREATE TABLE "engine_keys" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "engine" "AiEngine" NOT NULL,
    "key_sealed" TEXT NOT NULL,
    "key_last4" TEXT NOT NULL,
    "model" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "engine_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "engine_keys_workspace_id_engine_key" ON "engine_keys"("workspace_id", "engine");
CREATE INDEX "engine_keys_user_id_idx" ON "engine_keys"("user_id");

CREATE TRIGGER "visibility_profiles_workspace" BEFORE INSERT ON "visibility_profiles" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "visibility_prompts_workspace" BEFORE INSERT ON "visibility_prompts" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "competitors_workspace" BEFORE INSERT ON "competitors" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "engine_keys_workspace" BEFORE INSERT ON "engine_keys" FOR EACH ROW EXECUTE FUNCTION "owner_workspace"();

ALTER TABLE "visibility_profiles" ADD CONSTRAINT "visibility_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_profiles" ADD CONSTRAINT "visibility_profiles_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_profiles" ADD CONSTRAINT "visibility_profiles_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_prompts" ADD CONSTRAINT "visibility_prompts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_prompts" ADD CONSTRAINT "visibility_prompts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "visibility_prompts" ADD CONSTRAINT "visibility_prompts_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "engine_keys" ADD CONSTRAINT "engine_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "engine_keys" ADD CONSTRAINT "engine_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
