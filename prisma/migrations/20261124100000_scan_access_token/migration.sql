-- An anonymous scan is read with the access link its maker was given: the SHA-256 of the
-- link's token is stored, never the token. Scans made with a key have none (their owner reads them).
ALTER TABLE "scans" ADD COLUMN "access_token_hash" TEXT;
