import type { AuditPageView, ScanMode, SiteReport } from "@scan/contract";
import { type PageReport, pageOfAuditPage } from "./page-report";
import type { PageReader } from "./paged-document";

/**
 * A completed audit as its SARIF and JUnit exports read it: the site report (site checks with
 * their findings, page checks' pass rates, scores and grade) and the pages it speaks of, the
 * judged pages with their checks and the pages whose scan failed, in the order they were found.
 */
export type AuditExport = {
  id: string;
  /** where the crawl started: the site's origin and `/` */
  url: string;
  mode: ScanMode;
  completedAt: string | null;
  report: SiteReport;
  pages: readonly PageReport[];
};

/** An audit's export without its pages: what its file is written around. */
export type AuditExportHead = Omit<AuditExport, "pages">;

/**
 * An audit's export whose pages are read as its file is written, once or more (a pass at a
 * time), so that the file's size does not bound what it costs to make.
 */
export type AuditExportStream = AuditExportHead & { pages: PageReader };

/** A judged page whose check list retention dropped: the audit can no longer be exported page by page. */
export const checksPruned = (page: Pick<AuditPageView, "judged" | "checks">): boolean =>
  page.judged && page.checks === null;

/**
 * The export of a completed audit from what the API answers: the audit (with its report) and
 * its pages (GET /api/v1/audits/:id/pages). Throws a RangeError when the audit has no report or
 * a judged page's checks were pruned (ask `checksPruned` first to say so to the user).
 */
export const auditExportOf = (
  audit: { id: string; url: string; mode: ScanMode; completed_at: string | null; report: SiteReport | null },
  pages: Iterable<AuditPageView>,
): AuditExport => {
  if (!audit.report) throw new RangeError(`audit ${audit.id} has no report: only a completed audit is exported`);
  const exported: PageReport[] = [];
  for (const page of pages) {
    const report = pageOfAuditPage(page, audit.mode);
    if (report) exported.push(report);
  }
  return {
    id: audit.id,
    url: audit.url,
    mode: audit.mode,
    completedAt: audit.completed_at,
    report: audit.report,
    pages: exported,
  };
};

/**
 * The pages an audit's export shows (see `pageOfAuditPage`), from its pages as the API gives
 * them, as they come. Throws a RangeError at a judged page whose checks were pruned.
 */
export async function* exportedPagesOf(
  pages: AsyncIterable<AuditPageView>,
  mode: ScanMode,
): AsyncGenerator<PageReport> {
  for await (const page of pages) {
    const report = pageOfAuditPage(page, mode);
    if (report) yield report;
  }
}
