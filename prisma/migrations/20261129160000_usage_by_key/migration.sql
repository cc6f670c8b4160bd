-- The API key an audit was started with, as scans keep theirs (scans.api_key_id): usage is
-- counted per key. Null for an audit a session or a schedule started; kept when the key is
-- revoked, cleared only if the key row itself is deleted.
ALTER TABLE "audits" ADD COLUMN "api_key_id" UUID;
ALTER TABLE "audits" ADD CONSTRAINT "audits_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "audits_api_key_id_idx" ON "audits"("api_key_id");

-- Past audits named no key. Where the workspace's audit log holds an entry a key wrote in the
-- same request (an MCP audit of a URL records its site, as `site.created` by the key), that key
-- started the audit: same workspace, same request id, written within the minute before the audit.
UPDATE "audits" a SET "api_key_id" = e."actor_key_id"
FROM "audit_log_entries" e
JOIN "api_keys" k ON k."id" = e."actor_key_id"
WHERE a."api_key_id" IS NULL
  AND a."request_id" IS NOT NULL
  AND e."request_id" = a."request_id"
  AND e."workspace_id" = a."workspace_id"
  AND k."workspace_id" = a."workspace_id"
  AND e."actor_key_id" IS NOT NULL
  AND e."created_at" BETWEEN a."created_at" - interval '1 minute' AND a."created_at";
