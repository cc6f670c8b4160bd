import type { AuditPageView } from "@scan/contract";
import { auditExportOf, checksPruned } from "./audit-export";
import { renderAuditJunit } from "./audit-junit";
import { renderAuditSarif } from "./audit-sarif";
import { renderJunit } from "./junit";
import { renderSarif } from "./sarif";
import { FINGERPRINT_KEY, fingerprintOf } from "./sarif-run";
import { auditExport, checkResult, pageReport, siteCheckResult, siteReport } from "./testing";

const TOOL = { name: "aeo-scan", version: "1.2.3" };

type Json = Record<string, any>;

const view = (overrides: Partial<AuditPageView>): AuditPageView => ({
  id: "6c0e5a1e-9d3b-4d8a-8b57-3f0f2a1c9e01",
  url: "https://example.com/",
  depth: 0,
  in_sitemap: true,
  status: "scanned",
  http_status: 200,
  final_url: "https://example.com/",
  judged: true,
  scores: { seo: 80, aeo: 70, geo: 60, overall: 71, total: 71 },
  grade: "B",
  issues: { critical: 0, warning: 0, info: 0 },
  checks: [checkResult({})],
  error: null,
  scanned_at: "2025-03-01T10:00:00.000Z",
  ...overrides,
});

const audit = {
  id: "a",
  url: "https://example.com/",
  mode: "quick" as const,
  completed_at: null,
  report: siteReport(),
};

describe("an audit's export from the API's answers", () => {
  it("keeps the judged pages with their checks and the failed pages, in order, and leaves the rest out", () => {
    const exported = auditExportOf(audit, [
      view({}),
      view({ url: "https://example.com/moved", judged: false, http_status: 200, final_url: "https://example.com/" }),
      view({ url: "https://example.com/gone", judged: false, http_status: 404 }),
      view({ url: "https://example.com/private", status: "blocked", judged: false, http_status: null, checks: null }),
      view({
        url: "https://example.com/down",
        status: "failed",
        judged: false,
        http_status: 503,
        checks: null,
        error: "answered 503",
      }),
      view({
        url: "https://example.com/refused",
        status: "failed",
        judged: false,
        http_status: null,
        checks: null,
        error: null,
      }),
    ]);
    expect(exported.pages.map((page) => [page.url, page.status, page.mode])).toEqual([
      ["https://example.com/", "completed", "quick"],
      ["https://example.com/down", "failed", "quick"],
      ["https://example.com/refused", "failed", "quick"],
    ]);
    expect(exported.pages[0]).toMatchObject({
      id: null,
      grade: "B",
      scores: { seo: 80, overall: 71 },
      checks: [{ id: "title" }],
    });
    expect(exported.pages[1]?.error).toEqual({ code: "http_503", message: "answered 503" });
    expect(exported.pages[2]?.error).toEqual({ code: "page_failed", message: "The page's scan did not complete" });
  });

  it("refuses an audit without a report, and a judged page whose checks were pruned", () => {
    expect(() => auditExportOf({ ...audit, report: null }, [])).toThrow(RangeError);
    const pruned = view({ checks: null });
    expect(checksPruned(pruned)).toBe(true);
    expect(checksPruned(view({ judged: false, checks: null }))).toBe(false);
    expect(() => auditExportOf(audit, [pruned])).toThrow(/pruned/);
  });
});

describe("an audit as SARIF", () => {
  const log = JSON.parse(renderAuditSarif(auditExport(), TOOL));
  const run = log.runs[0];

  it("has a rule per page check and per site check, each saying its scope", () => {
    expect(run.tool.driver.rules.map((rule: Json) => [rule.id, rule.properties.scope])).toEqual([
      ["title", "page"],
      ["https", "page"],
      ["broken-internal-links", "site"],
      ["duplicate-titles", "site"],
      ["llms-txt-links", "site"],
    ]);
    expect(run.tool.driver.rules[2].fullDescription.text).toContain("site-wide SEO check of critical severity");
    expect(run.properties).toMatchObject({
      auditId: auditExport().id,
      grade: "C",
      scores: { overall: 65 },
      pagesJudged: 2,
    });
  });

  it("reports a failing page check at its page, fingerprinted as a scan of that page would be", () => {
    const page = run.results.filter((result: Json) => result.ruleId === "https");
    expect(page).toHaveLength(1);
    expect(page[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: "https://example.com/about",
      index: 1,
    });
    const scanned = JSON.parse(renderSarif([auditExport().pages[1] as never], TOOL)).runs[0].results[0];
    expect(page[0].partialFingerprints).toEqual(scanned.partialFingerprints);
    expect(page[0].ruleIndex).toBe(1);
  });

  it("reports each finding of a failing site check at its URL, with the pages involved", () => {
    const site = run.results.filter((result: Json) => result.ruleId === "broken-internal-links");
    expect(site.map((result: Json) => result.locations[0].physicalLocation.artifactLocation)).toEqual([
      { uri: "https://example.com/gone" },
      // the failed page is an artifact: the finding points at it
      { uri: "https://example.com/down", index: 2 },
    ]);
    expect(site[0]).toMatchObject({ level: "error", ruleIndex: 2, properties: { scope: "site" } });
    expect(site[0].message.text).toBe(
      "https://example.com/gone: linked from 2 page(s) and answers 404. Pages: https://example.com/, https://example.com/about. Fix: Point each link at a page that answers 200.",
    );
    expect(
      site[0].relatedLocations.map((location: Json) => [location.id, location.physicalLocation.artifactLocation]),
    ).toEqual([
      [0, { uri: "https://example.com/", index: 0 }],
      [1, { uri: "https://example.com/about", index: 1 }],
    ]);
    expect(site[0].partialFingerprints[FINGERPRINT_KEY]).toBe(
      fingerprintOf(
        { id: "broken-internal-links", description: "linked from 2 page(s) and answers 404" },
        "https://example.com/gone",
      ),
    );
    // passing and skipped site checks have no result
    expect(run.results.map((result: Json) => result.ruleId)).not.toContain("duplicate-titles");
  });

  it("keeps a site finding's fingerprint when only its numbers change, and not when its URL does", () => {
    const fingerprints = (detail: string, url = "https://example.com/gone") => {
      const report = siteReport({ site_checks: [siteCheckResult({ findings: [{ url, detail, pages: [] }] })] });
      const again = JSON.parse(renderAuditSarif(auditExport({ report, pages: [] }), TOOL));
      return again.runs[0].results[0].partialFingerprints[FINGERPRINT_KEY];
    };
    const first = fingerprints("linked from 2 page(s) and answers 404");
    expect(fingerprints("linked from 7 page(s) and answers 404")).toBe(first);
    expect(fingerprints("linked from 2 page(s) and answers 404", "https://example.com/other")).not.toBe(first);
  });

  it("says a failed page in a notification, and the audit's run is still successful", () => {
    expect(run.invocations[0].executionSuccessful).toBe(true);
    expect(run.invocations[0].toolExecutionNotifications).toEqual([
      expect.objectContaining({
        level: "error",
        message: { text: "The scan of https://example.com/down failed: The page answered 503" },
        properties: { code: "http_503" },
      }),
    ]);
  });

  it("locates results without the scheme for GitHub code scanning", () => {
    const github = JSON.parse(renderAuditSarif(auditExport(), TOOL, { locations: "github" })).runs[0];
    const uris = JSON.stringify(github.results);
    expect(uris).not.toContain('"uri":"https:');
    expect(github.results.at(-1).locations[0].physicalLocation.artifactLocation.uri).toBe("example.com/down");
    expect(github.artifacts[1].properties.url).toBe("https://example.com/about");
  });
});

describe("an audit as JUnit XML", () => {
  const xml = renderAuditJunit(auditExport(), TOOL);
  const suites = [
    ...xml.matchAll(/<testsuite name="([^"]+)"[^>]* tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/g),
  ].map((match) => match.slice(1).join(" "));

  it("has the site checks' suites first, then each page's, then the failed page", () => {
    expect(suites).toEqual([
      "SEO site checks of https://example.com/ 2 1 0 0",
      "GEO site checks of https://example.com/ 1 0 0 1",
      "SEO checks of https://example.com/ 1 0 0 0",
      "SEO checks of https://example.com/about 2 1 0 0",
      "Scan of https://example.com/down 1 0 1 0",
    ]);
    expect(xml).toContain('<property name="audit_id" value="0f8e5c1a-3b7d-4e29-a1c4-6d2b9e7f4a10"/>');
    expect(xml).toContain('<property name="score_overall" value="65"/>');
  });

  it("fails a failing site check listing its findings and the pages involved", () => {
    expect(xml).toContain(
      '<testcase name="broken-internal-links: Internal links lead to pages that answer" classname="aeo-scan.site.seo" time="0">',
    );
    expect(xml).toContain(
      "Findings (2 of 2):\n- https://example.com/gone: linked from 2 page(s) and answers 404\n  pages: https://example.com/ https://example.com/about\n- https://example.com/down",
    );
    expect(xml).toMatch(
      /<testcase name="llms-txt-links: Links in llms.txt answer" classname="aeo-scan.site.geo" time="0">\n\s+<skipped /,
    );
  });

  it("names the page in each page check's test case", () => {
    expect(xml).toContain(
      '<testcase name="https: Page is served over HTTPS (https://example.com/about)" classname="aeo-scan.seo"',
    );
    expect(xml).toContain('<testcase name="scan (https://example.com/down)" classname="aeo-scan"');
    // a scan's own export, of one page, keeps its names bare
    expect(renderJunit([pageReport()], TOOL)).toContain('<testcase name="https: Page is served over HTTPS" ');
  });

  it("names a failed render among a scan's properties, and leaves the property out when the page rendered", () => {
    const renderFailure = { code: "parse_unfinished" as const, message: "The browser had not finished parsing." };
    expect(renderJunit([pageReport({ renderFailure })], TOOL)).toContain(
      '<property name="render_failure" value="parse_unfinished"/>',
    );
    expect(renderJunit([pageReport()], TOOL)).not.toContain('name="render_failure"');
  });
});
