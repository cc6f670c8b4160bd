import type { CheckResult } from "@scan/contract";
import { scoreChecks } from "./scorer";

const result = (overrides: Partial<CheckResult>): CheckResult => ({
  id: "x",
  category: "seo",
  status: "pass",
  score: 10,
  maxScore: 10,
  severity: "warning",
  title: "",
  description: "",
  fix: "",
  ...overrides,
});

describe("scoreChecks", () => {
  it("scores each area as earned over possible, skips excluded", () => {
    const card = scoreChecks([
      result({ id: "a", status: "pass", score: 10, maxScore: 10 }),
      result({ id: "b", status: "warn", score: 2.5, maxScore: 5 }),
      result({ id: "c", status: "fail", score: 0, maxScore: 5 }),
      result({ id: "d", status: "skip", score: 0, maxScore: 50 }),
      result({ id: "e", category: "aeo", status: "pass", score: 4, maxScore: 4 }),
      result({ id: "f", category: "geo", status: "fail", score: 0, maxScore: 3 }),
    ]);
    // seo: 12.5 / 20 = 62.5 → 63; aeo 100; geo 0; overall 0.4*63 + 0.3*100 = 55.2 → 55
    expect(card.scores).toEqual({ seo: 63, aeo: 100, geo: 0, overall: 55, total: 55 });
    expect(card.grade).toBe("C");
    expect(card.issues).toEqual({ critical: 0, warning: 3, info: 0 });
  });

  it("rounds a half up on the overall score", () => {
    // seo 85, aeo 84, geo 85: 34 + 25.2 + 25.5 = 84.7 → 85; seo 86 aeo 85 geo 83: 34.4+25.5+24.9 = 84.8
    const at = (seo: number, aeo: number, geo: number) =>
      scoreChecks([
        result({ id: "s", score: seo, maxScore: 100 }),
        result({ id: "a", category: "aeo", score: aeo, maxScore: 100 }),
        result({ id: "g", category: "geo", score: geo, maxScore: 100 }),
      ]).scores.overall;
    expect(at(85, 85, 85)).toBe(85);
    expect(at(95, 95, 94)).toBe(95); // 38 + 28.5 + 28.2 = 94.7
    expect(at(80, 90, 85)).toBe(85); // 32 + 27 + 25.5 = 84.5 rounds up
  });

  it("caps the overall score at 39 when the page is not indexable", () => {
    const card = scoreChecks([
      result({ id: "indexable", status: "fail", score: 0, maxScore: 10, severity: "critical" }),
      result({ id: "title", status: "pass", score: 90, maxScore: 90 }),
      result({ id: "e", category: "aeo", status: "pass", score: 4, maxScore: 4 }),
      result({ id: "f", category: "geo", status: "pass", score: 3, maxScore: 3 }),
    ]);
    expect(card.scores.seo).toBe(90);
    expect(card.scores.overall).toBe(39);
    expect(card.grade).toBe("F");
    expect(card.issues.critical).toBe(1);
  });

  it("treats an area with only skipped checks as having nothing wrong", () => {
    expect(scoreChecks([result({ status: "skip", score: 0 })]).scores.seo).toBe(100);
  });
});
