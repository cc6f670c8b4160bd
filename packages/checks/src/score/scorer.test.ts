import type { CheckEvidence, CheckResult, EvidenceGrade } from "@scan/contract";
import { allChecks, checksFor } from "../registry";
import { pointsFor, scoreChecks } from "./scorer";

const graded = (grade: EvidenceGrade): CheckEvidence => ({
  grade,
  source: { title: "t", url: "https://example.com/" },
  checked: "2026-11-27",
});

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
  evidence: graded("documented"),
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

  it("weighs each check's points by its evidence grade: documented 1, peer-reviewed 0.8, industry study 0.5", () => {
    const card = scoreChecks([
      result({ id: "d", category: "geo", status: "pass", score: 10, maxScore: 10 }),
      result({ id: "p", category: "geo", status: "fail", score: 0, maxScore: 10, evidence: graded("peer_reviewed") }),
      result({ id: "i", category: "geo", status: "fail", score: 0, maxScore: 10, evidence: graded("industry_study") }),
    ]);
    // 10 / (10 + 8 + 5) = 43.5 %; unweighted it would be 10 / 30 = 33 %
    expect(card.scores.geo).toBe(43);
    const equal = { documented: 1, peer_reviewed: 1, industry_study: 1, convention: 1 };
    expect(
      scoreChecks(
        [
          result({ id: "d", category: "geo", status: "pass", score: 10, maxScore: 10 }),
          result({
            id: "p",
            category: "geo",
            status: "fail",
            score: 0,
            maxScore: 10,
            evidence: graded("peer_reviewed"),
          }),
          result({
            id: "i",
            category: "geo",
            status: "fail",
            score: 0,
            maxScore: 10,
            evidence: graded("industry_study"),
          }),
        ],
        equal,
      ).scores.geo,
    ).toBe(33);
  });

  it("never lets a convention-only check move a score, whatever its verdict", () => {
    const withConvention = (status: "pass" | "warn" | "fail" | "skip") =>
      scoreChecks([
        result({ id: "a", status: "warn", score: 5, maxScore: 10 }),
        result({ id: "c", status, score: pointsFor(status, 20), maxScore: 20, evidence: graded("convention") }),
      ]);
    const scores = (["pass", "warn", "fail", "skip"] as const).map((status) => withConvention(status).scores);
    for (const s of scores) expect(s).toEqual(scores[0]);
    expect(scores[0]?.seo).toBe(50);
    // it still counts as an issue: the report shows its verdict
    expect(withConvention("fail").issues.warning).toBe(2);
  });

  it("takes the catalogue's grade for a result stored without one", () => {
    // llms-txt is convention in the catalogue: failing it changes nothing
    const stored = (status: "pass" | "fail") =>
      scoreChecks([
        result({ id: "title", status: "pass", score: 8, maxScore: 8, evidence: undefined }),
        result({
          id: "llms-txt",
          category: "geo",
          status,
          score: pointsFor(status, 5),
          maxScore: 5,
          evidence: undefined,
        }),
        result({ id: "author", category: "geo", status: "pass", score: 3, maxScore: 3, evidence: undefined }),
      ]).scores;
    expect(stored("fail")).toEqual(stored("pass"));
    expect(stored("fail").geo).toBe(100);
    expect(() => scoreChecks([result({ id: "no-such-check", evidence: undefined })])).toThrow(/no evidence grade/);
  });

  it("scores a real page the same whatever its convention-only checks say", () => {
    const conventions = allChecks.filter((check) => check.quick && check.id === "llms-txt");
    expect(conventions).toHaveLength(1);
    const page = (conventionStatus: "pass" | "fail") =>
      checksFor("quick").map((check) => {
        const convention = check.id === "llms-txt" || check.id === "title-length" || check.id === "qa-content";
        const status = convention ? conventionStatus : "pass";
        return result({
          id: check.id,
          category: check.category,
          severity: check.severity,
          status,
          score: pointsFor(status, check.maxScore),
          maxScore: check.maxScore,
          evidence: undefined,
        });
      });
    expect(scoreChecks(page("fail")).scores).toEqual(scoreChecks(page("pass")).scores);
    expect(scoreChecks(page("fail")).scores.overall).toBe(100);
  });
});
