import type { CheckResult } from "@scan/contract";
import { failingChecks, formatReport, type Report, table } from "./report";

const check = (overrides: Partial<CheckResult>): CheckResult => ({
  id: "title",
  category: "seo",
  status: "pass",
  score: 6,
  maxScore: 6,
  severity: "critical",
  title: "Title",
  description: "The page has a title.",
  fix: "",
  ...overrides,
});

const report = (overrides: Partial<Report> = {}): Report => ({
  id: "4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11",
  url: "https://example.com/",
  finalUrl: "https://www.example.com/",
  mode: "full",
  status: "completed",
  grade: "B",
  scores: { seo: 80, aeo: 61, geo: 70, overall: 70 },
  checks: [
    check({}),
    check({
      id: "llms-txt",
      category: "geo",
      status: "warn",
      severity: "warning",
      score: 2.5,
      maxScore: 5,
      description: "No llms.txt.",
      fix: "Publish /llms.txt.",
    }),
    check({
      id: "meta-description",
      status: "fail",
      severity: "warning",
      score: 0,
      description: "No description.",
      fix: "Add one.",
    }),
    check({
      id: "https",
      status: "fail",
      severity: "critical",
      score: 0,
      description: "Plain HTTP.",
      fix: "Use HTTPS.",
    }),
    check({ id: "faq", category: "aeo", status: "skip", description: "No FAQ." }),
  ],
  durationMs: 4200,
  error: null,
  ...overrides,
});

describe("the command-line report", () => {
  it("lists failures before warnings, the most severe first, and leaves passes and skips out", () => {
    expect(failingChecks(report().checks).map((c) => c.id)).toEqual(["https", "meta-description", "llms-txt"]);
  });

  it("prints what was scanned, the scores and a table of failing checks with their fixes", () => {
    const text = formatReport(report());
    expect(text).toContain("Scan of https://example.com/ (full, 4.2 s, id 4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11)");
    expect(text).toContain("final URL https://www.example.com/");
    expect(text).toMatch(/SEO\s+80/);
    expect(text).toMatch(/overall\s+70 {2}grade B/);
    expect(text).toContain("Failing checks: 2 failed, 1 warning, of 5");
    expect(text).toMatch(/fail\s+seo\s+critical\s+https\s+0\/6\s+Plain HTTP\./);
    expect(text).toMatch(/warn\s+geo\s+warning\s+llms-txt\s+2\.5\/5\s+No llms\.txt\./);
    expect(text).not.toMatch(/pass\s+seo/);
    expect(text).toContain("  https: Use HTTPS.");
  });

  it("says when every check passed, and marks quick scans as partial", () => {
    const text = formatReport(report({ mode: "quick", checks: [check({})] }));
    expect(text).toContain("All 1 check passed or did not apply.");
    expect(text).toContain("quick scan: 1 core check;");
  });

  it("prints a failed scan's reason", () => {
    const text = formatReport(
      report({
        status: "failed",
        scores: null,
        grade: null,
        checks: [],
        error: { code: "upstream_failure", message: "503" },
      }),
    );
    expect(text).toContain("Failed: 503 (upstream_failure)");
  });

  it("aligns columns", () => {
    expect(
      table(
        [
          ["a", "bb", "c"],
          ["ccc", "d", "e"],
        ],
        "",
      ),
    ).toBe("a    bb  c\nccc  d   e");
  });
});
