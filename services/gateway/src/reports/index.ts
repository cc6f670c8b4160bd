export { type BrandingService, createBrandingService, LOGO_PATH, type Logo } from "./branding-service";
export { createReportService, type PrintData, type ReportService } from "./report-service";
export { brandingRoutes, logoRoutes } from "./reports.route";
