import type { SiteCheckResult, SiteFinding, SiteReport } from "@scan/contract";
import type { AuditExport, AuditExportHead, AuditExportStream } from "./audit-export";
import type { ToolInfo } from "./page-report";
import { type PagedDocument, renderPaged, streamPaged } from "./paged-document";
import { sarifLogInParts } from "./sarif-log";
import {
  FINGERPRINT_KEY,
  failureNotifications,
  fingerprintOf,
  levelOf,
  locationAt,
  pageArtifact,
  pageResults,
  type RuleSet,
  ruleSet,
  type SarifLocations,
} from "./sarif-run";

/** pages named in a site finding's message; all of them (at most 50) are its related locations */
const PAGES_IN_MESSAGE = 10;

const siteMessage = (check: SiteCheckResult, finding: SiteFinding): string => {
  const shown = finding.pages.slice(0, PAGES_IN_MESSAGE).join(", ");
  const more = finding.pages.length > PAGES_IN_MESSAGE ? ` and ${finding.pages.length - PAGES_IN_MESSAGE} more` : "";
  return [
    `${finding.url}: ${finding.detail}.`,
    finding.pages.length > 0 ? `Pages: ${shown}${more}.` : "",
    check.fix ? `Fix: ${check.fix}` : "",
  ]
    .filter(Boolean)
    .join(" ");
};

/**
 * A completed audit as one SARIF 2.1.0 log with one run, as the scan export is made
 * (sarif.ts): the driver's rules are the page checks the pages ran and the site checks
 * (`properties.scope` `page` or `site`); each exported page (judged, or failed) is an analysis
 * target among the artifacts; each page check that failed or warned on a page is a result
 * located at that page, with the same fingerprint a scan of the page would give it; each
 * finding of a failing site check is a result located at the finding's URL, the pages involved
 * as related locations, fingerprinted by check, URL and finding. A page whose scan failed is an
 * error notification; the run's invocation is still successful, since the audit completed.
 * The site's scores and grade are the run's properties.
 *
 * Written page by page (paged-document.ts): a first pass gathers the rules from the pages'
 * checks, which come before everything else, whether a page failed, and where the pages the
 * site findings name stand; then a pass writes the notifications (when a page failed), one the
 * artifacts and one the results. Only the two that read checks need them.
 */
function* auditSarifDocument(
  audit: AuditExportHead,
  tool: ToolInfo,
  { locations = "url" }: { locations?: SarifLocations },
): PagedDocument {
  const { report } = audit;
  const rules = ruleSet();
  // the pages the site findings name: their artifacts' indexes, the last page of a URL winning
  const named = new Set(report.site_checks.flatMap((check) => check.findings.flatMap((f) => [f.url, ...f.pages])));
  const artifactOf = new Map<string, number>();
  let failed = false;
  yield {
    checks: true,
    page: (page, index) => {
      for (const check of page.checks) rules.add(check, "page");
      if (page.status === "failed") failed = true;
      if (named.has(page.url)) artifactOf.set(page.url, index);
      return "";
    },
  };
  for (const check of report.site_checks) rules.add(check, "site");

  const log = sarifLogInParts(tool, rules, {
    executionSuccessful: true,
    notifications: failed,
    properties: {
      auditId: audit.id,
      url: audit.url,
      mode: audit.mode,
      partial: report.partial,
      grade: report.grade,
      scores: report.scores,
      issues: report.issues,
      pagesJudged: report.pages_judged,
      completedAt: audit.completedAt,
    },
  });
  const notifications = log.toolExecutionNotifications;
  if (notifications) {
    yield notifications.before;
    yield {
      checks: false,
      page: (page, index) => failureNotifications(page, index, locations).map(notifications.item).join(""),
    };
    yield notifications.end();
  }
  yield log.artifacts.before;
  yield { checks: false, page: (page) => log.artifacts.item(pageArtifact(page, locations)) };
  yield log.artifacts.end();
  yield log.results.before;
  yield {
    checks: true,
    page: (page, index) => pageResults(page, index, rules, locations).map(log.results.item).join(""),
  };
  yield siteResults(report, rules, artifactOf, locations).map(log.results.item).join("");
  yield log.results.end();
  yield log.tail;
}

/** Each finding of a failing or warning site check, as a result. */
const siteResults = (
  report: SiteReport,
  rules: RuleSet,
  artifactOf: ReadonlyMap<string, number>,
  locations: SarifLocations,
) =>
  report.site_checks
    .filter((check) => check.status === "fail" || check.status === "warn")
    .flatMap((check) =>
      check.findings.map((finding) => ({
        ruleId: check.id,
        ruleIndex: rules.indexOf(check.id),
        kind: "fail",
        level: levelOf(check),
        message: { text: siteMessage(check, finding) },
        locations: [locationAt(finding.url, locations, artifactOf.get(finding.url))],
        ...(finding.pages.length > 0
          ? {
              relatedLocations: finding.pages.map((url, id) => ({
                id,
                ...locationAt(url, locations, artifactOf.get(url)),
                message: { text: `a page involved: ${url}` },
              })),
            }
          : {}),
        partialFingerprints: {
          [FINGERPRINT_KEY]: fingerprintOf({ id: check.id, description: finding.detail }, finding.url),
        },
        properties: {
          scope: "site",
          status: check.status,
          severity: check.severity,
          score: check.score,
          maxScore: check.maxScore,
          url: finding.url,
          pages: finding.pages,
          ...(check.fix ? { fix: check.fix } : {}),
        },
      })),
    );

/** The audit's SARIF log as one string, its pages in memory. */
export const renderAuditSarif = (
  audit: AuditExport,
  tool: ToolInfo,
  options: { locations?: SarifLocations } = {},
): string => renderPaged(auditSarifDocument(audit, tool, options), audit.pages);

/** The audit's SARIF log in parts as it is written, its pages read as it goes: the same text as `renderAuditSarif`. */
export const streamAuditSarif = (
  audit: AuditExportStream,
  tool: ToolInfo,
  options: { locations?: SarifLocations } = {},
): AsyncGenerator<string> => streamPaged(auditSarifDocument(audit, tool, options), audit.pages);
