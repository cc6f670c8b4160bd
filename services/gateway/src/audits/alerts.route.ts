import { AuditAlertView, pageParams, SiteIdParam, VisibilityAlertView } from "@scan/contract";
import { z } from "zod";
import { apiErrors, commonHeaders, page, pageNotModified } from "../docs/common";
import { pageOf } from "../http/answer";
import { type Route, route } from "../http/route";
import type { AlertService } from "./alert-service";

export const AlertListQuery = z.strictObject(pageParams);

/**
 * A site's alerts, read-only, newest first, paged: regression alerts (docs/audits.md, Regression
 * alerts) and visibility alerts (docs/visibility.md, Alerts on a real change).
 */
export const alertRoutes = ({ alerts }: { alerts: AlertService }): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/alerts",
      authorization: "account",
      params: { schema: SiteIdParam, hint: "Use a UUID from the API." },
      query: { schema: AlertListQuery, hint: "page ≥ 1; limit from 1 to 100.", report: "names" },
      docs: {
        operationId: "listSiteAlerts",
        tags: ["Audits"],
        summary: "A site's regression alerts",
        description: [
          "The regression alerts stored for the site, newest first: one per audit and channel (`webhook`, `email`, `slack`) for each audit that was worse than the site's previous completed audit of the same mode while the site's schedule had that channel (see `POST /api/v1/sites/{id}/schedule`).",
          "",
          "Each names both audits, both scores and grades and the reasons (`score_drop`, `grade_lower`, `check_failing` with its pages), with its delivery: its `channel`, `to` (the webhook's origin, the mail's addresses, or the Slack URL masked), `pending` (being tried), `delivered` (a 2xx came back, or the SMTP server took the mail) or `failed` (the last attempt failed, or a permanent refusal: no such mailbox, a revoked Slack hook), the attempts made (retried with backoff up to `WEBHOOK_ATTEMPTS`, as callbacks are), the last error, and the origin it went to (the alert URL's path and query may hold the receiver's token and are not shown).",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": page("A page of the site's alerts.", AuditAlertView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { alerts: items, meta } = await alerts.listForSite(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/visibility/alerts",
      authorization: "account",
      params: { schema: SiteIdParam, hint: "Use a site id from GET /api/v1/sites." },
      query: { schema: AlertListQuery, hint: "page ≥ 1; limit from 1 to 100.", report: "names" },
      docs: {
        operationId: "listSiteVisibilityAlerts",
        tags: ["Visibility"],
        summary: "A site's visibility alerts",
        description: [
          "The visibility alerts stored for the site, newest first: one per completed run and channel (`webhook`, `email`, `slack`) for each run whose mention or citation rate changed against the site's previous completed run by Fisher's exact test (two-sided, p < 0.05), while the site's schedule had that channel. A change the test calls noise makes no alert.",
          "",
          "Each names both runs and the changes (engine, `mention` or `citation`, the rates before and after with their 95 % Wilson intervals, p and the direction), as the signed `visibility.changed` webhook said them, with its delivery shown as `GET /api/v1/sites/{id}/alerts` shows a regression alert's: `channel`, `to` (the webhook's origin, the mail's addresses, or the Slack URL masked), `pending`, `delivered` or `failed`, the attempts, the last error and the origin. Another workspace's or an unknown site is 404.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": page("A page of the site's visibility alerts.", VisibilityAlertView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { alerts: items, meta } = await alerts.listVisibilityForSite(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
];
