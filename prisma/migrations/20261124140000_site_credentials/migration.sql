-- A site behind a login: the headers, cookies and HTTP Basic credentials its scans send to its
-- own origin, sealed with AES-256-GCM under SITE_SECRETS_KEY (never stored in the clear).
ALTER TABLE "sites" ADD COLUMN "credentials_sealed" TEXT;
ALTER TABLE "sites" ADD COLUMN "credentials_updated_at" TIMESTAMPTZ(3);
