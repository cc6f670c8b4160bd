import { MAX_IMPORT_ROWS } from "@scan/contract";
import { readPromptCsv } from "./prompt-import";

const ok = (source: string) => {
  const reading = readPromptCsv(source);
  if (!reading.ok) throw new Error(`expected a reading, got ${JSON.stringify(reading)}`);
  return reading;
};
const refused = (source: string) => {
  const reading = readPromptCsv(source);
  if (reading.ok) throw new Error(`expected a refusal, got ${JSON.stringify(reading)}`);
  return reading;
};

describe("readPromptCsv", () => {
  it("reads every column, quoted cells with commas, doubled quotes and line breaks", () => {
    const reading = ok(
      'text,topic,tags,locale\r\n"Best CRM for small teams, 2026?",crm,"pricing|smb",en-us\r\n"He said ""cheap"" CRM\nwith two lines",,,\r\n',
    );
    expect(reading.rows).toBe(2);
    expect(reading.prompts).toEqual([
      {
        row: 2,
        key: "best crm for small teams, 2026",
        prompt: { text: "Best CRM for small teams, 2026?", topic: "crm", tags: ["pricing", "smb"], locale: "en-US" },
      },
      { row: 3, key: 'he said "cheap" crm with two lines', prompt: { text: 'He said "cheap" CRM with two lines' } },
    ]);
  });

  it("takes columns in any order and case, a byte-order mark, semicolons or tabs as delimiters", () => {
    expect(ok("\uFEFFLocale;Text\nde-DE;Bestes CRM\n").prompts[0]?.prompt).toEqual({
      text: "Bestes CRM",
      locale: "de-DE",
    });
    expect(ok("text\ttags\nbest crm\ta,b\n").prompts[0]?.prompt).toEqual({ text: "best crm", tags: ["a", "b"] });
  });

  it("keeps a wording once: a repeat differing in case, spacing or a closing ? is reported with its first row", () => {
    const reading = ok("text\nBest CRM?\n\nbest   crm\nBEST CRM!\nother\n");
    expect(reading.prompts.map((p) => p.row)).toEqual([2, 6]);
    expect(reading.repeated).toEqual([
      { row: 4, text: "best crm", of: 2 },
      { row: 5, text: "BEST CRM!", of: 2 },
    ]);
    // the blank line is row 3: counted as a spreadsheet counts it, holding no prompt
    expect(reading.rows).toBe(4);
  });

  it("names each row at fault by its number, the header being row 1", () => {
    const long = "x".repeat(501);
    const reading = refused(
      `text,locale\nfine,en\n,en\n${long},en\nok,not a locale!\nword,english\nextra,en,cell\ntrailing,en,\n`,
    );
    expect(reading.file).toBeNull();
    expect(reading.rowProblems).toEqual([
      { row: 3, problem: "text: must not be blank" },
      { row: 4, problem: "text: must be at most 500 characters" },
      { row: 5, problem: 'locale: "not a locale!" is not a BCP 47 language tag such as en-US' },
      { row: 6, problem: 'locale: "english" is not a BCP 47 language tag such as en-US' },
      { row: 7, problem: "has 3 cells, the header 2" },
    ]);
  });

  it("refuses a file it cannot read, saying why", () => {
    expect(refused("").file).toMatch(/empty/);
    expect(refused("text,colour\nx,red\n").file).toMatch(/"colour", which is not a column/);
    expect(refused("topic\ncrm\n").file).toMatch(/no text column/);
    expect(refused("text,Text\na,b\n").file).toMatch(/"text" twice/);
    expect(refused("text\n").file).toMatch(/no prompts/);
    expect(refused('text\n"unclosed\n').file).toMatch(/not well-formed CSV/);
    const many = `text\n${Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `prompt ${i}`).join("\n")}\n`;
    expect(refused(many).file).toMatch(new RegExp(`at most ${MAX_IMPORT_ROWS}`));
  });
});
