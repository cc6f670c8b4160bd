import {
  AuditIdParam,
  AuditIssuePagesQuery,
  AuditIssueParams,
  AuditIssuesQuery,
  AuditPageListQuery,
  AuditReportQuery,
  AuditScheduleRequest,
  CreateAuditRequest,
  pageParams,
  SiteHistoryQuery,
  SiteIdParam,
} from "@scan/contract";
import { EXPORT_FORMATS } from "@scan/reports";
import type { Response } from "express";
import { z } from "zod";
import type { AuditService } from "../domain/audit-service";
import type { HistoryService } from "../domain/history-service";
import type { ScheduleService } from "../domain/schedule-service";
import { page, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import { exportFormatFor } from "../http/scan-representation";
import { sendStreamedFile } from "../http/streamed-file";

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

/** Whole-site audits (docs/audits.md): start one for a site, follow it, page through it, export it, cancel it. */
const SCHEDULE_HINT =
  'Send {"frequency": "daily" | "weekly", "mode": "quick" | "full", "max_pages": 100, "include": [...], "exclude": [...], "alert_emails": ["seo@agency.example"], "alert_slack_url": "https://hooks.slack.com/services/...", "alert_url": "https://...", "alert_drop": 5}; frequency is required.';

export const auditRoutes = ({
  audits,
  schedules,
  history,
}: {
  audits: AuditService;
  schedules: ScheduleService;
  history: HistoryService;
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
    },
    async ({ caller, params, query }) => {
      const { entries, meta } = await history.list(caller.userId, params.id, query);
      return page(entries, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
      body: { schema: AuditScheduleRequest, hint: SCHEDULE_HINT, report: "names" },
    },
    async ({ caller, params, body }) => {
      const { schedule, created } = await schedules.put(caller, params.id, body);
      return reply(schedule, { status: created ? 201 : 200 });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      const schedule = await schedules.get(caller.userId, params.id);
      return schedule;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/schedule",
      authorization: "account",
      params: { schema: SiteIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      const schedule = await schedules.remove(caller.userId, params.id);
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
    },
    async ({ caller, params, query }) => {
      const { audits: items, meta } = await audits.listForSite(caller.userId, params.id, query);
      return page(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      const audit = await audits.get(caller.userId, params.id);
      return audit;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/audits/:id",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
    },
    async ({ caller, params }) => {
      const audit = await audits.cancel(caller.userId, params.id);
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
    },
    async ({ caller, params, query, res }) => {
      const { id } = params;
      if (query.format === "csv")
        // written as the pages are read: a large audit's file is never held whole
        return sendStreamedFile(
          res,
          { "content-type": CSV_TYPE, "content-disposition": attachment(`audit-${id}-pages.csv`) },
          await audits.pagesAsCsv(caller.userId, id),
        );
      const { pages, meta } = await audits.pages(caller.userId, id, query);
      return page(pages, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/issues",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      query: { schema: AuditIssuesQuery, hint: ISSUES_HINT, report: "names" },
    },
    async ({ caller, params, query, res }) => {
      const { id } = params;
      if (query.format === "csv")
        return sendCsv(res, `audit-${id}-issues`, await audits.issuesAsCsv(caller.userId, id, query));
      const issues = await audits.issues(caller.userId, id, query);
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
    },
    async ({ caller, params, query }) => {
      const { pages, meta } = await audits.issuePages(caller.userId, params.id, params.check, query);
      return page(pages, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/audits/:id/report",
      authorization: "account",
      params: { schema: AuditIdParam, hint: ID_HINT },
      query: { schema: AuditReportQuery, hint: REPORT_HINT, report: "names" },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, several representations: a cache keys them on Accept
      res.vary("Accept");
      const { id } = params;
      const format = exportFormatFor(query.format, req.get("accept"));
      if (format === "csv") return sendCsv(res, `audit-${id}-report`, await audits.reportAsCsv(caller.userId, id));
      if (format === "sarif" || format === "junit") {
        // refusals (409, 404, 410) come before the file; the file is written as the pages are read
        const parts = await audits.exportReport(caller.userId, id, format);
        const { contentType, extension } = EXPORT_FORMATS[format];
        return sendStreamedFile(
          res,
          { "content-type": contentType, "content-disposition": attachment(`audit-${id}-report.${extension}`) },
          parts,
        );
      }
      const report = await audits.report(caller.userId, id);
      return report;
    },
  ),
];
