-- Workspaces own what users owned: each user gets a personal workspace holding their plan, and
-- every key, scan, site, keyword, citation track, audit, schedule and alert of theirs moves to it.
-- Additive: no row is deleted or changed but for its new workspace_id; user_id stays, as the
-- member who made the row. The list indexes move from user_id to workspace_id.
CREATE TYPE "WorkspaceRole" AS ENUM ('owner', 'admin', 'member', 'viewer');

CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "plan" "Plan" NOT NULL DEFAULT 'free',
    "personal_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "workspaces_personal_user_id_key" ON "workspaces"("personal_user_id");
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_personal_user_id_fkey" FOREIGN KEY ("personal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "memberships" (
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("workspace_id", "user_id")
);
CREATE INDEX "memberships_user_id_created_at_idx" ON "memberships"("user_id", "created_at");
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "workspace_invitations" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "invited_by_id" UUID,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "workspace_invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "workspace_invitations_token_hash_key" ON "workspace_invitations"("token_hash");
CREATE INDEX "workspace_invitations_workspace_id_created_at_id_idx" ON "workspace_invitations"("workspace_id", "created_at", "id");
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every user has a personal workspace, made with the user whoever inserts the row (sign-up, the
-- accounts CLI), which the user owns and whose plan starts as the user's.
CREATE FUNCTION "users_personal_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    made UUID := gen_random_uuid();
BEGIN
    INSERT INTO "workspaces" ("id", "name", "plan", "personal_user_id", "created_at", "updated_at")
    VALUES (made, NEW."email", NEW."plan", NEW."id", NEW."created_at", NEW."created_at");
    INSERT INTO "memberships" ("workspace_id", "user_id", "role", "created_at")
    VALUES (made, NEW."id", 'owner', NEW."created_at");
    RETURN NEW;
END $$;
CREATE TRIGGER "users_personal_workspace" AFTER INSERT ON "users"
    FOR EACH ROW EXECUTE FUNCTION "users_personal_workspace"();

-- The plan counts on the workspace. The operator's tools (the accounts CLI, plain SQL) set a user's
-- plan, which becomes their personal workspace's.
CREATE FUNCTION "users_personal_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "workspaces" SET "plan" = NEW."plan", "updated_at" = now()
    WHERE "personal_user_id" = NEW."id" AND "plan" IS DISTINCT FROM NEW."plan";
    RETURN NULL;
END $$;
CREATE TRIGGER "users_personal_plan" AFTER UPDATE OF "plan" ON "users"
    FOR EACH ROW EXECUTE FUNCTION "users_personal_plan"();

-- a workspace's plan is its keys' limits: gateways caching its keys hear of a change
-- (access/credential-changes.ts), as they hear of a key's
CREATE FUNCTION "notify_workspace_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('credential_changes', json_build_object('workspace_id', OLD."id")::text);
    RETURN NULL;
END $$;
CREATE TRIGGER "workspaces_credential_change" AFTER UPDATE OF "plan" OR DELETE ON "workspaces"
    FOR EACH ROW EXECUTE FUNCTION "notify_workspace_change"();

-- the existing users' personal workspaces, named and dated as the trigger names and dates them
INSERT INTO "workspaces" ("id", "name", "plan", "personal_user_id", "created_at", "updated_at")
SELECT gen_random_uuid(), u."email", u."plan", u."id", u."created_at", u."created_at" FROM "users" u;
INSERT INTO "memberships" ("workspace_id", "user_id", "role", "created_at")
SELECT w."id", w."personal_user_id", 'owner', w."created_at" FROM "workspaces" w;

-- a dashboard session acts in one workspace; null: the user's personal one
ALTER TABLE "sessions" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ownership moves: each row to its user's personal workspace
ALTER TABLE "api_keys" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "scans" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "sites" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "keywords" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "citation_tracks" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "audits" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "audit_schedules" ADD COLUMN "workspace_id" UUID;
ALTER TABLE "audit_alerts" ADD COLUMN "workspace_id" UUID;

-- (no updated_at moves: the triggers below do not exist yet, and Prisma's @updatedAt is the client's)
UPDATE "api_keys" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "scans" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "sites" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "keywords" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "citation_tracks" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "audits" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "audit_schedules" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";
UPDATE "audit_alerts" t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_user_id" = t."user_id";

ALTER TABLE "api_keys" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "sites" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "keywords" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "citation_tracks" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "audits" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "audit_schedules" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "audit_alerts" ALTER COLUMN "workspace_id" SET NOT NULL;

-- A writer that names only the user (a gateway or worker of the release before this one, while a
-- deployment rolls) writes into the row's site's workspace, else the user's personal one.
CREATE FUNCTION "owner_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."workspace_id" IS NULL AND NEW."user_id" IS NOT NULL THEN
        SELECT w."id" INTO NEW."workspace_id" FROM "workspaces" w WHERE w."personal_user_id" = NEW."user_id";
    END IF;
    RETURN NEW;
END $$;
CREATE FUNCTION "site_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."workspace_id" IS NULL THEN
        SELECT s."workspace_id" INTO NEW."workspace_id" FROM "sites" s WHERE s."id" = NEW."site_id";
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER "api_keys_workspace" BEFORE INSERT ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "owner_workspace"();
CREATE TRIGGER "scans_workspace" BEFORE INSERT ON "scans" FOR EACH ROW EXECUTE FUNCTION "owner_workspace"();
CREATE TRIGGER "sites_workspace" BEFORE INSERT ON "sites" FOR EACH ROW EXECUTE FUNCTION "owner_workspace"();
CREATE TRIGGER "keywords_workspace" BEFORE INSERT ON "keywords" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "citation_tracks_workspace" BEFORE INSERT ON "citation_tracks" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "audits_workspace" BEFORE INSERT ON "audits" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "audit_schedules_workspace" BEFORE INSERT ON "audit_schedules" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();
CREATE TRIGGER "audit_alerts_workspace" BEFORE INSERT ON "audit_alerts" FOR EACH ROW EXECUTE FUNCTION "site_workspace"();

-- a record's site is its workspace's: the composite keys move from (id, user_id) to (id, workspace_id)
CREATE UNIQUE INDEX "sites_id_workspace_id_key" ON "sites"("id", "workspace_id");
CREATE UNIQUE INDEX "sites_workspace_id_url_key" ON "sites"("workspace_id", "url");
ALTER TABLE "keywords" DROP CONSTRAINT "keywords_site_id_user_id_fkey";
ALTER TABLE "citation_tracks" DROP CONSTRAINT "citation_tracks_site_id_user_id_fkey";
ALTER TABLE "audits" DROP CONSTRAINT "audits_site_id_user_id_fkey";
ALTER TABLE "audit_schedules" DROP CONSTRAINT "audit_schedules_site_id_user_id_fkey";
ALTER TABLE "keywords" ADD CONSTRAINT "keywords_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "citation_tracks" ADD CONSTRAINT "citation_tracks_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audits" ADD CONSTRAINT "audits_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_schedules" ADD CONSTRAINT "audit_schedules_site_id_workspace_id_fkey" FOREIGN KEY ("site_id", "workspace_id") REFERENCES "sites"("id", "workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
DROP INDEX "sites_id_user_id_key";
DROP INDEX "sites_user_id_url_key";

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "scans" ADD CONSTRAINT "scans_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sites" ADD CONSTRAINT "sites_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "keywords" ADD CONSTRAINT "keywords_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "citation_tracks" ADD CONSTRAINT "citation_tracks_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audits" ADD CONSTRAINT "audits_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_schedules" ADD CONSTRAINT "audit_schedules_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- the lists' indexes, by workspace; user_id keeps a plain index for its foreign key
CREATE INDEX "api_keys_workspace_id_created_at_idx" ON "api_keys"("workspace_id", "created_at");
CREATE INDEX "api_keys_user_id_idx" ON "api_keys"("user_id");
DROP INDEX "api_keys_user_id_created_at_idx";
CREATE INDEX "scans_workspace_id_created_at_id_idx" ON "scans"("workspace_id", "created_at", "id");
CREATE INDEX "scans_workspace_id_status_created_at_id_idx" ON "scans"("workspace_id", "status", "created_at", "id");
CREATE INDEX "scans_user_id_idx" ON "scans"("user_id");
DROP INDEX "scans_user_id_created_at_idx";
DROP INDEX "scans_user_id_created_at_id_idx";
DROP INDEX "scans_user_id_status_created_at_id_idx";
CREATE INDEX "sites_workspace_id_created_at_id_idx" ON "sites"("workspace_id", "created_at", "id");
CREATE INDEX "sites_user_id_idx" ON "sites"("user_id");
DROP INDEX "sites_user_id_created_at_id_idx";
CREATE INDEX "keywords_workspace_id_created_at_id_idx" ON "keywords"("workspace_id", "created_at", "id");
CREATE INDEX "keywords_workspace_id_site_id_created_at_id_idx" ON "keywords"("workspace_id", "site_id", "created_at", "id");
CREATE INDEX "keywords_user_id_idx" ON "keywords"("user_id");
DROP INDEX "keywords_user_id_created_at_id_idx";
DROP INDEX "keywords_user_id_site_id_created_at_id_idx";
CREATE INDEX "citation_tracks_workspace_id_checked_at_id_idx" ON "citation_tracks"("workspace_id", "checked_at", "id");
CREATE INDEX "citation_tracks_workspace_id_platform_checked_at_id_idx" ON "citation_tracks"("workspace_id", "platform", "checked_at", "id");
CREATE INDEX "citation_tracks_workspace_id_site_id_checked_at_id_idx" ON "citation_tracks"("workspace_id", "site_id", "checked_at", "id");
CREATE INDEX "citation_tracks_workspace_id_site_id_platform_checked_at_id_idx" ON "citation_tracks"("workspace_id", "site_id", "platform", "checked_at", "id");
CREATE INDEX "citation_tracks_user_id_idx" ON "citation_tracks"("user_id");
DROP INDEX "citation_tracks_user_id_checked_at_id_idx";
DROP INDEX "citation_tracks_user_id_platform_checked_at_id_idx";
DROP INDEX "citation_tracks_user_id_site_id_checked_at_id_idx";
DROP INDEX "citation_tracks_user_id_site_id_platform_checked_at_id_idx";
CREATE INDEX "audits_workspace_id_status_idx" ON "audits"("workspace_id", "status");
CREATE INDEX "audits_user_id_idx" ON "audits"("user_id");
DROP INDEX "audits_user_id_status_idx";
CREATE INDEX "audit_schedules_workspace_id_idx" ON "audit_schedules"("workspace_id");
