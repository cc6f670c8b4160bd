-- Gateways cache API keys in memory; every change that can make a cached key wrong (revoked,
-- deleted, re-owned, another default form, the owner's plan changed or the owner deleted)
-- is announced on the credential_changes channel, whoever makes it: the API, the accounts
-- command or plain SQL. NOTIFY is delivered when the writing transaction commits.
CREATE FUNCTION "notify_credential_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('credential_changes', json_build_object('key_id', OLD."id")::text);
  ELSE
    PERFORM pg_notify('credential_changes', json_build_object('user_id', OLD."id")::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "api_keys_credential_change"
  AFTER UPDATE OF "revoked_at", "default_form", "user_id", "hash" OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "notify_credential_change"();

CREATE TRIGGER "users_credential_change"
  AFTER UPDATE OF "plan" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_credential_change"();
