import { csvCell, csvLines, toCsv } from "./csv";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("plain")).toBe("plain");
  });

  it.each(['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tindent", "\rline"])(
    "turns %j into text a spreadsheet will not evaluate",
    (value) => {
      const cell = csvCell(value);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
      expect(unquoted.startsWith("'")).toBe(true);
      expect(unquoted.slice(1)).toBe(value);
    },
  );

  it("writes numbers, booleans and absent values plainly", () => {
    expect([csvCell(-5), csvCell(0.25), csvCell(true), csvCell(null), csvCell(undefined)]).toEqual([
      "-5",
      "0.25",
      "true",
      "",
      "",
    ]);
  });
});

describe("toCsv", () => {
  it("writes a BOM, a header and CRLF-terminated rows", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["x", 1],
          ["=y", null],
        ],
      ),
    ).toBe("\uFEFFa,b\r\nx,1\r\n'=y,\r\n");
  });
});

describe("csvLines", () => {
  it("writes the same file as toCsv, a line at a time", async () => {
    const rows: Array<Array<string | number | null>> = [
      ["x", 1],
      ["=y", null],
      ['say "hi", then\nleave', -2],
    ];
    const parts: string[] = [];
    for await (const part of csvLines(
      ["a", "b"],
      (async function* () {
        yield* rows;
      })(),
    ))
      parts.push(part);
    expect(parts).toHaveLength(rows.length + 1);
    expect(parts.join("")).toBe(toCsv(["a", "b"], rows));
    const none: string[] = [];
    for await (const part of csvLines(["a"], (async function* () {})())) none.push(part);
    expect(none.join("")).toBe(toCsv(["a"], []));
  });
});
