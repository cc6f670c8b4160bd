import type { SiteCheckResult, SiteFinding } from "@scan/contract";
import type { AuditExport } from "./audit-export";
import type { ToolInfo } from "./page-report";
import {
  FINGERPRINT_KEY,
  failureNotifications,
  fingerprintOf,
  levelOf,
  locationAt,
  pageArtifact,
  pageResults,
  ruleSet,
  type SarifLocations,
  sarifLog,
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
 */
export const renderAuditSarif = (
  audit: AuditExport,
  tool: ToolInfo,
  { locations = "url" }: { locations?: SarifLocations } = {},
): string => {
  const { report, pages } = audit;
  const rules = ruleSet();
  for (const page of pages) for (const check of page.checks) rules.add(check, "page");
  for (const check of report.site_checks) rules.add(check, "site");
  const artifactOf = new Map(pages.map((page, index) => [page.url, index]));

  const siteResults = report.site_checks
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

  return sarifLog(tool, rules, {
    invocation: {
      executionSuccessful: true,
      toolExecutionNotifications: pages.flatMap((page, index) => failureNotifications(page, index, locations)),
    },
    artifacts: pages.map((page) => pageArtifact(page, locations)),
    results: [...pages.flatMap((page, index) => pageResults(page, index, rules, locations)), ...siteResults],
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
};
