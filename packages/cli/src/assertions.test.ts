import { PLAIN } from "@scan/reports";
import { checkResult, pageReport } from "@scan/reports/testing";
import { evaluateAssertions, mergeAssertions, readAssertions } from "./assertions";
import { assertionFlags } from "./flags";
import { formatSummary } from "./summary";

const KNOWN = new Set(["title", "llms-txt", "meta-description", "https", "faq-schema", "sitemap"]);
const read = (raw: unknown) => readAssertions(raw, KNOWN, ".aeoscanrc.json");

// scores seo 80, aeo 61, geo 70, overall 70, grade B; https and meta-description fail, llms-txt warns
const page = pageReport();

const outcome = (raw: unknown) =>
  evaluateAssertions(read(raw), page).map((result) => [result.key, result.level, result.passed]);

describe("assertions", () => {
  it("judge area and overall scores against a minimum", () => {
    expect(
      outcome({
        "categories:seo": ["error", { minScore: 80 }],
        "categories:aeo": ["warn", { minScore: 62 }],
        "categories:overall": ["error", { minScore: 71 }],
        "categories:geo": "off",
      }),
    ).toEqual([
      ["categories:seo", "error", true],
      ["categories:aeo", "warn", false],
      ["categories:overall", "error", false],
    ]);
  });

  it("judge the grade against the lowest one allowed", () => {
    expect(outcome({ grade: ["error", { minGrade: "B" }] })).toEqual([["grade", "error", true]]);
    expect(outcome({ grade: ["error", { minGrade: "B+" }] })).toEqual([["grade", "error", false]]);
    expect(evaluateAssertions(read({ grade: ["warn", { minGrade: "A" }] }), page)[0]?.message).toBe(
      "grade B is below A",
    );
  });

  it("require checks to pass, a skipped one passing and a warning only with minScore 0.5", () => {
    expect(
      outcome({
        title: "error",
        https: ["warn"],
        "faq-schema": "error",
        "llms-txt": "error",
        "meta-description": ["error", { minScore: 0.5 }],
      }),
    ).toEqual([
      ["title", "error", true],
      ["https", "warn", false],
      ["faq-schema", "error", true],
      ["llms-txt", "error", false],
      ["meta-description", "error", false],
    ]);
    expect(outcome({ "llms-txt": ["error", { minScore: 0.5 }] })).toEqual([["llms-txt", "error", true]]);
  });

  it("fail a check the scan did not run, saying why for a quick scan", () => {
    const quick = pageReport({ mode: "quick", checks: [checkResult({})] });
    const [result] = evaluateAssertions(read({ sitemap: "error" }), quick);
    expect(result).toMatchObject({ passed: false, actual: "not run" });
    expect(result?.message).toContain("use --mode full");
  });

  it.each([
    [{ "categories:seo": "error" }, 'assertion "categories:seo": write ["error" | "warn", {"minScore": 0-100}]'],
    [{ "categories:seo": ["error", { minScore: 101 }] }, "minScore"],
    [{ "categories:speed": ["error", { minScore: 1 }] }, "the categories are categories:seo"],
    [{ grade: ["error", { minGrade: "E" }] }, 'assertion "grade"'],
    [{ titel: "error" }, 'assertion "titel": no check has this id'],
    [{ title: "fatal" }, 'assertion "title": write "error" | "warn" | "off"'],
    [{ title: ["error", { minScore: 2 }] }, 'assertion "title"'],
    [[], "assertions must be an object"],
  ])("refuse %j, naming the fault", (raw, message) => {
    expect(() => read(raw)).toThrow(message);
  });

  it("let later assertions replace earlier ones with the same key", () => {
    const merged = mergeAssertions(read({ title: "error", https: "error" }), read({ title: "off" }));
    expect(evaluateAssertions(merged, page).map((result) => result.key)).toEqual(["https"]);
  });
});

describe("assertion flags", () => {
  it("become assertions of the error level, --assert at any level", () => {
    expect(
      assertionFlags({
        minScore: ["70", "seo=90"],
        minGrade: "B",
        requireCheck: ["title,https", "h1"],
        assert: ["categories:geo=warn:60", "grade=off", "llms-txt=warn:0.5", "sitemap=error"],
      }),
    ).toEqual({
      "categories:overall": ["error", { minScore: 70 }],
      "categories:seo": ["error", { minScore: 90 }],
      grade: "off",
      title: "error",
      https: "error",
      h1: "error",
      "categories:geo": ["warn", { minScore: 60 }],
      "llms-txt": ["warn", { minScore: 0.5 }],
      sitemap: "error",
    });
  });

  it("refuse an --assert that is not key=level[:value]", () => {
    expect(() => assertionFlags({ assert: ["title"] })).toThrow("--assert title: write key=level");
    expect(() => assertionFlags({ assert: ["title=fatal"] })).toThrow("--assert title=fatal");
  });

  it("leave a threshold that is not a number for the assertion's own check to refuse", () => {
    expect(() => read(assertionFlags({ minScore: ["lots"] }))).toThrow('assertion "categories:overall"');
  });
});

describe("the summary", () => {
  it("lists failed errors, then warnings, and counts the passes", () => {
    const results = evaluateAssertions(
      read({ "categories:seo": ["error", { minScore: 90 }], https: "warn", title: "error" }),
      page,
    );
    expect(formatSummary(results, PLAIN)).toBe(
      [
        "Assertions: 1 error, 1 warning, 1 passed",
        "  error  categories:seo  SEO score 80 is below 90",
        "  warn   https           check https: fail, expected pass: Plain HTTP.",
        "",
      ].join("\n"),
    );
    expect(formatSummary(evaluateAssertions(read({ title: "error" }), page), PLAIN)).toBe("Assertions: all 1 passed\n");
    expect(formatSummary([], PLAIN)).toBe("");
  });
});
