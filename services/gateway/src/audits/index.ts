/** The audits feature's surface: what the composition root and other features use of it. */
export { type AlertService, createAlertService } from "./alert-service";
export { alertRoutes } from "./alerts.route";
export { type AuditService, auditNotFound, createAuditService } from "./audit-service";
export { auditRoutes } from "./audits.route";
export { createHistoryService, type HistoryService } from "./history-service";
export { createLiveWork, type LiveWork, workerNameOf } from "./live-work";
export { createScheduleService, type ScheduleService } from "./schedule-service";
