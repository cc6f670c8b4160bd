import { auditPrintJob, type PrintData, type ReportRenderer, readReportBranding } from "@scan/client-reports";
import type { StoredScan } from "@scan/contract";
import { AppError } from "@scan/contract";
import type { Db } from "@scan/db";
import { type AuditService, auditNotFound } from "../audits";
import type { RunService } from "../visibility/run-service";
import type { BrandingService } from "./branding-service";

/** what a run under way answers in Retry-After: its samples take a minute or more */
const RUN_UNDER_WAY_RETRY_S = 60;

export type { PrintData };

/** Client reports: a scan's or an audit's PDF in the workspace's name and logo. */
export type ReportService = {
  /** The completed audit's report as a PDF; 409 while it is under way, 404 when it has none. */
  auditPdf: (workspaceId: string, auditId: string) => Promise<Buffer>;
  /** A finished scan as a PDF, branded as the viewing workspace's (an anonymous reader's: unbranded). */
  scanPdf: (scan: StoredScan, viewerWorkspaceId: string | null) => Promise<Buffer>;
  /** A completed visibility run's measures as a PDF; 409 while it is under way, 404 when it ended otherwise. */
  visibilityPdf: (workspaceId: string, runId: string) => Promise<Buffer>;
};

export const createReportService = ({
  db,
  audits,
  branding,
  renderer,
  runs,
  now = () => new Date(),
}: {
  db: Db;
  audits: AuditService;
  runs: Pick<RunService, "get">;
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
  visibilityPdf: async (workspaceId, runId) => {
    // another workspace's or an unknown run is 404 before anything else is read
    const run = await runs.get(workspaceId, runId);
    if (run.status === "queued" || run.status === "running")
      throw new AppError(
        "scan_not_finished",
        `Visibility run ${runId} is ${run.status}: it has no report until it has completed`,
        `Follow GET /api/v1/visibility/runs/${runId} until its status is completed, then ask again.`,
        { "Retry-After": String(RUN_UNDER_WAY_RETRY_S) },
      );
    if (run.status !== "completed")
      throw new AppError(
        "not_found",
        `Visibility run ${runId} has no report: it is ${run.status}`,
        "A report exists once a run has completed; start another with POST /api/v1/sites/{id}/visibility/runs.",
      );
    const [site, brand] = await Promise.all([
      db.site.findFirst({
        where: { id: run.site_id, workspaceId },
        select: { id: true, url: true, name: true, domain: true, visibilityProfile: true },
      }),
      readReportBranding(db, workspaceId),
    ]);
    if (!site)
      throw new AppError(
        "not_found",
        `No visibility run with id ${runId}`,
        "Use a run id from GET /api/v1/sites/{id}/visibility/runs.",
      );
    const profile = site.visibilityProfile;
    const data: PrintData = {
      kind: "visibility",
      generated_at: now().toISOString(),
      branding: brand?.branding ?? null,
      run,
      site: { id: site.id, url: site.url, name: site.name },
      brand: {
        names: profile?.brandNames.length ? profile.brandNames : [site.name],
        domains: profile?.brandDomains.length ? profile.brandDomains : [site.domain],
      },
    };
    return renderer.pdf({ path: `/print/visibility/${run.id}`, data, logo: brand?.logo ?? null });
  },
});
