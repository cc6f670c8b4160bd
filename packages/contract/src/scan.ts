import { z } from "zod";
import { CheckResult } from "./check-result";
import { Grade } from "./grade";
import { pageParams, queryFilter, queryUuid } from "./list-query";
import { RenderFailure, RenderFailureCode } from "./render-failure";

/** How much of the catalogue a scan runs: `quick` (20 checks, partial scores) or `full` (all 57). */
export const ScanMode = z.enum(["quick", "full"]);
export type ScanMode = z.infer<typeof ScanMode>;

/** POST /api/v1/scan body (docs/spec/public-scanning-api.md §4.1). `url` is normalised per form after this parse. */
export const ScanRequest = z.strictObject({
  url: z.string({ error: "url is required and must be a string" }),
  mode: ScanMode.default("full"),
  /** receives the finished scan by a signed POST; vetted like a scan target (docs/api.md, Async scans and callbacks) */
  callback_url: z.string({ error: "callback_url must be a string" }).optional(),
});
export type ScanRequest = z.infer<typeof ScanRequest>;

export const ScanStatus = z.enum(["queued", "running", "completed", "failed"]);
export type ScanStatus = z.infer<typeof ScanStatus>;

export const AreaScores = z.object({
  seo: z.int().min(0).max(100),
  aeo: z.int().min(0).max(100),
  geo: z.int().min(0).max(100),
  overall: z.int().min(0).max(100),
  /** Form B's name for overall; always present so one shape serves both forms */
  total: z.int().min(0).max(100),
});
export type AreaScores = z.infer<typeof AreaScores>;

export const IssueCounts = z.object({ critical: z.int(), warning: z.int(), info: z.int() });
export type IssueCounts = z.infer<typeof IssueCounts>;

/** The scan result answered by POST /api/v1/scan (docs/spec/public-scanning-api.md §2.2), the same in both forms. */
export const ScanResult = z.object({
  id: z.uuid(),
  url: z.string(),
  finalUrl: z.string().nullable(),
  mode: ScanMode,
  status: z.literal("completed"),
  grade: Grade,
  scores: AreaScores,
  /** quick scans run 20 of the 57 checks: their scores are not comparable with a full scan's */
  partial: z.boolean(),
  issues: IssueCounts,
  checks: z.array(CheckResult),
  /** whether the page's scripts ran in a browser before it was judged (full scans: unless the render failed) */
  rendered: z.boolean(),
  /** why a render that was attempted failed, so the page was judged on its HTML as served; null otherwise */
  renderFailure: RenderFailure.nullable(),
  scannedAt: z.iso.datetime(),
  /** elapsed scan time in milliseconds, from queueing to stored result */
  duration: z.int().nonnegative(),
});
export type ScanResult = z.infer<typeof ScanResult>;

/** What the worker stores when a scan completes; validated before it is written. */
export const ScanOutcome = z.object({
  finalUrl: z.string(),
  rendered: z.boolean(),
  renderFailure: RenderFailureCode.nullable(),
  scores: AreaScores,
  grade: Grade,
  issues: IssueCounts,
  checks: z.array(CheckResult),
});
export type ScanOutcome = z.infer<typeof ScanOutcome>;

export const CallbackState = z.enum(["pending", "delivered", "failed"]);
export type CallbackState = z.infer<typeof CallbackState>;

/** One attempt to POST the finished scan to its callback URL. */
export const CallbackAttempt = z.object({
  attempt: z.int().positive(),
  at: z.iso.datetime(),
  ok: z.boolean(),
  /** the receiver's status; null when no response came */
  status_code: z.int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.int().nonnegative(),
  /** when the next attempt is due; null after a success or the last attempt */
  next_attempt_at: z.iso.datetime().nullable(),
});
export type CallbackAttempt = z.infer<typeof CallbackAttempt>;

export const CallbackDelivery = z.object({
  url: z.string(),
  state: CallbackState,
  attempts: z.array(CallbackAttempt),
});
export type CallbackDelivery = z.infer<typeof CallbackDelivery>;

/** GET /api/v1/scan/:id (docs/spec/public-scanning-api.md §2.3), plus fields a caller needs to act on the status. */
export const StoredScan = z.object({
  id: z.uuid(),
  url: z.string(),
  final_url: z.string().nullable(),
  mode: ScanMode,
  status: ScanStatus,
  /** null until the scan has completed */
  scores: AreaScores.nullable(),
  grade: Grade.nullable(),
  partial: z.boolean(),
  issues: IssueCounts,
  /** null until the scan has finished */
  duration_ms: z.int().nonnegative().nullable(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  /** why a failed scan failed */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checks: z.array(CheckResult).nullable(),
  /**
   * when retention dropped the check list (`checks` is null from then on; scores, grade and
   * issue counts stay); null while the scan keeps it
   */
  checks_pruned_at: z.iso.datetime().nullable(),
  /** null until the scan has completed */
  rendered: z.boolean().nullable(),
  /**
   * why a render that was attempted failed, so the page was judged on its HTML as served; null
   * when it rendered, when it was judged on its served HTML by choice (a quick scan of a
   * server-rendered page), and until the scan has completed
   */
  render_failure: RenderFailure.nullable(),
  /** present when the scan was requested with a callback_url */
  callback: CallbackDelivery.optional(),
});
export type StoredScan = z.infer<typeof StoredScan>;

export const ScanIdParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()),
});

/**
 * What GET /api/v1/scan/:id answers in: the stored scan as JSON, or an export of a finished
 * scan (docs/api.md, Exports). `?format=` names one outright; without it, `Accept` chooses.
 */
export const ScanFormat = z.enum(["json", "csv", "sarif", "junit", "pdf"], {
  error: "format must be json, csv, sarif, junit or pdf",
});
export type ScanFormat = z.infer<typeof ScanFormat>;

/**
 * GET /api/v1/scan/:id query; unknown parameters are refused. `access`: the token of an
 * anonymous scan's access link (the `Location` its POST answered), 43 base64url characters; key
 * holders need none for their own.
 */
export const ScanReadQuery = z.strictObject({
  format: ScanFormat.optional(),
  access: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "must be the token from the scan's access link")
    .optional()
    .describe(
      "The token of an anonymous scan's access link, exactly as the `Location` of its `POST /api/v1/scan` gave it. Not needed for a key holder's own scans.",
    ),
});
export type ScanReadQuery = z.infer<typeof ScanReadQuery>;

/**
 * The body POSTed to a scan's callback_url once the scan has finished: `data` is what
 * GET /api/v1/scan/:id answers (without `callback`). The same bytes on every attempt.
 */
export const ScanWebhook = z.object({
  event: z.enum(["scan.completed", "scan.failed"]),
  scan_id: z.uuid(),
  data: StoredScan.omit({ callback: true }),
});
export type ScanWebhook = z.infer<typeof ScanWebhook>;

/**
 * A scan accepted but not finished: POST /api/v1/scan's 202 (with Location: /api/v1/scan/<id>)
 * when it was asked to answer at once or its wait ran out, and each scan of a batch.
 */
export const ScanAccepted = z.object({ id: z.uuid(), url: z.string(), mode: ScanMode, status: ScanStatus });
export type ScanAccepted = z.infer<typeof ScanAccepted>;

/** The most URLs one batch may hold; each counts against the caller's rate limit. */
export const MAX_BATCH_URLS = 100;

/**
 * POST /api/v1/scans/batch body. Each URL is read, normalised and vetted as POST
 * /api/v1/scan's `url`; `mode` and `callback_url` apply to every scan of the batch.
 */
export const BatchScanRequest = z.strictObject({
  urls: z
    .array(z.string({ error: "each url must be a string" }), { error: "urls is required and must be an array" })
    .min(1, "urls must hold at least one URL")
    .max(MAX_BATCH_URLS, `urls must hold at most ${MAX_BATCH_URLS} URLs`),
  mode: ScanMode.default("full"),
  callback_url: z.string({ error: "callback_url must be a string" }).optional(),
});
export type BatchScanRequest = z.infer<typeof BatchScanRequest>;

/** One queued scan of a batch, with where to poll it. */
export const BatchScanItem = ScanAccepted.extend({ location: z.string() });
export type BatchScanItem = z.infer<typeof BatchScanItem>;

/** POST /api/v1/scans/batch's 202: the queued scans, in the order of `urls`. */
export const BatchScanAccepted = z.object({ scans: z.array(BatchScanItem) });
export type BatchScanAccepted = z.infer<typeof BatchScanAccepted>;

/**
 * GET /api/v1/scans query: the key holder's scans, newest first, optionally of one status and of
 * one of their sites (scans of a URL of the site's origin); unknown parameters are refused.
 */
export const ScanListQuery = z.strictObject({
  ...pageParams,
  status: queryFilter(ScanStatus.options),
  site_id: queryUuid(),
  /** only the scans of URLs of this client's sites' origins */
  client_id: queryUuid(),
});
export type ScanListQuery = z.infer<typeof ScanListQuery>;

/** One scan in GET /api/v1/scans: the stored scan without its checks and callback deliveries. */
export const ScanSummary = StoredScan.omit({ checks: true, callback: true });
export type ScanSummary = z.infer<typeof ScanSummary>;
