import {
  type AuditIssues,
  AuditIssuesQuery,
  type AuditView,
  type ReportBrandingView,
  type StoredScan,
} from "@scan/contract";
import type { AuditService } from "../audits";
import type { BrandingService } from "./branding-service";
import type { ReportRenderer } from "./report-renderer";

/**
 * What the dashboard's print view draws (services/dashboard/src/pages/print-report.tsx reads the
 * same shape): the report's own API answers, with the workspace's branding.
 */
export type PrintData =
  | { kind: "audit"; generated_at: string; branding: ReportBrandingView | null; audit: AuditView; issues: AuditIssues }
  | { kind: "scan"; generated_at: string; branding: ReportBrandingView | null; scan: StoredScan };

/** Client reports: a scan's or an audit's PDF in the workspace's name and logo. */
export type ReportService = {
  /** The completed audit's report as a PDF; 409 while it is under way, 404 when it has none. */
  auditPdf: (workspaceId: string, auditId: string) => Promise<Buffer>;
  /** A finished scan as a PDF, branded as the viewing workspace's (an anonymous reader's: unbranded). */
  scanPdf: (scan: StoredScan, viewerWorkspaceId: string | null) => Promise<Buffer>;
};

export const createReportService = ({
  audits,
  branding,
  renderer,
  now = () => new Date(),
}: {
  audits: AuditService;
  branding: BrandingService;
  renderer: ReportRenderer;
  now?: () => Date;
}): ReportService => ({
  auditPdf: async (workspaceId, auditId) => {
    // the report first: an audit under way (409) or without one (404) is refused before any other read
    await audits.report(workspaceId, auditId);
    const [audit, issues, brand, logo] = await Promise.all([
      audits.get(workspaceId, auditId),
      audits.issues(workspaceId, auditId, AuditIssuesQuery.parse({})),
      branding.get(workspaceId),
      branding.logoOf(workspaceId),
    ]);
    const data: PrintData = { kind: "audit", generated_at: now().toISOString(), branding: brand, audit, issues };
    return renderer.pdf({ path: `/print/audits/${auditId}`, data, logo });
  },
  scanPdf: async (scan, viewerWorkspaceId) => {
    const [brand, logo] = viewerWorkspaceId
      ? await Promise.all([branding.get(viewerWorkspaceId), branding.logoOf(viewerWorkspaceId)])
      : [null, null];
    const data: PrintData = { kind: "scan", generated_at: now().toISOString(), branding: brand, scan };
    return renderer.pdf({ path: `/print/scans/${scan.id}`, data, logo });
  },
});
