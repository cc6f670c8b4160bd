import { describeStep, slowestFiles, summarise } from "./test";

describe("the test command's closing line", () => {
  it("reports both steps and fails when jest failed but the browser tests passed", () => {
    const { line, totals, code } = summarise([
      { name: "jest", code: 1, passed: 4000, failed: 3 },
      { name: "browser tests", code: 0, passed: 41, failed: 0 },
    ]);
    expect(line).toBe("tests: jest FAILED (3 of 4003 tests failed); browser tests passed (41 tests)");
    expect(totals).toBe("total: 4041 passed, 3 failed");
    expect(code).toBe(1);
  });

  it("fails when only the browser tests failed", () => {
    const { line, code } = summarise([
      { name: "jest", code: 0, passed: 4003, failed: 0 },
      { name: "browser tests", code: 1, passed: 40, failed: 1 },
    ]);
    expect(line).toBe("tests: jest passed (4003 tests); browser tests FAILED (1 of 41 tests failed)");
    expect(code).toBe(1);
  });

  it("counts a failed step without failed tests as a failure in the totals", () => {
    expect(
      summarise([
        { name: "jest", code: 1, passed: 12, failed: 0, broken: 1 },
        { name: "browser tests", code: 2, passed: null, failed: null },
      ]).totals,
    ).toBe("total: 12 passed, 2 failed");
    expect(
      summarise([
        { name: "jest", code: 1, passed: 12, failed: 0 },
        { name: "browser tests", code: 0, passed: 3, failed: 0 },
      ]).totals,
    ).toBe("total: 15 passed, 1 failed");
  });

  it("passes only when both passed", () => {
    expect(
      summarise([
        { name: "jest", code: 0, passed: 10, failed: 0 },
        { name: "browser tests", code: 0, passed: 2, failed: 0 },
      ]).code,
    ).toBe(0);
  });

  it("names test files that did not run, and a step with no report by its exit", () => {
    expect(describeStep({ name: "jest", code: 1, passed: 12, failed: 0, broken: 1 })).toBe(
      "jest FAILED (0 of 12 tests failed, 1 test file did not run)",
    );
    expect(describeStep({ name: "browser tests", code: 2, passed: null, failed: null })).toBe(
      "browser tests FAILED (exit 2)",
    );
    expect(describeStep({ name: "browser tests", code: null, passed: null, failed: null })).toBe(
      "browser tests FAILED (killed)",
    );
  });
});

describe("the test command's slowest files", () => {
  it("lists the longest files first, relative to the project, at most the number asked", () => {
    const report = {
      testResults: [
        { name: "/repo/tests/a.test.ts", startTime: 1_000, endTime: 3_500 },
        { name: "/repo/tests/b.test.ts", perfStats: { start: 0, end: 84_200 } },
        { name: "/repo/tests/c.test.ts", perfStats: { start: 10, end: 20 } },
      ],
    };
    expect(slowestFiles(report, "/repo", 2)).toEqual(["   84.2 s  tests/b.test.ts", "    2.5 s  tests/a.test.ts"]);
  });

  it("says nothing when jest left no report", () => {
    expect(slowestFiles(null, "/repo")).toEqual([]);
  });
});
