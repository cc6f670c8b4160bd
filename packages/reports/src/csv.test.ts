import { CSV_COLUMNS, renderCsv } from "./csv";
import { checkResult, pageReport } from "./testing";

const lines = (csv: string) => csv.split("\r\n");

describe("CSV", () => {
  it("has a header and one CRLF-ended row per check", () => {
    const csv = renderCsv([pageReport()]);
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replaceAll("\r\n", "")).not.toContain("\n");
    expect(lines(csv)[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines(csv)).toHaveLength(1 + 5 + 1);
    expect(lines(csv)[4]).toBe(
      "https://example.com/,https://www.example.com/,4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11,full,2025-03-01T10:20:30.456Z,seo,https,Page is served over HTTPS,fail,critical,0,6,Plain HTTP.,Use HTTPS.,",
    );
  });

  it("quotes fields with commas, quotes and line breaks, doubling quotes", () => {
    const csv = renderCsv([
      pageReport({ checks: [checkResult({ description: 'Title is "Home, sweet\nhome"', fix: "a\r\nb" })] }),
    ]);
    expect(csv).toContain(',"Title is ""Home, sweet\nhome""","a\r\nb",\r\n');
  });

  it.each(['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])(
    "neutralises a cell that a spreadsheet would run as a formula: %j",
    (value) => {
      const csv = renderCsv([pageReport({ checks: [checkResult({ title: value })] })]);
      expect(csv).toContain(`,"'${value.replaceAll('"', '""')}",`);
    },
  );

  it("leaves numbers, and text that merely contains a sign, alone", () => {
    const csv = renderCsv([pageReport({ checks: [checkResult({ description: "a-b = c", score: 2.5 })] })]);
    expect(csv).toContain(",2.5,6,a-b = c,");
  });

  it("gives a failed page one row with its reason", () => {
    const csv = renderCsv([
      pageReport({
        status: "failed",
        checks: [],
        scores: null,
        grade: null,
        finalUrl: null,
        error: { code: "upstream_failure", message: "The target answered 503" },
      }),
    ]);
    expect(lines(csv)[1]).toBe(
      "https://example.com/,,4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11,full,2025-03-01T10:20:30.456Z,,,,error,,,,The target answered 503 (upstream_failure),,",
    );
  });
});
