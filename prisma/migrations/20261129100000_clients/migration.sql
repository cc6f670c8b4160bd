-- Clients inside a workspace: a named group of sites, and API keys limited to one client or to
-- reading. Additive: no row changes; every site starts with no client, every key unscoped and
-- read-write, as they were.
CREATE TABLE "clients" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "notes" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "clients_workspace_id_name_key" ON "clients"("workspace_id", "name");
CREATE UNIQUE INDEX "clients_id_workspace_id_key" ON "clients"("id", "workspace_id");
CREATE INDEX "clients_workspace_id_created_at_id_idx" ON "clients"("workspace_id", "created_at", "id");
ALTER TABLE "clients" ADD CONSTRAINT "clients_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "sites" ADD COLUMN "client_id" UUID;
CREATE INDEX "sites_workspace_id_client_id_created_at_id_idx" ON "sites"("workspace_id", "client_id", "created_at", "id");
CREATE INDEX "sites_client_id_idx" ON "sites"("client_id");
ALTER TABLE "sites" ADD CONSTRAINT "sites_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "api_keys" ADD COLUMN "client_id" UUID, ADD COLUMN "read_only" BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX "api_keys_client_id_idx" ON "api_keys"("client_id");
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A live key never loses its client: it would open the whole workspace. Deleting a client with a
-- live key fails here (the foreign key's SET NULL fires this); revoked keys let go of it.
CREATE FUNCTION "api_keys_keep_client"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."client_id" IS NOT NULL AND NEW."client_id" IS DISTINCT FROM OLD."client_id" AND NEW."revoked_at" IS NULL THEN
        RAISE EXCEPTION 'a live API key keeps its client' USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER "api_keys_keep_client" BEFORE UPDATE OF "client_id" ON "api_keys"
    FOR EACH ROW EXECUTE FUNCTION "api_keys_keep_client"();

-- A site's and a key's client is their workspace's: checked by the database whoever writes the row.
CREATE FUNCTION "client_of_same_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."client_id" IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM "clients" c WHERE c."id" = NEW."client_id" AND c."workspace_id" = NEW."workspace_id"
    ) THEN
        RAISE EXCEPTION 'client % is not of workspace %', NEW."client_id", NEW."workspace_id"
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER "sites_client_of_same_workspace" BEFORE INSERT OR UPDATE OF "client_id", "workspace_id" ON "sites"
    FOR EACH ROW EXECUTE FUNCTION "client_of_same_workspace"();
CREATE TRIGGER "api_keys_client_of_same_workspace" BEFORE INSERT OR UPDATE OF "client_id", "workspace_id" ON "api_keys"
    FOR EACH ROW EXECUTE FUNCTION "client_of_same_workspace"();
