import {
  AuditIdParam,
  AuditIssuePage,
  AuditIssuePagesQuery,
  AuditIssueParams,
  AuditIssues,
  AuditIssuesQuery,
  AuditPageListQuery,
  AuditPageView,
  AuditReportQuery,
  AuditScheduleRequest,
  AuditScheduleView,
  AuditView,
  CreateAuditRequest,
  pageParams,
  RegressionAlert,
  SiteHistoryEntry,
  SiteHistoryQuery,
  SiteIdParam,
  SiteReport,
} from "@scan/contract";
import { EXPORT_FORMATS } from "@scan/reports";
import type { Response } from "express";
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import { actorOf } from "../access/actor";
import {
  apiErrors,
  apiHeaders,
  commonHeaders,
  jsonBody,
  page,
  pageNotModified,
  record,
  revalidationHeaders,
  SarifLog,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import { sendStreamedFile } from "../http/streamed-file";
import { exportFormatFor, sendPdf } from "../scans";
import type { AuditService } from "./audit-service";
import type { HistoryService } from "./history-service";
import type { ScheduleService } from "./schedule-service";

const BODY_HINT =
  'Send {"mode": "quick" | "full", "max_pages": 100, "include": ["/blog/*"], "exclude": ["/tag/*"]}; every field is optional.';
const ID_HINT = "Use a UUID from the API.";
const PAGES_HINT = "page ≥ 1; limit from 1 to 100; format: json or csv.";
const REPORT_HINT = "format: json, csv, sarif or junit (or ask by Accept).";
const LIST_HINT = "page ≥ 1; limit from 1 to 100.";
const ISSUES_HINT =
  "category: seo, aeo or geo; severity: critical, warning or info; state: new, persisting or fixed; format: json or csv.";
const ISSUE_PAGES_HINT = "page ≥ 1; limit from 1 to 100; q: up to 200 characters of a URL or finding.";
const ISSUE_HINT = "Use a UUID from the API and a check id from GET /api/v1/audits/{id}/issues.";

const AuditListQuery = z.strictObject(pageParams);

const CSV_TYPE = "text/csv; charset=utf-8";
const attachment = (name: string) => `attachment; filename="${name}"`;

/** A CSV file, named for the audit: not an envelope, so a spreadsheet opens it as it is. */
const sendCsv = (res: Response, name: string, csv: string) => {
  res
    .status(200)
    .setHeader("content-type", CSV_TYPE)
    .setHeader("content-disposition", attachment(`${name}.csv`))
    .send(csv);
};

/** The signed POST a schedule's alert_url receives when an audit of the site regressed. */
const regressionCallback = {
  "{$request.body#/alert_url}": {
    post: {
      summary: "A regression, POSTed to alert_url",
      description: [
        "Sent once per regressed audit: when a completed audit of the site (scheduled or not) has an overall score `alert_drop` or more points below the site's previous completed audit of the same mode, a lower grade, or a check failing that passed before (a site check, or a page check that passed on every page), each named with its pages.",
        "",
        "Signed as scan callbacks are: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of <t>.<raw body> keyed with WEBHOOK_SECRET>`. `X-Webhook-Id` is the alert's id, the same on every attempt: deduplicate on it. Retried with backoff up to `WEBHOOK_ATTEMPTS` until a 2xx.",
      ].join("\n"),
      requestParams: {
        header: z.object({
          "X-Signature": z.string().meta({ description: "`t=<unix seconds>,v1=<hex HMAC-SHA256>`" }),
          "X-Webhook-Id": z.uuid().meta({ description: "The alert id, the same on every attempt." }),
          "X-Webhook-Attempt": z.int().positive().meta({ description: "1 for the first attempt." }),
        }),
      },
      requestBody: jsonBody(RegressionAlert),
      responses: {
        "2XX": { description: "Delivered." },
        default: { description: "Not delivered: retried with backoff." },
      },
    },
  },
};

const AuditLocation = z.string().meta({
  description: "Where to follow the audit: `/api/v1/audits/<id>`.",
  header: { id: "AuditLocation" },
});

/** A CSV file, with the JSON envelope as the alternative the `format` parameter picks. */
const withCsv = (json: ZodOpenApiResponseObject, what: string): ZodOpenApiResponseObject => ({
  ...json,
  description: `${json.description} With \`format=csv\`: ${what} as \`text/csv\` (RFC 4180, UTF-8 with a byte-order mark, CRLF), sent as an attachment; a text cell that a spreadsheet would read as a formula (starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return) is prefixed with \`'\`.`,
  headers: z.object({
    ...apiHeaders,
    "Content-Disposition": z
      .string()
      .optional()
      .meta({ description: 'With `format=csv`: `attachment; filename="audit-<id>-….csv"`.' }),
  }),
  content: {
    ...json.content,
    "text/csv": { schema: z.string().meta({ description: "The CSV file." }) },
  },
});

/** Whole-site audits (docs/audits.md): start one for a site, follow it, page through it, export it, cancel it. */
const SCHEDULE_HINT =
  'Send {"frequency": "daily" | "weekly", "mode": "quick" | "full", "max_pages": 100, "include": [...], "exclude": [...], "alert_emails": ["seo@agency.example"], "alert_slack_url": "https://hooks.slack.com/services/...", "alert_url": "https://...", "alert_drop": 5, "report_emails": ["client@example.com"]}; frequency is required.';

export const auditRoutes = ({
  audits,
  schedules,
  history,
  auditPdf,
}: {
  audits: AuditService;
  schedules: ScheduleService;
  history: HistoryService;
  /** the completed audit's client report: the PDF of its print view, in the workspace's name and logo */
  auditPdf: (workspaceId: string, auditId: string) => Promise<Buffer>;
}): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/history",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      query: {
        schema: SiteHistoryQuery,
        hint: "page ≥ 1; limit from 1 to 100; kind: all, scan or audit.",
        report: "names",
      },
      docs: {
        operationId: "getSiteHistory",
        tags: ["Audits"],
        summary: "A site's scores and issue counts over time",
        description:
          "The caller's completed scans of the site's pages (keyed scans whose URL is on the site's origin) and the site's completed audits, newest first, each with its mode, scores, grade and issue counts. `partial` marks quick scans and quick audits, whose scores are not comparable with full ones'. `kind` keeps one of the two.",
        headers: commonHeaders,
        responses: {
          "200": page("A page of the site's history.", SiteHistoryEntry),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { entries, meta } = await history.list(caller.workspaceId, params.id, query);
      return pageOf(entries, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      body: { schema: AuditScheduleRequest, hint: SCHEDULE_HINT, report: "names" },
      docs: {
        operationId: "putAuditSchedule",
        tags: ["Audits"],
        summary: "Audit a site daily or weekly",
        description: [
          "Creates the site's schedule (201) or replaces it (200): one per site. `frequency` is `daily` or `weekly`; the other fields are `POST /api/v1/sites/{id}/audits`'s, checked the same way.",
          "",
          "When an audit of the site regressed, one alert goes to each channel the schedule has, any of three: `alert_url` (optional, vetted like a scan's `callback_url`; refused with 400 naming `WEBHOOK_SECRET` when the operator has not set it) receives a signed POST (see the callback); `alert_emails` (up to 10 addresses; refused with 400 naming `SMTP_URL` when the operator has not set one) get a mail; `alert_slack_url` (a Slack incoming-webhook URL, vetted by the same address policy) gets a Slack message (`{text, blocks}`). Mail and Slack need no `WEBHOOK_SECRET`; both name the site in their subject or header, say what got worse (scores, grade, checks from what to what, on how many pages) and link to the audit in the dashboard (`DASHBOARD_URL`). `alert_drop` (1 to 100, default 5) is the fall of the overall score, in points, that counts. The same channels receive the site's visibility alerts (`visibility.changed`): a completed visibility run whose mention or citation rate changed against the previous completed run by Fisher's exact test (p < 0.05).",
          "",
          "`report_emails` (up to 10 addresses; refused with 400 naming `SMTP_URL` when the operator has not set one) are mailed the client report each time an audit the schedule started completes, regressed or not: the audit's PDF in the workspace's name and logo, attached, under the subject `Client report: <host>, grade <grade>` (an alert's subject says `got worse`). When the PDF cannot be made the mail still goes, without it, saying so.",
          "",
          "The Slack URL is a secret: the schedule shows it masked (its origin and last 4 characters). Sending that masked value back unchanged keeps the stored URL, so a form can be saved again without asking for it; leaving `alert_slack_url` out removes it, as leaving out `alert_url` or `alert_emails` does.",
          "",
          "The queue runs it by a cron pattern in UTC (`pattern`) whose time of day (and weekday) is fixed per site, so many sites spread over the day. When it comes due while an audit of the site is under way, that run is skipped. A plan schedules at most `AUDIT_SCHEDULES_<PLAN>` sites (403 `PLAN_LIMIT` beyond). Schedules survive restarts: the worker makes the queue's scheduler again from the stored schedule when Redis lost it.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": record("The schedule, replaced.", AuditScheduleView),
          "201": record("The schedule, new.", AuditScheduleView),
          ...apiErrors(400, 401, 403, 404, 405, 413, 429, 500, 503),
        },
        callbacks: { siteRegressed: regressionCallback },
      },
    },
    async ({ caller, params, body, req, res }) => {
      const { schedule, created } = await schedules.put(caller, params.id, body, actorOf(caller, req, res));
      return reply(schedule, { status: created ? 201 : 200 });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      docs: {
        operationId: "getAuditSchedule",
        tags: ["Audits"],
        summary: "A site's audit schedule",
        description: "The schedule with `next_run_at` as the queue has it; 404 when the site has none.",
        headers: commonHeaders,
        responses: {
          "200": record("The schedule.", AuditScheduleView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      const schedule = await schedules.get(caller.workspaceId, params.id);
      return schedule;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      docs: {
        operationId: "deleteAuditSchedule",
        tags: ["Audits"],
        summary: "Stop a site's audit schedule",
        description: "Deletes the schedule and its scheduler; audits it started stay. 404 when the site has none.",
        headers: commonHeaders,
        responses: {
          "200": record("The schedule as it was, `next_run_at` null.", AuditScheduleView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) => {
      const schedule = await schedules.remove(caller.workspaceId, params.id, actorOf(caller, req, res));
      return schedule;
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/audits",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      body: { schema: CreateAuditRequest, hint: BODY_HINT, report: "names", optional: true },
      docs: {
        operationId: "createAudit",
        tags: ["Audits"],
        summary: "Audit a whole site",
        description: [
          "Starts an audit of the site (one of the caller's, from `GET /api/v1/sites`) and answers 202 at once; follow it at `Location`.",
          "",
          "The audit reads robots.txt (its `Sitemap:` lines, its rules for the `AEOScan` crawler and its `Crawl-delay`), the sitemaps (or `/sitemap.xml`; indexes and gzip, bounded), then scans the start page and the sitemaps' pages and follows each scanned page's same-origin links breadth-first, every URL once, until no page is left or `max_pages` are admitted. Pages run on the scan workers below every interactive scan.",
          "",
          "- `mode`: each page's scan, `quick` (20 checks) or `full` (53, the default); only a full audit sets the site's `latest_scores`.",
          "- `max_pages`: 1 to 10,000, at most the plan's ceiling (default: the ceiling; above it 403 `PLAN_LIMIT`).",
          "- `include`, `exclude`: up to 20 path patterns each, robots.txt style (`/blog/*`, `*.php$`), matched against path and query; exclude wins; the start page is always audited.",
          "",
          "A body is optional (no body: every default). A workspace may have `AUDITS_ACTIVE_PER_USER` audits under way (403 `PLAN_LIMIT` beyond).",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "202": record("The audit, `discovering`.", AuditView, { headers: { Location: AuditLocation } }),
          ...apiErrors(400, 401, 403, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body, res }) => {
      const audit = await audits.create(caller, params.id, body, res.locals.requestId);
      return reply(audit, { status: 202, headers: { location: `/api/v1/audits/${audit.id}` } });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/audits",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      query: { schema: AuditListQuery, hint: LIST_HINT, report: "names" },
      docs: {
        operationId: "listSiteAudits",
        tags: ["Audits"],
        summary: "A site's audits",
        description:
          "The site's audits, newest first, each with its progress and scores (`report` is null here: read one audit for it).",
        headers: commonHeaders,
        responses: {
          "200": page("A page of audits.", AuditView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { audits: items, meta } = await audits.listForSite(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      docs: {
        operationId: "getAudit",
        tags: ["Audits"],
        summary: "An audit: progress, and the site report when done",
        description:
          "`status` moves `discovering` → `running` → `finalizing` → `completed` (or `failed`, or `cancelled`). `progress` counts the pages from their rows: `discovered` (admitted), `queued`, `running`, `scanned`, `failed` (no answer or 5xx), `blocked` (robots.txt disallows the crawler), `cancelled`. Once completed, `scores`, `grade` and `report` (site checks with their findings, each page check's pass rate, the worst pages, what discovery read) are set.",
        headers: commonHeaders,
        responses: { "200": record("The audit.", AuditView), ...apiErrors(400, 401, 404, 405, 429, 500, 503) },
      },
    },
    async ({ caller, params }) => {
      const audit = await audits.get(caller.workspaceId, params.id);
      return audit;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/audits/:id",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      docs: {
        operationId: "cancelAudit",
        tags: ["Audits"],
        summary: "Cancel an audit",
        description:
          "Cancels an audit under way: pages not yet started are cancelled, pages being scanned finish and are kept, nothing more is queued. A finished audit is left as it is. Either way the answer is the audit as it now stands.",
        headers: commonHeaders,
        responses: { "200": record("The audit.", AuditView), ...apiErrors(400, 401, 404, 405, 429, 500, 503) },
      },
    },
    async ({ caller, params }) => {
      const audit = await audits.cancel(caller.workspaceId, params.id);
      return audit;
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/pages",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      query: { schema: AuditPageListQuery, hint: PAGES_HINT, report: "names" },
      docs: {
        operationId: "listAuditPages",
        tags: ["Audits"],
        summary: "An audit's pages",
        description:
          "Every page of the audit in the order it was admitted (breadth-first), with its status, HTTP status, scores and checks.",
        headers: commonHeaders,
        responses: {
          "200": withCsv(page("A page of the audit's pages.", AuditPageView), "every page of the audit, one row each"),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, res }) => {
      const { id } = params;
      if (query.format === "csv")
        // written as the pages are read: a large audit's file is never held whole
        return sendStreamedFile(
          res,
          { "content-type": CSV_TYPE, "content-disposition": attachment(`audit-${id}-pages.csv`) },
          await audits.pagesAsCsv(caller.workspaceId, id),
        );
      const { pages, meta } = await audits.pages(caller.workspaceId, id, query);
      return pageOf(pages, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/issues",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      query: { schema: AuditIssuesQuery, hint: ISSUES_HINT, report: "names" },
      docs: {
        operationId: "getAuditIssues",
        tags: ["Audits"],
        summary: "An audit issue by issue",
        description: [
          "Every page check and site check that fails or warns in the audit, as a row: its `check` id, `scope` (`page` or `site`), title, category, severity, `pages` (a page check: the judged pages where it fails or warns; a site check: the distinct URLs its findings name) and `share` of the judged pages.",
          "",
          "Each row's `state` compares it with the site's previous completed audit of the same mode (`previous_audit_id`): `new`, `persisting`, or `fixed` (failing there, not here; listed after the others, with `pages` 0 and `previous_pages` what it was). With no such audit, `state` is null. Rows come most severe first, then most pages.",
          "",
          "`category`, `severity` and `state` keep the rows that match. An audit under way answers the page checks of the pages judged so far with `complete: false` and its `status`; the site checks run once every page is done, so they (and fixed site checks) appear when it has completed. `format=csv`: the rows the filters keep as a CSV file. A failed or cancelled audit whose pages' checks retention dropped is 410.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": withCsv(record("The issue rollup.", AuditIssues), "a row per issue the filters keep"),
          ...apiErrors(400, 401, 404, 405, 410, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, res }) => {
      const { id } = params;
      if (query.format === "csv")
        return sendCsv(res, `audit-${id}-issues`, await audits.issuesAsCsv(caller.workspaceId, id, query));
      const issues = await audits.issues(caller.workspaceId, id, query);
      return issues;
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/issues/:check/pages",
      authorization: "account",
      params: { schema: AuditIssueParams, hint: ISSUE_HINT },
      query: { schema: AuditIssuePagesQuery, hint: ISSUE_PAGES_HINT, report: "names" },
      docs: {
        operationId: "listAuditIssuePages",
        tags: ["Audits"],
        summary: "The pages of one of an audit's issues",
        description: [
          "The pages the issue `check` (a row of `GET /api/v1/audits/{id}/issues`) is on, in the order the audit admitted them, each with what the check found there: a page check's judged pages where it fails or warns, with its description on that page and the page's `page_id`; a site check's findings (at most 100 kept), each with the URL at fault and the pages involved (`related`). A fixed issue is on no page.",
          "",
          "`q` keeps the pages whose URL or finding holds it (any case, matched literally). A check that is no row of the rollup is 404. Once retention dropped the pages' checks, a page check's pages are 410.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": page("A page of the issue's pages.", AuditIssuePage),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 410, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { pages, meta } = await audits.issuePages(caller.workspaceId, params.id, params.check, query);
      return pageOf(pages, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/report",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      query: { schema: AuditReportQuery, hint: REPORT_HINT, report: "names" },
      docs: {
        operationId: "getAuditReport",
        tags: ["Audits"],
        summary: "A completed audit's site report, or its export",
        description: [
          "The site report alone, or a file of the completed audit, chosen by `?format=` or, without it, by `Accept` (q-values honoured; none, `*/*` or `application/*` mean JSON), as for a stored scan:",
          "",
          "| format | `Accept` | answered as | file |",
          "|---|---|---|---|",
          "| `json` | `application/json` | the site report in the request's envelope | |",
          "| `csv` | `text/csv` | `text/csv; charset=utf-8`: a row per site-check finding, per passing or skipped site check, per page check with its pass rate | `audit-<id>-report.csv` |",
          "| `sarif` | `application/sarif+json` | a SARIF 2.1.0 log: a rule per page check and site check, a result per failing or warning page check on each judged page and per finding of a failing site check | `audit-<id>-report.sarif` |",
          "| `junit` | `application/xml`, `application/junit+xml`, `text/xml` | `application/xml`, JUnit XML: a suite per area of site checks, then a suite per area of each judged page, a test case per check | `audit-<id>-report.xml` |",
          "| `pdf` | `application/pdf` | `application/pdf`: the client report, the dashboard's print view of the audit (grade, scores, the issue rollup with new and fixed issues, the site checks, the worst pages) made by the service's Chromium, in the workspace's name and logo (`PUT /api/v1/branding`) | `audit-<id>-report.pdf` |",
          "",
          "A PDF is made on request (a few seconds); the service makes a few at once and answers 503 when it has no Chromium or is busy beyond the wait.",
          "",
          "`?format=` wins over `Accept`. An `Accept` that names none of these is 406. An audit still under way has no report yet: 409 with `Retry-After`, in every format (follow `GET /api/v1/audits/{id}`); a failed or cancelled audit has none: 404. A SARIF or JUnit export of an audit whose pages' check lists retention dropped is 410 (the JSON and CSV report stay). Errors are JSON in the request's envelope.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": {
            ...record("The site report, or its export.", SiteReport),
            headers: z.object({
              ...apiHeaders,
              Vary: revalidationHeaders.Vary,
              "Content-Disposition": z.string().optional().meta({
                description: 'On an export: `attachment; filename="audit-<id>-report.csv"` (`.sarif`, `.xml`, `.pdf`).',
              }),
            }),
            content: {
              ...record("", SiteReport).content,
              "text/csv": {
                schema: z.string().meta({
                  description:
                    "The site report as CSV (RFC 4180, UTF-8 with a byte-order mark, CRLF); a text cell that a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`.",
                }),
              },
              "application/sarif+json": { schema: SarifLog },
              "application/xml": {
                schema: z.string().meta({
                  description:
                    "JUnit XML (`testsuites`): `SEO site checks of <url>` (and each area with site checks), a test case per site check whose `failure` lists its findings and their pages; then per judged page a suite per area (`SEO checks of <url>`), a test case per check named with the page's URL; a page whose scan failed is one test case in `error`. Valid against the Ant JUnit XSD and the Jenkins xUnit junit-10.xsd.",
                }),
              },
              "application/pdf": {
                schema: z.string().meta({
                  format: "binary",
                  description: "The client report of the audit, in the workspace's name and logo.",
                }),
              },
            },
          },
          ...apiErrors(400, 401, 404, 405, 406, 409, 410, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, several representations: a cache keys them on Accept
      res.vary("Accept");
      const { id } = params;
      const format = exportFormatFor(query.format, req.get("accept"));
      if (format === "pdf") return sendPdf(res, `audit-${id}-report`, await auditPdf(caller.workspaceId, id));
      if (format === "csv") return sendCsv(res, `audit-${id}-report`, await audits.reportAsCsv(caller.workspaceId, id));
      if (format === "sarif" || format === "junit") {
        // refusals (409, 404, 410) come before the file; the file is written as the pages are read
        const parts = await audits.exportReport(caller.workspaceId, id, format);
        const { contentType, extension } = EXPORT_FORMATS[format];
        return sendStreamedFile(
          res,
          { "content-type": contentType, "content-disposition": attachment(`audit-${id}-report.${extension}`) },
          parts,
        );
      }
      const report = await audits.report(caller.workspaceId, id);
      return report;
    },
  ),
];
