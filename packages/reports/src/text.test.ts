import { RENDER_FAILURE_MESSAGES } from "@scan/contract";
import { failingChecks } from "./page-report";
import { checkResult, pageReport } from "./testing";
import { ANSI, PLAIN, renderText, table, useColour } from "./text";

describe("the text report", () => {
  it("lists failures before warnings, the most severe first, and leaves passes and skips out", () => {
    expect(failingChecks(pageReport().checks).map((c) => c.id)).toEqual(["https", "meta-description", "llms-txt"]);
  });

  it("prints what was scanned, the scores and a table of failing checks with their fixes", () => {
    const text = renderText([pageReport()]);
    expect(text).toContain("Scan of https://example.com/ (full, 4.2 s, id 4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11)");
    expect(text).toContain("final URL https://www.example.com/");
    expect(text).toMatch(/SEO\s+80/);
    expect(text).toMatch(/overall\s+70 {2}grade B/);
    expect(text).toContain("Failing checks: 2 failed, 1 warning, of 5");
    expect(text).toMatch(/fail\s+seo\s+critical\s+https\s+0\/6\s+Plain HTTP\./);
    expect(text).toMatch(/warn\s+geo\s+warning\s+llms-txt\s+2\.5\/5\s+No llms\.txt\./);
    expect(text).not.toMatch(/pass\s+seo/);
    expect(text).toContain("  https: Use HTTPS.");
    expect(text).not.toContain("\x1b[");
  });

  it("says when every check passed, and marks quick scans as partial", () => {
    const text = renderText([pageReport({ mode: "quick", checks: [checkResult({})] })]);
    expect(text).toContain("All 1 check passed or did not apply.");
    expect(text).toContain("quick scan: 1 core check;");
  });

  it("prints a failed scan's reason", () => {
    const text = renderText([
      pageReport({
        status: "failed",
        scores: null,
        grade: null,
        checks: [],
        error: { code: "upstream_failure", message: "503" },
      }),
    ]);
    expect(text).toContain("Failed: 503 (upstream_failure)");
  });

  it("says when a page was judged on its served HTML because its render failed, and not otherwise", () => {
    const failure = { code: "parse_unfinished" as const, message: RENDER_FAILURE_MESSAGES.parse_unfinished };
    const text = renderText([pageReport({ renderFailure: failure })]);
    expect(text).toContain(
      `  Judged on the HTML as served: ${RENDER_FAILURE_MESSAGES.parse_unfinished} (parse_unfinished)`,
    );
    expect(renderText([pageReport()])).not.toContain("Judged on the HTML as served");
  });

  it("paints with ANSI colours without moving the columns", () => {
    const painted = renderText([pageReport()], ANSI);
    expect(painted).toContain("\x1b[31mfail");
    expect(painted).toContain("\x1b[33mwarn");
    // eslint-style strip of SGR sequences gives back the plain report
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is stripped
    expect(painted.replace(/\x1b\[\d+m/g, "")).toBe(renderText([pageReport()], PLAIN));
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

describe("whether to paint", () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: "1" }, false],
    [true, { NO_COLOR: "" }, true],
    [false, { FORCE_COLOR: "1" }, true],
    [false, { FORCE_COLOR: "" }, true],
    [true, { FORCE_COLOR: "0" }, false],
    [true, { FORCE_COLOR: "false" }, false],
    [false, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
    [true, { TERM: "dumb" }, false],
  ] as const)("on a terminal: %s, environment %j: %s", (isTTY, env, expected) => {
    expect(useColour(isTTY, env)).toBe(expected);
  });
});
