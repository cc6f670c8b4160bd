import { z } from "zod";
import { Grade } from "./grade";
import { ScanMode } from "./scan";
import { AuditScores } from "./site-report";

/** Why an audit counts as a regression against the site's previous audit of the same mode. */
export const RegressionReason = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("score_drop"), points: z.int().positive(), before: z.int(), after: z.int() }),
  z.object({ kind: z.literal("grade_lower"), before: Grade, after: Grade }),
  z.object({
    kind: z.literal("check_failing"),
    /** a site check, or a page check that passed on every page before */
    scope: z.enum(["site", "page"]),
    check: z.string(),
    title: z.string(),
    /** the pages it fails on now (at most 50) */
    pages: z.array(z.string()),
  }),
]);
export type RegressionReason = z.infer<typeof RegressionReason>;

/** The body POSTed to a schedule's alert_url: the same bytes on every attempt. */
export const RegressionAlert = z.object({
  event: z.literal("site.regressed"),
  alert_id: z.uuid(),
  site_id: z.uuid(),
  site_url: z.string(),
  audit_id: z.uuid(),
  previous_audit_id: z.uuid(),
  mode: ScanMode,
  scores: z.object({ before: AuditScores, after: AuditScores }),
  grade: z.object({ before: Grade, after: Grade }),
  reasons: z.array(RegressionReason).min(1),
  detected_at: z.iso.datetime(),
});
export type RegressionAlert = z.infer<typeof RegressionAlert>;

export const AlertDeliveryState = z.enum(["pending", "delivered", "failed"]);
export type AlertDeliveryState = z.infer<typeof AlertDeliveryState>;

/** How an alert reaches people: a signed webhook, a mail, or a Slack message. */
export const AlertChannel = z.enum(["webhook", "email", "slack"]);
export type AlertChannel = z.infer<typeof AlertChannel>;

/** How one alert was delivered: its channel, where it went (as it may be shown), its state and attempts. */
export const AlertDeliveryView = z.object({
  /** how it was sent: `webhook` (signed POST), `email` or `slack` */
  channel: AlertChannel,
  /** where it was sent, as it may be shown: the webhook's origin, the mail's addresses, the Slack URL masked */
  to: z.string(),
  /** `pending` until a 2xx (`delivered`) or the last attempt failed (`failed`) */
  state: AlertDeliveryState,
  /** sends tried so far */
  attempts: z.int().nonnegative(),
  /** why the last attempt failed (`HTTP 500`, `could not connect (ECONNREFUSED)`, ...); null after a success */
  last_error: z.string().nullable(),
  delivered_at: z.iso.datetime().nullable(),
  /** the scheme, host and port the alert was sent to (empty for a mail) */
  origin: z.string(),
});
export type AlertDeliveryView = z.infer<typeof AlertDeliveryView>;

/**
 * A secret URL as it may be shown (a Slack webhook's path is its token): the scheme, host and
 * port, then the path's last 4 characters. Showing the same URL twice gives the same mask.
 */
export const maskSecretUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    const rest = `${parsed.pathname}${parsed.search}`;
    return `${parsed.origin}/…${rest.length > 12 ? rest.slice(-4) : ""}`;
  } catch {
    return "…";
  }
};

/**
 * A stored regression alert as GET /api/v1/sites/:id/alerts shows it: what the webhook said and
 * how its delivery went. Where it was sent is shown as an origin only: an alert URL's path or
 * query may hold the receiver's token.
 */
export const AuditAlertView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  /** the audit that regressed */
  audit_id: z.uuid(),
  /** the site's previous completed audit of the same mode, compared against */
  previous_audit_id: z.uuid(),
  mode: ScanMode,
  scores: z.object({ before: AuditScores, after: AuditScores }),
  grade: z.object({ before: Grade, after: Grade }),
  reasons: z.array(RegressionReason).min(1),
  created_at: z.iso.datetime(),
  delivery: AlertDeliveryView,
});
export type AuditAlertView = z.infer<typeof AuditAlertView>;
