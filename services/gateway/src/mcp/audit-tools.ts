import { AppError, type AuditToolInput, type AuditView, normaliseScanUrl } from "@scan/contract";
import { actorOfTool } from "../access/actor";
import { ownerOf } from "../access/authenticate";
import type { AuditService } from "../audits";
import { evidenceNote, type ToolAnswer, type ToolContext } from "../scans";
import type { SiteService } from "../sites";

const HINT =
  "Give url to start an audit of that site, then call again with the audit_id it answers until status is completed.";

const summaryOf = (audit: AuditView): string => {
  const { progress } = audit;
  const lines = [
    `Audit ${audit.id} of ${audit.url} (${audit.mode}): ${audit.status}.`,
    `Pages: ${progress.discovered} found, ${progress.scanned} scanned, ${progress.queued + progress.running} to go, ${progress.failed} failed, ${progress.blocked} blocked by robots.txt.`,
  ];
  if (audit.error) lines.push(`Error: ${audit.error.message}`);
  const report = audit.report;
  if (!report) {
    if (audit.status !== "completed" && audit.status !== "failed" && audit.status !== "cancelled")
      lines.push(
        `Call aeo_audit_site again with {"audit_id": "${audit.id}"} for its progress and, once done, its report.`,
      );
    return lines.join("\n");
  }
  const { scores } = report;
  lines.push(
    `Site grade ${report.grade}: overall ${scores.overall}/100 (SEO ${scores.seo}, AEO ${scores.aeo}, GEO ${scores.geo})${report.partial ? ", partial (quick audit)" : ""}.`,
  );
  for (const check of report.site_checks.filter((c) => c.status === "fail"))
    lines.push(
      `- [${check.severity}] ${check.title}: ${check.description} Fix: ${check.fix}${evidenceNote(check.evidence)}`,
    );
  const worst = report.worst_pages.slice(0, 3).map((page) => `${page.url} (${page.overall})`);
  if (worst.length > 0) lines.push(`Worst pages: ${worst.join(", ")}.`);
  return lines.join("\n");
};

export type AuditTools = {
  /** aeo_audit_site: starts an audit of `url`'s site, or reads the audit `audit_id` names. */
  auditSite: (input: AuditToolInput, context: ToolContext) => Promise<ToolAnswer<AuditView>>;
};

/**
 * aeo_audit_site over the audit service: with `url`, the caller's site for its origin (created
 * when new, as POST /api/v1/sites does) gets an audit, answered at once; with `audit_id`, the
 * audit as GET /api/v1/audits/{id} shows it. Start, then poll: an audit takes minutes, longer
 * than a tool call should wait.
 */
export const createAuditTools = ({
  audits,
  sites,
  assertScannable,
}: {
  audits: AuditService;
  sites: SiteService;
  assertScannable: (url: string) => Promise<void>;
}): AuditTools => {
  const auditSite = async (
    input: AuditToolInput,
    { caller, requestId }: ToolContext,
  ): Promise<ToolAnswer<AuditView>> => {
    if ((input.url === undefined) === (input.audit_id === undefined))
      throw new AppError("invalid_request", "Give either url (to start an audit) or audit_id (to read one)", HINT);
    if (input.audit_id !== undefined) {
      const audit = await audits.get(caller.workspaceId, input.audit_id.toLowerCase());
      return { data: audit, summary: summaryOf(audit) };
    }
    const url = normaliseScanUrl(input.url ?? "", "B");
    if (!url.ok) throw new AppError("invalid_request", `url: ${url.reason}`, HINT);
    await assertScannable(url.url);
    const { site } = await sites.create(
      ownerOf(caller),
      { url: url.url, name: undefined },
      actorOfTool(caller, requestId),
    );
    const audit = await audits.create(
      caller,
      site.id,
      { mode: input.mode ?? "full", max_pages: input.max_pages, include: [], exclude: [] },
      requestId,
    );
    return { data: audit, summary: summaryOf(audit) };
  };
  return { auditSite };
};
