-- A client's monthly quota of audit pages, beside its quota of audits: the pages its sites'
-- audits admit in a calendar month (UTC), counted in the month each audit started. Null (every
-- client's start): none of its own. `audit_quota` (audits started a month) stays as it was.
ALTER TABLE "clients" ADD COLUMN "audit_page_quota" INTEGER;
ALTER TABLE "clients" ADD CONSTRAINT "clients_audit_page_quota_check" CHECK ("audit_page_quota" IS NULL OR "audit_page_quota" >= 0);

-- Why an audit's crawl admitted no more of the pages it found: `max_pages` (its own page limit)
-- or `client_page_quota` (its client's audit pages this month); null while nothing was left out.
-- Past audits are left null: which pages they left out was not kept.
ALTER TABLE "audits" ADD COLUMN "crawl_limit" TEXT;
ALTER TABLE "audits" ADD CONSTRAINT "audits_crawl_limit_check" CHECK ("crawl_limit" IS NULL OR "crawl_limit" IN ('max_pages', 'client_page_quota'));
