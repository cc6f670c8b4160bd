import type { CheckResult } from "@scan/contract";
import { topProblems } from "./top-problems";

const check = (id: string, overrides: Partial<CheckResult>): CheckResult => ({
  id,
  category: "seo",
  status: "fail",
  score: 0,
  maxScore: 5,
  severity: "warning",
  title: id,
  description: "",
  fix: "",
  ...overrides,
});

describe("topProblems", () => {
  it("ranks by severity, then by the points lost, then in catalogue order", () => {
    const checks = [
      check("passes", { status: "pass", score: 5, severity: "critical" }),
      check("skipped", { status: "skip", severity: "critical" }),
      check("info-heavy", { severity: "info", maxScore: 20 }),
      check("warning-small", { maxScore: 3 }),
      check("warning-big", { maxScore: 10 }),
      check("warning-half", { status: "warn", score: 5, maxScore: 10 }),
      check("critical", { severity: "critical", maxScore: 1 }),
    ];
    expect(topProblems(checks, 3).map((c) => c.id)).toEqual(["critical", "warning-big", "warning-half"]);
    expect(topProblems(checks, 10).map((c) => c.id)).toEqual([
      "critical",
      "warning-big",
      "warning-half",
      "warning-small",
      "info-heavy",
    ]);
  });

  it("keeps catalogue order between equal problems, and answers fewer when fewer fail", () => {
    const checks = [check("b", {}), check("a", {}), check("ok", { status: "pass", score: 5 })];
    expect(topProblems(checks, 3).map((c) => c.id)).toEqual(["b", "a"]);
    expect(topProblems([], 3)).toEqual([]);
  });

  it("puts the problems that move the score first, and weighs the points lost by evidence grade", () => {
    const graded = (grade: NonNullable<CheckResult["evidence"]>["grade"]) => ({
      evidence: { grade, source: null, checked: null },
    });
    const checks = [
      check("convention-critical", { severity: "critical", maxScore: 20, ...graded("convention") }),
      check("study-big", { maxScore: 10, ...graded("industry_study") }),
      check("documented-smaller", { maxScore: 6, ...graded("documented") }),
      check("peer-reviewed", { maxScore: 7, ...graded("peer_reviewed") }),
      check("ungraded", { maxScore: 4 }),
    ];
    // points lost, weighed: 6 × 1.0, 7 × 0.8, 10 × 0.5; an ungraded result counts fully (4)
    expect(topProblems(checks, 10).map((c) => c.id)).toEqual([
      "documented-smaller",
      "peer-reviewed",
      "study-big",
      "ungraded",
      "convention-critical",
    ]);
  });
});
