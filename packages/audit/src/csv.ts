/**
 * CSV as RFC 4180 writes it, safe to open in a spreadsheet. A cell that begins with `=`, `+`,
 * `-`, `@`, a tab or a carriage return would be read as a formula by Excel, LibreOffice and
 * Google Sheets (CSV injection, OWASP): page titles and URLs come from the audited site, so such
 * a text cell is prefixed with `'`, which the spreadsheet shows as text. Numbers are written as
 * numbers. Lines end in CRLF; the file starts with a UTF-8 byte-order mark, without which Excel
 * reads UTF-8 as the system's code page.
 */

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export const csvCell = (value: CsvCell): string => {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const BOM = "\uFEFF";

/** A row as a line of the file, its line end included. */
export const csvLine = (row: readonly CsvCell[]): string => `${row.map(csvCell).join(",")}\r\n`;

/** What the file begins with: the byte-order mark and the header row. */
export const csvHead = (header: readonly string[]): string => `${BOM}${csvLine(header)}`;

/** The whole file: a header row, then one row per record. */
export const toCsv = (header: readonly string[], rows: Iterable<readonly CsvCell[]>): string => {
  const lines = [csvHead(header)];
  for (const row of rows) lines.push(csvLine(row));
  return lines.join("");
};

/** The same file in parts as the records come: the header, then a line per record. */
export async function* csvLines(
  header: readonly string[],
  rows: AsyncIterable<readonly CsvCell[]>,
): AsyncGenerator<string> {
  yield csvHead(header);
  for await (const row of rows) yield csvLine(row);
}
