import type { SiteCheckResult } from "@scan/contract";
import { auditIssues, filterIssues, type IssueCounts, issuesCsv, siteCheckIssuePages } from "./issues";

const pageCheck = (
  id: string,
  fail: number,
  warn = 0,
  severity: "critical" | "warning" | "info" = "warning",
  category: "seo" | "aeo" | "geo" = "seo",
) => ({ id, title: `The ${id} check`, category, severity, fail, warn });

const brokenLinks = (status: "pass" | "fail", targets: string[]): SiteCheckResult => ({
  id: "broken-internal-links",
  category: "seo",
  status,
  score: 0,
  maxScore: 8,
  severity: "critical",
  title: "Internal links lead to pages that answer",
  description: "",
  fix: "",
  findings: targets.map((url) => ({ url, detail: `${url} answers 404`, pages: ["https://a.example/", url] })),
  findings_total: targets.length,
});

const counts = (change: Partial<IssueCounts>): IssueCounts => ({
  pagesJudged: 4,
  pageChecks: [],
  siteChecks: [],
  ...change,
});

describe("auditIssues", () => {
  it("rolls up failing and warning checks with their pages and share, most severe and widest first", () => {
    const issues = auditIssues(
      counts({
        pageChecks: [
          pageCheck("meta-description", 3),
          pageCheck("title", 1, 0, "critical"),
          pageCheck("faq", 0, 2, "info", "aeo"),
          pageCheck("lang", 0),
        ],
        siteChecks: [brokenLinks("fail", ["https://a.example/gone"])],
      }),
      null,
      { siteChecksRan: true },
    );
    expect(issues.map((issue) => [issue.check, issue.pages, issue.share, issue.state])).toEqual([
      ["broken-internal-links", 2, 0.5, null],
      ["title", 1, 0.25, null],
      ["meta-description", 3, 0.75, null],
      ["faq", 2, 0.5, null],
    ]);
    expect(issues[0]).toMatchObject({ scope: "site", findings: 1, previous_pages: null });
    expect(issues[2]).toMatchObject({ scope: "page", findings: null, category: "seo" });
  });

  it("says new, persisting and fixed against the previous audit", () => {
    const previous = counts({
      pageChecks: [pageCheck("title", 2, 0, "critical"), pageCheck("meta-description", 1)],
      siteChecks: [brokenLinks("fail", ["https://a.example/gone"])],
    });
    const current = counts({
      pageChecks: [pageCheck("title", 0, 0, "critical"), pageCheck("meta-description", 3), pageCheck("h1", 1)],
      siteChecks: [brokenLinks("pass", [])],
    });
    const issues = auditIssues(current, previous, { siteChecksRan: true });
    expect(issues.map((issue) => [issue.check, issue.state, issue.pages, issue.previous_pages])).toEqual([
      ["meta-description", "persisting", 3, 1],
      ["h1", "new", 1, null],
      ["broken-internal-links", "fixed", 0, 2],
      ["title", "fixed", 0, 2],
    ]);
    // under way: the site checks have not run, so they are not called fixed
    const underWay = auditIssues({ ...current, siteChecks: [] }, previous, { siteChecksRan: false });
    expect(underWay.map((issue) => issue.check)).toEqual(["meta-description", "h1", "title"]);
    expect(filterIssues(issues, { state: "fixed", severity: "critical" }).map((issue) => issue.check)).toEqual([
      "broken-internal-links",
      "title",
    ]);
    expect(filterIssues(issues, { category: "aeo" })).toEqual([]);
  });

  it("has no share when no page was judged", () => {
    const [issue] = auditIssues(
      counts({ pagesJudged: 0, siteChecks: [brokenLinks("fail", ["https://a.example/x"])] }),
      null,
      { siteChecksRan: true },
    );
    expect(issue?.share).toBeNull();
  });
});

describe("siteCheckIssuePages", () => {
  it("lists a site check's findings, those matching q in any case", () => {
    const check = brokenLinks("fail", ["https://a.example/gone", "https://a.example/old"]);
    expect(siteCheckIssuePages(check, undefined)).toHaveLength(2);
    expect(siteCheckIssuePages(check, "OLD")).toEqual([
      {
        url: "https://a.example/old",
        status: "fail",
        finding: "https://a.example/old answers 404",
        related: ["https://a.example/", "https://a.example/old"],
        page_id: null,
      },
    ]);
  });
});

describe("issuesCsv", () => {
  it("writes a row per issue", () => {
    const csv = issuesCsv(auditIssues(counts({ pageChecks: [pageCheck("title", 1)] }), null, { siteChecksRan: true }));
    expect(csv.split("\r\n")).toEqual([
      "\uFEFFcheck,scope,title,category,severity,state,pages,share,previous_pages,findings",
      "title,page,The title check,seo,warning,,1,0.25,,",
      "",
    ]);
  });
});
