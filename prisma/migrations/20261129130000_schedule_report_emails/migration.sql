-- A schedule may mail the client report (the audit's PDF) to its own list of addresses.
ALTER TABLE "audit_schedules" ADD COLUMN "report_emails" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
