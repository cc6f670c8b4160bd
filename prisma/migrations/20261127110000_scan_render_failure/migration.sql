-- Why a render that was attempted failed (the page was then judged on its HTML as served):
-- a code of @scan/contract's RenderFailureCode, shown by the API, the reports and the dashboard.
ALTER TABLE "scans" ADD COLUMN "render_failure" TEXT;
