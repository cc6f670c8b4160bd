import {
  KeywordText,
  MAX_KEYWORD_IMPORT_ROWS,
  MAX_POSITION,
  MAX_VOLUME,
  positionOfAverage,
  type SearchQueryRow,
} from "@scan/contract";
import { CsvError, parse } from "csv-parse/sync";

/** A query of the file, by its row number (the header is row 1, as a spreadsheet numbers it). */
export type QueryRow = SearchQueryRow & { row: number };
export type SkippedQuery = { row: number; query: string; reason: string };

/**
 * What a Search Console queries export holds: the queries to import and those skipped with why,
 * or what is wrong with the file (`file`) or with each row at fault (`rowProblems`).
 */
export type QueriesReading =
  | { ok: true; rows: number; queries: QueryRow[]; skipped: SkippedQuery[] }
  | { ok: false; rows: number; file: string | null; rowProblems: { row: number; problem: string }[] };

/** The export's columns as Search Console names them (Queries.csv), and the names a hand-made file may use. */
const COLUMN_NAMES: Record<string, "query" | "clicks" | "impressions" | "ctr" | "position"> = {
  "top queries": "query",
  queries: "query",
  query: "query",
  clicks: "clicks",
  impressions: "impressions",
  ctr: "ctr",
  position: "position",
};
const REQUIRED = ["query", "clicks", "impressions", "position"] as const;

export const QUERIES_HINT =
  "Send Search Console's performance export of queries (Queries.csv from Export → Download CSV, unzipped) as the body with Content-Type: text/csv: a header row Top queries,Clicks,Impressions,CTR,Position and a row per query.";

const delimiterOf = (firstLine: string): string => {
  if (firstLine.includes(",")) return ",";
  if (firstLine.includes(";")) return ";";
  if (firstLine.includes("\t")) return "\t";
  return ",";
};

const failed = (file: string, rows = 0): QueriesReading => ({ ok: false, rows, file, rowProblems: [] });

const WHOLE = /^\d+$/;
/** an average position: a point or, in a file not separated by commas, a comma before the decimals */
const DECIMAL = /^\d+(?:[.,]\d+)?$/;

/**
 * Reads Search Console's queries export (RFC 4180; UTF-8, a byte-order mark allowed). Queries are
 * normalised as keywords are (trimmed, whitespace collapsed, lower-cased); a query repeated once
 * normalised is kept once. The average position becomes the nearest whole rank; a query past
 * rank 1,000 or longer than a keyword may be is skipped, not refused: the rest of the export
 * still imports.
 */
export const readQueriesCsv = (source: string): QueriesReading => {
  const body = source.replace(/^\uFEFF/, "");
  if (body.trim() === "")
    return failed(
      "the file is empty: send Queries.csv with its header row (Top queries,Clicks,Impressions,CTR,Position)",
    );
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
  const unknown = names.filter((name) => name !== "" && !(name in COLUMN_NAMES));
  if (unknown.length > 0)
    return failed(
      `the header row names ${unknown.map((name) => `"${name.slice(0, 40)}"`).join(", ")}, which ${unknown.length === 1 ? "is not a column" : "are not columns"} of Search Console's queries export (Top queries, Clicks, Impressions, CTR, Position)`,
    );
  const columns = names.map((name) => COLUMN_NAMES[name]);
  const twice = columns.find((column, index) => column !== undefined && columns.indexOf(column) !== index);
  if (twice) return failed(`the header row names the ${twice} column twice`);
  const missing = REQUIRED.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    return failed(
      `the header row has no ${missing.join(", ")} column${missing.length === 1 ? "" : "s"}: Search Console's queries export has Top queries, Clicks, Impressions, CTR, Position`,
    );
  const rows = data.filter((cells) => cells.some((cell) => cell.trim() !== "")).length;
  if (rows === 0) return failed("the file has a header row and no queries");
  if (rows > MAX_KEYWORD_IMPORT_ROWS)
    return failed(`the file has ${rows} queries; one import takes at most ${MAX_KEYWORD_IMPORT_ROWS}`, rows);

  const cell = (cells: string[], column: (typeof REQUIRED)[number]) => cells[columns.indexOf(column)]?.trim() ?? "";
  const entries: QueryEntry[] = [];
  const cellProblems: { row: number; problem: string }[] = [];
  data.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((value) => value.trim() === "")) return;
    if (cells.slice(names.length).some((value) => value.trim() !== "")) {
      cellProblems.push({ row, problem: `has ${cells.length} cells, the header ${names.length}` });
      return;
    }
    entries.push({
      row,
      query: cell(cells, "query"),
      clicks: cell(cells, "clicks"),
      impressions: cell(cells, "impressions"),
      position: cell(cells, "position"),
    });
  });
  return readQueryEntries(entries, rows, cellProblems);
};

/** One query as read, its values as text (a CSV's cells, or the API's numbers written out). */
export type QueryEntry = { row: number; query: string; clicks: string; impressions: string; position: string };

/**
 * Checks and normalises the queries of an import, a file's or the API's: a row at fault refuses
 * them all (`rowProblems`); a query repeated once normalised, too long, or past rank 1,000 is
 * skipped with why.
 */
export const readQueryEntries = (
  entries: readonly QueryEntry[],
  rows: number,
  earlierProblems: { row: number; problem: string }[] = [],
): QueriesReading => {
  const queries: QueryRow[] = [];
  const skipped: SkippedQuery[] = [];
  const rowProblems = [...earlierProblems];
  const firstRowOf = new Map<string, number>();
  for (const { row, query: raw, clicks, impressions, position } of entries) {
    const problems: string[] = [];
    if (raw === "") problems.push("the query is blank");
    if (!WHOLE.test(clicks) || Number(clicks) > MAX_VOLUME)
      problems.push(`clicks "${clicks.slice(0, 20)}" is not a whole number`);
    if (!WHOLE.test(impressions) || Number(impressions) > MAX_VOLUME)
      problems.push(`impressions "${impressions.slice(0, 20)}" is not a whole number`);
    if (!DECIMAL.test(position) || Number(position.replace(",", ".")) < 1)
      problems.push(`position "${position.slice(0, 20)}" is not an average position (1 or more)`);
    if (problems.length === 0 && Number(clicks) > Number(impressions))
      problems.push(`clicks (${clicks}) exceed impressions (${impressions})`);
    if (problems.length > 0) {
      rowProblems.push({ row, problem: problems.join("; ") });
      continue;
    }
    const words = KeywordText.safeParse(raw);
    if (!words.success) {
      skipped.push({ row, query: raw.slice(0, 200), reason: "longer than the 200 characters a keyword may have" });
      continue;
    }
    const rank = positionOfAverage(Number(position.replace(",", ".")));
    if (rank > MAX_POSITION) {
      skipped.push({ row, query: words.data, reason: `average position ${position} is past ${MAX_POSITION}` });
      continue;
    }
    const first = firstRowOf.get(words.data);
    if (first !== undefined) {
      skipped.push({ row, query: words.data, reason: `the same query as row ${first}` });
      continue;
    }
    firstRowOf.set(words.data, row);
    queries.push({
      row,
      keyword: words.data,
      position: rank,
      clicks: Number(clicks),
      impressions: Number(impressions),
    });
  }
  rowProblems.sort((x, y) => x.row - y.row);
  if (rowProblems.length > 0) return { ok: false, rows, file: null, rowProblems };
  return { ok: true, rows, queries, skipped };
};
