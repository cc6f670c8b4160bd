-- Per-client monthly quotas, and each scan and audit counted for one client. Additive: every
-- client starts with no quota (unlimited within the workspace's plan); past scans and audits are
-- given the client they would have been counted for.
ALTER TABLE "clients" ADD COLUMN "scan_quota" INTEGER, ADD COLUMN "audit_quota" INTEGER;
ALTER TABLE "clients" ADD CONSTRAINT "clients_scan_quota_check" CHECK ("scan_quota" IS NULL OR "scan_quota" >= 0);
ALTER TABLE "clients" ADD CONSTRAINT "clients_audit_quota_check" CHECK ("audit_quota" IS NULL OR "audit_quota" >= 0);

-- The client a scan counts for, fixed when it is stored: a later reassignment of its site does
-- not move past usage (what was billed stays billed).
ALTER TABLE "scans" ADD COLUMN "client_id" UUID;
ALTER TABLE "scans" ADD CONSTRAINT "scans_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "scans_client_id_created_at_idx" ON "scans"("client_id", "created_at");

ALTER TABLE "audits" ADD COLUMN "client_id" UUID;
ALTER TABLE "audits" ADD CONSTRAINT "audits_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "audits_client_id_created_at_idx" ON "audits"("client_id", "created_at");

-- An audit counts for its site's client at the moment it is made, whoever makes it (the API, a
-- schedule's firing in the worker).
CREATE FUNCTION "audits_client_of_site"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."client_id" := (SELECT s."client_id" FROM "sites" s WHERE s."id" = NEW."site_id");
    RETURN NEW;
END $$;
CREATE TRIGGER "audits_client_of_site" BEFORE INSERT ON "audits"
    FOR EACH ROW EXECUTE FUNCTION "audits_client_of_site"();
-- runs after scans_workspace (triggers of one event fire in name order): the workspace is filled first
CREATE TRIGGER "scans_zz_client_of_same_workspace" BEFORE INSERT OR UPDATE OF "client_id", "workspace_id" ON "scans"
    FOR EACH ROW EXECUTE FUNCTION "client_of_same_workspace"();

UPDATE "audits" a SET "client_id" = s."client_id" FROM "sites" s WHERE s."id" = a."site_id" AND s."client_id" IS NOT NULL;
-- a scan made with a client's key is that client's; any other of a client's site's origin is the site's client's
UPDATE "scans" sc SET "client_id" = k."client_id" FROM "api_keys" k WHERE k."id" = sc."api_key_id" AND k."client_id" IS NOT NULL;
UPDATE "scans" sc SET "client_id" = s."client_id" FROM "sites" s
    WHERE sc."client_id" IS NULL AND s."client_id" IS NOT NULL AND s."workspace_id" = sc."workspace_id"
      AND s."url" = lower(substring(sc."url" from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+'));
