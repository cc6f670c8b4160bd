import { auditPrintJob, type PrintData, type ReportRenderer } from "@scan/client-reports";
import type { StoredScan } from "@scan/contract";
import type { Db } from "@scan/db";
import { type AuditService, auditNotFound } from "../audits";
import type { BrandingService } from "./branding-service";

export type { PrintData };

/** Client reports: a scan's or an audit's PDF in the workspace's name and logo. */
export type ReportService = {
  /** The completed audit's report as a PDF; 409 while it is under way, 404 when it has none. */
  auditPdf: (workspaceId: string, auditId: string) => Promise<Buffer>;
  /** A finished scan as a PDF, branded as the viewing workspace's (an anonymous reader's: unbranded). */
  scanPdf: (scan: StoredScan, viewerWorkspaceId: string | null) => Promise<Buffer>;
};

export const createReportService = ({
  db,
  audits,
  branding,
  renderer,
  now = () => new Date(),
}: {
  db: Db;
  audits: AuditService;
  branding: BrandingService;
  renderer: ReportRenderer;
  now?: () => Date;
}): ReportService => ({
  auditPdf: async (workspaceId, auditId) => {
    // the report first: an audit under way (409) or without one (404) is refused before any other read
    await audits.report(workspaceId, auditId);
    // the same print job the worker mails a scheduled audit's report with (@scan/client-reports)
    const job = await auditPrintJob(db, auditId, now());
    if (!job) throw auditNotFound(auditId);
    return renderer.pdf(job);
  },
  scanPdf: async (scan, viewerWorkspaceId) => {
    const [brand, logo] = viewerWorkspaceId
      ? await Promise.all([branding.get(viewerWorkspaceId), branding.logoOf(viewerWorkspaceId)])
      : [null, null];
    const data: PrintData = { kind: "scan", generated_at: now().toISOString(), branding: brand, scan };
    return renderer.pdf({ path: `/print/scans/${scan.id}`, data, logo });
  },
});
