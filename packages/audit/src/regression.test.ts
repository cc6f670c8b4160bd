import type { SiteReport } from "@scan/contract";
import { regressionOf } from "./regression";

const report = (overall: number, grade: SiteReport["grade"], change: Partial<SiteReport> = {}): SiteReport => ({
  partial: false,
  scores: { seo: overall, aeo: overall, geo: overall, overall, total: overall },
  grade,
  issues: { critical: 0, warning: 0, info: 0 },
  pages_judged: 2,
  site_checks: [],
  page_checks: [],
  worst_pages: [],
  discovery: null,
  ...change,
});

const siteCheck = (status: "pass" | "fail", urls: string[] = []) => ({
  id: "broken-internal-links",
  category: "seo" as const,
  status,
  score: 0,
  maxScore: 8,
  severity: "critical" as const,
  title: "Internal links lead to pages that answer",
  description: "",
  fix: "",
  findings: urls.map((url) => ({ url, detail: "answers 404", pages: ["https://a.example/"] })),
  findings_total: urls.length,
});

const pageCheck = (pass: number, fail: number) => ({
  id: "title",
  category: "seo" as const,
  severity: "critical" as const,
  title: "Page has a title",
  pages: pass + fail,
  pass,
  warn: 0,
  fail,
  skip: 0,
  pass_rate: pass / (pass + fail),
});

describe("regressionOf", () => {
  it("finds a score fall of the threshold or more, and a lower grade", () => {
    expect(regressionOf(report(80, "B+"), report(75, "B+"), 5).reasons).toEqual([
      { kind: "score_drop", points: 5, before: 80, after: 75 },
    ]);
    expect(regressionOf(report(80, "B+"), report(76, "B+"), 5).reasons).toEqual([]);
    expect(regressionOf(report(75, "B+"), report(74, "B"), 5).reasons).toEqual([
      { kind: "grade_lower", before: "B+", after: "B" },
    ]);
    // better is never a regression
    expect(regressionOf(report(60, "C"), report(90, "A"), 1).reasons).toEqual([]);
  });

  it("names checks that passed before and fail now, with their pages", () => {
    const before = report(80, "B+", { site_checks: [siteCheck("pass")], page_checks: [pageCheck(2, 0)] });
    const after = report(80, "B+", {
      site_checks: [siteCheck("fail", ["https://a.example/gone"])],
      page_checks: [pageCheck(1, 1)],
    });
    const { reasons, pageChecksFailing } = regressionOf(before, after, 5);
    expect(reasons).toEqual([
      {
        kind: "check_failing",
        scope: "site",
        check: "broken-internal-links",
        title: "Internal links lead to pages that answer",
        pages: ["https://a.example/gone", "https://a.example/"],
      },
      { kind: "check_failing", scope: "page", check: "title", title: "Page has a title", pages: [] },
    ]);
    expect(pageChecksFailing).toEqual(["title"]);
    // a check that was failing already is no news
    expect(regressionOf(after, after, 5).reasons).toEqual([]);
  });
});
