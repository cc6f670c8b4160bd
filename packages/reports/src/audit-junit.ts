import type { SiteCheckResult } from "@scan/contract";
import type { AuditExport, AuditExportHead, AuditExportStream } from "./audit-export";
import {
  countsOf,
  JUNIT_HEAD,
  JUNIT_TAIL,
  type Properties,
  pageSuites,
  type Suite,
  suiteXml,
  testcaseXml,
} from "./junit-suites";
import { AREA_LABEL, AREAS, type ToolInfo } from "./page-report";
import { type PagedDocument, renderPaged, streamPaged } from "./paged-document";

const detailsOf = (check: SiteCheckResult): string => {
  const findings = check.findings.map(
    (finding) =>
      `- ${finding.url}: ${finding.detail}${finding.pages.length > 0 ? `\n  pages: ${finding.pages.join(" ")}` : ""}`,
  );
  return [
    check.description,
    `Status: ${check.status}; severity: ${check.severity}; points: ${check.score}/${check.maxScore}.`,
    findings.length > 0
      ? `Findings (${check.findings.length} of ${check.findings_total}):\n${findings.join("\n")}`
      : "",
    check.fix ? `Fix: ${check.fix}` : "",
  ]
    .filter(Boolean)
    .join("\n");
};

/**
 * A completed audit as one JUnit XML document (junit-suites.ts says which schemas it meets).
 *
 * First the site checks, one suite per area (`SEO site checks of <url>`) with a test case per
 * site check (classname `aeo-scan.site.<area>`): a failing one has a `failure` whose text lists
 * its findings with the pages involved, one that did not apply is `skipped`; the suites carry
 * the site's scores and grade as properties. Then each exported page as a scan export shows
 * it: a suite per area with a test case per page check, each test case named with the page's
 * URL (`title: Page has a title (https://example.com/about)`), since reporters list test cases
 * by name; a page whose scan failed is one test case in `error`.
 *
 * Written page by page (paged-document.ts), in one pass: the root `testsuites` carries no
 * totals (JUNIT_HEAD), so nothing is counted before the pages.
 */
function* auditJunitDocument(audit: AuditExportHead, tool: ToolInfo): PagedDocument {
  const { report } = audit;
  const properties: Properties = [
    ["tool", `${tool.name} ${tool.version}`],
    ["url", audit.url],
    ["audit_id", audit.id],
    ["mode", audit.mode],
    ["grade", report.grade],
    ["score_seo", report.scores.seo],
    ["score_aeo", report.scores.aeo],
    ["score_geo", report.scores.geo],
    ["score_overall", report.scores.overall],
    ["pages_judged", report.pages_judged],
  ];
  const siteSuites: Suite[] = AREAS.map((area) => {
    const checks = report.site_checks.filter((check) => check.category === area);
    return {
      name: `${AREA_LABEL[area]} site checks of ${audit.url}`,
      timestamp: audit.completedAt,
      properties,
      cases: checks
        .map((check) =>
          testcaseXml({
            name: `${check.id}: ${check.title}`,
            classname: `aeo-scan.site.${check.category}`,
            status: check.status,
            message: check.description,
            details: detailsOf(check),
          }),
        )
        .join(""),
      counts: countsOf(checks),
      timeMs: 0,
      out: `Site ${AREA_LABEL[area]} score ${report.scores[area]} of 100; overall ${report.scores.overall}, grade ${report.grade} (${audit.mode} audit, ${report.pages_judged} pages judged)`,
    };
  }).filter((suite) => suite.counts.tests > 0);
  // the suites are numbered from 0 in order, the pages' after the site's
  let id = 0;
  yield JUNIT_HEAD;
  yield siteSuites.map((suite) => suiteXml(suite, id++)).join("");
  yield {
    checks: true,
    page: (page) =>
      pageSuites(page, tool, { pageInName: true })
        .map((suite) => suiteXml(suite, id++))
        .join(""),
  };
  yield JUNIT_TAIL;
}

/** The audit's JUnit XML as one string, its pages in memory. */
export const renderAuditJunit = (audit: AuditExport, tool: ToolInfo): string =>
  renderPaged(auditJunitDocument(audit, tool), audit.pages);

/** The audit's JUnit XML in parts as it is written, its pages read as it goes: the same text as `renderAuditJunit`. */
export const streamAuditJunit = (audit: AuditExportStream, tool: ToolInfo): AsyncGenerator<string> =>
  streamPaged(auditJunitDocument(audit, tool), audit.pages);
