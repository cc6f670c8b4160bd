/** The scans feature's surface: what the composition root and other features use of it. */
export { type Admission, createAdmission } from "./admission";
export { countedScans, quotaMonth, scansThisMonth } from "./monthly-quota";
export { createPageTools, evidenceNote, type PageTools, type ToolAnswer, type ToolContext } from "./page-tools";
export { type ProgressDeps, progressRoutes } from "./progress.route";
export { scanRoutes } from "./scan.route";
export { terminalScansAmong } from "./scan-reader";
export { exportFormatFor, sendPdf } from "./scan-representation";
export { createScanService, type ScanService } from "./scan-service";
export { ScanWaiter } from "./scan-waiter";
export { scanListRoutes } from "./scans.route";
