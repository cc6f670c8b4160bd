import { CreatePromptRequest, MAX_IMPORT_ROWS, promptKeyOf } from "@scan/contract";
import { CsvError, parse } from "csv-parse/sync";

/** The columns a prompts CSV may have; `text` is required. */
export const IMPORT_COLUMNS = ["text", "topic", "tags", "locale"] as const;
type Column = (typeof IMPORT_COLUMNS)[number];

/** A row of the file that makes a prompt. */
export type ImportRow = { row: number; key: string; prompt: CreatePromptRequest };

/**
 * What a prompts CSV holds: the rows that make prompts (a wording repeated in the file is kept
 * once, the repeats in `repeated`), or what is wrong with it. `problems` name the file's fault
 * (`problems.file`) or each row at fault, by its row number: the header is row 1, as a
 * spreadsheet numbers it.
 */
export type ImportReading =
  | { ok: true; rows: number; prompts: ImportRow[]; repeated: { row: number; text: string; of: number }[] }
  | { ok: false; rows: number; file: string | null; rowProblems: { row: number; problem: string }[] };

/** Cells of `tags` are separated by `|`, `,` or `;` (whichever the file's delimiter is not). */
const TAG_SEPARATOR = /[|,;]/;

/**
 * The delimiter: a comma, unless the header line has none and has semicolons or tabs (a
 * spreadsheet saved in a locale whose decimal mark is the comma writes semicolons).
 */
const delimiterOf = (firstLine: string): string => {
  if (firstLine.includes(",")) return ",";
  if (firstLine.includes(";")) return ";";
  if (firstLine.includes("\t")) return "\t";
  return ",";
};

const failed = (file: string, rows = 0): ImportReading => ({ ok: false, rows, file, rowProblems: [] });

/** Reads a prompts CSV (RFC 4180: quoted cells may hold delimiters, quotes doubled, line breaks). */
export const readPromptCsv = (source: string): ImportReading => {
  const body = source.replace(/^\uFEFF/, "");
  if (body.trim() === "")
    return failed("the file is empty: send a header row (text,topic,tags,locale) and a row per prompt");
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  let records: string[][];
  try {
    records = parse(body, {
      delimiter: delimiterOf(firstLine),
      relax_column_count: true,
      skip_empty_lines: false,
      trim: false,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return failed(
        `the file is not well-formed CSV${line ? ` (near line ${line})` : ""}: ${error.message.replace(/^Invalid [^:]*: /, "")}`,
      );
    }
    throw error;
  }
  const [header = [], ...data] = records;
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(IMPORT_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return failed(
      `the header row names ${unknown.map((name) => `"${name.slice(0, 40)}"`).join(", ")}, which ${unknown.length === 1 ? "is not a column" : "are not columns"} of a prompts file (text, topic, tags, locale)`,
    );
  }
  const repeatedColumn = names.find((name, index) => names.indexOf(name) !== index);
  if (repeatedColumn) return failed(`the header row names "${repeatedColumn}" twice`);
  if (!names.includes("text"))
    return failed("the header row has no text column: the first row names the columns (text,topic,tags,locale)");
  // a blank line is a row of a spreadsheet too: it is counted, and holds no prompt
  const rows = data.filter((cells) => cells.some((cell) => cell.trim() !== "")).length;
  if (rows === 0) return failed("the file has a header row and no prompts");
  if (rows > MAX_IMPORT_ROWS)
    return failed(`the file has ${rows} prompts; one import takes at most ${MAX_IMPORT_ROWS}`, rows);

  const column = (cells: string[], name: Column): string | undefined => {
    const index = names.indexOf(name);
    const cell = index < 0 ? undefined : cells[index]?.trim();
    return cell === "" ? undefined : cell;
  };
  const prompts: ImportRow[] = [];
  const repeated: { row: number; text: string; of: number }[] = [];
  const rowProblems: { row: number; problem: string }[] = [];
  const firstRowOf = new Map<string, number>();
  data.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((cell) => cell.trim() === "")) return;
    // a trailing empty cell (a spreadsheet's stray comma) is no cell
    if (cells.slice(names.length).some((cell) => cell.trim() !== "")) {
      rowProblems.push({ row, problem: `has ${cells.length} cells, the header ${names.length}` });
      return;
    }
    const tags = column(cells, "tags");
    const parsed = CreatePromptRequest.safeParse({
      text: column(cells, "text") ?? "",
      topic: column(cells, "topic"),
      tags: tags === undefined ? undefined : tags.split(TAG_SEPARATOR).filter((tag) => tag.trim() !== ""),
      locale: column(cells, "locale"),
    });
    if (!parsed.success) {
      const said = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${String(issue.path[0] ?? "row")}: ${issue.message}`)
        .join("; ");
      rowProblems.push({ row, problem: said });
      return;
    }
    const key = promptKeyOf(parsed.data.text);
    const first = firstRowOf.get(key);
    if (first !== undefined) {
      repeated.push({ row, text: parsed.data.text, of: first });
      return;
    }
    firstRowOf.set(key, row);
    prompts.push({ row, key, prompt: parsed.data });
  });
  if (rowProblems.length > 0) return { ok: false, rows, file: null, rowProblems };
  return { ok: true, rows, prompts, repeated };
};
