import type { AuditPageView, PageCheckSummary } from "@scan/contract";
import { PLAIN } from "@scan/reports";
import { checkResult, pageReport, siteReport } from "@scan/reports/testing";
import {
  evaluateAssertions,
  evaluateAuditAssertions,
  mergeAssertions,
  readAssertions,
  shortfallsOf,
} from "./assertions";
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

describe("assertions on an audit", () => {
  const SITE = new Set(["broken-internal-links", "duplicate-titles", "llms-txt-links"]);
  const readAudit = (raw: unknown) => readAssertions(raw, new Set([...KNOWN, ...SITE]), "flags");
  // site scores seo 71, overall 65, grade C; broken-internal-links fails, duplicate-titles passes,
  // llms-txt-links skips; title passes on both judged pages, https fails on one of the two
  const report = siteReport();
  const judged = (url: string, https: "pass" | "warn" | "fail"): AuditPageView => ({
    id: "6c0e5a1e-9d3b-4d8a-8b57-3f0f2a1c9e01",
    url,
    depth: 1,
    in_sitemap: true,
    status: "scanned",
    http_status: 200,
    final_url: url,
    judged: true,
    scores: null,
    grade: null,
    issues: { critical: 0, warning: 0, info: 0 },
    checks: [checkResult({}), checkResult({ id: "https", status: https, score: https === "pass" ? 6 : 0 })],
    error: null,
    scanned_at: null,
  });
  const pages = [judged("https://example.com/", "pass"), judged("https://example.com/about", "fail")];
  const judge = (raw: unknown, withPages: AuditPageView[] | null = null, mode: "quick" | "full" = "full") =>
    evaluateAuditAssertions(readAudit(raw), { mode, report, shortfalls: withPages && shortfallsOf(withPages) });
  const outcomeOf = (raw: unknown) => judge(raw).map((result) => [result.key, result.passed]);

  it("judge the site's scores and grade", () => {
    expect(
      outcomeOf({
        "categories:seo": ["error", { minScore: 71 }],
        "categories:overall": ["error", { minScore: 66 }],
        grade: ["error", { minGrade: "C" }],
      }),
    ).toEqual([
      ["categories:seo", true],
      ["categories:overall", false],
      ["grade", true],
    ]);
  });

  it("require a site check to pass or not apply, naming its findings when it fails", () => {
    expect(
      outcomeOf({ "broken-internal-links": "error", "duplicate-titles": "error", "llms-txt-links": "error" }),
    ).toEqual([
      ["broken-internal-links", false],
      ["duplicate-titles", true],
      ["llms-txt-links", true],
    ]);
    expect(judge({ "broken-internal-links": "error" })[0]?.message).toBe(
      "site check broken-internal-links: fail, expected pass: 2 broken internal link targets: https://example.com/gone, https://example.com/down.",
    );
  });

  it("require a page check on every judged page, naming the pages it fell short on when they were read", () => {
    expect(outcomeOf({ title: "error", https: "error" })).toEqual([
      ["title", true],
      ["https", false],
    ]);
    expect(judge({ title: "error" })[0]).toMatchObject({
      actual: "pass on 2, warn on 0, fail on 0 of 2 pages",
      expected: "pass on every page",
      message: "check title: passes on 2 of 2 pages",
    });
    expect(judge({ https: "error" })[0]?.message).toBe(
      "check https: fails on 1 of 2 pages, expected pass on every page",
    );
    expect(judge({ https: "error" }, pages)[0]?.message).toBe(
      "check https: fails on 1 of 2 pages, expected pass on every page: https://example.com/about",
    );
  });

  it("let a warning on some pages be enough with minScore 0.5, as on one page", () => {
    const warned = siteReport({
      page_checks: [
        {
          id: "https",
          category: "seo",
          severity: "critical",
          title: "Page is served over HTTPS",
          pages: 2,
          pass: 1,
          warn: 1,
          fail: 0,
          skip: 0,
          pass_rate: 0.5,
        },
      ],
    });
    const assert = (raw: unknown) =>
      evaluateAuditAssertions(readAudit(raw), { mode: "full", report: warned, shortfalls: null })[0];
    expect(assert({ https: ["error", { minScore: 0.5 }] })?.passed).toBe(true);
    expect(assert({ https: "error" })).toMatchObject({
      passed: false,
      message: expect.stringContaining("warns on 1 of 2"),
    });
  });

  it("name the first pages a page check fell short on and count the rest, gathered page by page", () => {
    const statuses = ["fail", "warn", "pass", "fail", "fail", "warn", "fail", "fail", "warn", "fail"] as const;
    const many = statuses.map((status, i) => judged(`https://example.com/${i}`, status));
    // a page that was not judged (a redirect) does not count, whatever its checks say
    many.splice(1, 0, { ...judged("https://example.com/moved", "fail"), judged: false });
    const shortfalls = shortfallsOf(many);
    expect(shortfalls.below("https", 1)).toEqual({
      count: 9,
      first: [
        "https://example.com/0",
        "https://example.com/1",
        "https://example.com/3",
        "https://example.com/4",
        "https://example.com/5",
      ],
    });
    expect(shortfalls.below("https", 0.5)).toEqual({
      count: 6,
      first: [
        "https://example.com/0",
        "https://example.com/3",
        "https://example.com/4",
        "https://example.com/6",
        "https://example.com/7",
      ],
    });
    expect(shortfalls.below("https", 0)).toEqual({ count: 0, first: [] });
    expect(shortfalls.below("title", 1)).toEqual({ count: 0, first: [] });
    const fewer = siteReport({
      page_checks: [{ ...(report.page_checks[1] as PageCheckSummary), pages: 10, pass: 1, warn: 3, fail: 6 }],
    });
    expect(
      evaluateAuditAssertions(readAudit({ https: "error" }), { mode: "full", report: fewer, shortfalls })[0]?.message,
    ).toBe(
      "check https: fails on 6 and warns on 3 of 10 pages, expected pass on every page: https://example.com/0, https://example.com/1, https://example.com/3, https://example.com/4, https://example.com/5 and 4 more",
    );
  });

  it("fail a page check the audit did not run, saying why", () => {
    const [result] = judge({ sitemap: "error" }, null, "quick");
    expect(result).toMatchObject({ passed: false, actual: "not run" });
    expect(result?.message).toContain("a quick audit runs the 20 core checks");
  });

  it("refuse a site check's id on a single scan, saying where it runs", () => {
    expect(() => readAssertions({ "broken-internal-links": "error" }, KNOWN, "flags", SITE)).toThrow(
      'assertion "broken-internal-links": is a site check: only an audit runs it (scan audit <url>)',
    );
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
