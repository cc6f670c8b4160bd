-- The workspace's audit log: who changed what, when, from where. Append-only: the database
-- refuses every UPDATE, and every DELETE but the retention's (which sets scan.audit_log_prune
-- for its transaction) and those cascading from the workspace's own deletion.
CREATE TABLE "audit_log_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actor_user_id" UUID,
    "actor_email" TEXT,
    "actor_key_id" UUID,
    "actor_key_prefix" TEXT,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "request_id" TEXT,
    "ip" TEXT,
    "changes" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "audit_log_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_log_entries_one_actor" CHECK (("actor_user_id" IS NULL) <> ("actor_key_id" IS NULL))
);
-- the log newest first, whole or by action or by actor (user or key)
CREATE INDEX "audit_log_entries_workspace_id_created_at_id_idx" ON "audit_log_entries"("workspace_id", "created_at", "id");
CREATE INDEX "audit_log_entries_workspace_id_action_created_at_id_idx" ON "audit_log_entries"("workspace_id", "action", "created_at", "id");
CREATE INDEX "audit_log_entries_workspace_id_actor_user_id_created_at_id_idx" ON "audit_log_entries"("workspace_id", "actor_user_id", "created_at", "id");
CREATE INDEX "audit_log_entries_workspace_id_actor_key_id_created_at_id_idx" ON "audit_log_entries"("workspace_id", "actor_key_id", "created_at", "id");
-- retention's oldest first
CREATE INDEX "audit_log_entries_created_at_idx" ON "audit_log_entries"("created_at");
-- no foreign key to users or keys: an entry outlives the member and the key it names
ALTER TABLE "audit_log_entries" ADD CONSTRAINT "audit_log_entries_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "audit_log_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- a delete cascading from the workspace's deletion runs inside the foreign key's trigger
    IF TG_OP = 'DELETE' AND (pg_trigger_depth() > 1 OR current_setting('scan.audit_log_prune', true) = 'on') THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit log entries are not changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER "audit_log_entries_append_only" BEFORE UPDATE OR DELETE ON "audit_log_entries"
    FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_append_only"();
