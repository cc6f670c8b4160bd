export {
  auditPrintJob,
  completedAuditIssues,
  emptyProgress,
  type PrintData,
  previousCompletedAudit,
  progressesOfRows,
  progressOfRows,
  scoresOf,
  toAuditView,
} from "./audit-print";
export { brandingViewOf, LOGO_PATH, type Logo, logoOf, readReportBranding } from "./branding";
export {
  createReportRenderer,
  PRINT_DATA_PATH,
  type PrintJob,
  type RendererOptions,
  type ReportRenderer,
} from "./report-renderer";
