/**
 * The one writer of scan (with its kept snapshot and callback attempts), audit, audit page, site,
 * schedule, client, keyword, citation track and alert rows, and of what a site's AI visibility is tracked with: each kind's module holds its named operations and, for the kinds
 * with states, the transition table they read their starting states from. Their writes of more than
 * one statement run in `transaction`, which runs one again when Postgres gave it up to break a deadlock.
 */

export type { AlertKind, Attempt } from "./alerts";
export * as alerts from "./alerts";
export type { Actor, AuditEvent } from "./audit-log";
export * as auditLog from "./audit-log";
export * as auditPages from "./audit-pages";
export {
  AUDIT_PAGE_ENDED,
  AUDIT_PAGE_OPEN,
  AUDIT_PAGE_STATES,
  AUDIT_PAGE_TRANSITIONS,
  AUDIT_PAGE_WHERE,
} from "./audit-pages";
export * as audits from "./audits";
export {
  type AdmittedPage,
  AUDIT_ENDED,
  AUDIT_STATES,
  AUDIT_TRANSITIONS,
  AUDIT_UNDER_WAY,
  AUDIT_WHERE,
  type Candidate,
  CRAWL_LIMITS,
  type CrawlLimit,
} from "./audits";
export type { NewTrack } from "./citation-tracks";
export * as citationTracks from "./citation-tracks";
export * as clients from "./clients";
export * as keywords from "./keywords";
export { outcomeColumns, type Verdict, verdictColumns } from "./outcome";
export { AUDIT_PAGES_LOCK, AUDIT_START_LOCK, quotaMonth } from "./quota-month";
export type { SnapshotRow } from "./scan-snapshots";
export * as scanSnapshots from "./scan-snapshots";
export type { NewScan, ScanOwner } from "./scans";
export * as scans from "./scans";
export { CALLBACK_TRANSITIONS, SCAN_ENDED, SCAN_STATES, SCAN_TRANSITIONS, SCAN_WHERE } from "./scans";
export * as schedules from "./schedules";
export type { CompletedScan, Owner } from "./sites";
export * as sites from "./sites";
export { isConflict, TRANSACTION_ATTEMPTS, type TransactionOptions, transaction } from "./transaction";
export { allows, type DbClient, type Move, startStates, type Transitions } from "./transitions";
export * as visibility from "./visibility";
export type { CitedSide, NewCitedPage } from "./visibility-cited";
export * as visibilityCited from "./visibility-cited";
export * as visibilityRuns from "./visibility-runs";
export {
  RUN_ENDED,
  RUN_STATES,
  RUN_TRANSITIONS,
  RUN_UNDER_WAY,
  RUN_WHERE,
  SAMPLE_ENDED,
  SAMPLE_OPEN,
  SAMPLE_STATES,
  SAMPLE_TRANSITIONS,
} from "./visibility-runs";
export type { DeliveryAttempt } from "./webhook-deliveries";
export * as webhookDeliveries from "./webhook-deliveries";
