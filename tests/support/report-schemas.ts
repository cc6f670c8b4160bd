import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { parse } from "csv-parse/sync";

/**
 * The published schemas the exports must meet (tests/schemas/README.md says where each comes
 * from): SARIF 2.1.0's JSON schema through Ajv, the JUnit XSDs through xmllint, and CSV read
 * back by a real CSV parser.
 */

const SCHEMAS = resolve(__dirname, "../schemas");

const sarifSchema = JSON.parse(readFileSync(join(SCHEMAS, "sarif-schema-2.1.0.json"), "utf8"));
// the schema is JSON Schema draft-04; formats (uri, uri-reference, date-time) are checked too
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarifLog = ajv.compile(sarifSchema);

/** What SARIF 2.1.0's schema finds wrong with a log (nothing: an empty list). */
export const sarifProblems = (log: unknown): string[] =>
  validateSarifLog(log) ? [] : (validateSarifLog.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);

export const JUNIT_SCHEMAS = ["junit-ant.xsd", "junit-10.xsd"] as const;

const run = promisify(execFile);

/** What xmllint says is wrong with a JUnit document under each XSD (nothing: an empty list). */
export const junitProblems = async (xml: string): Promise<string[]> => {
  const dir = await mkdtemp(join(tmpdir(), "junit-"));
  try {
    const file = join(dir, "report.xml");
    await writeFile(file, xml);
    const problems: string[] = [];
    for (const schema of JUNIT_SCHEMAS) {
      try {
        await run("xmllint", ["--noout", "--schema", join(SCHEMAS, schema), file]);
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? String(error);
        problems.push(`${schema}: ${stderr.trim()}`);
      }
    }
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** CSV read back by csv-parse: every row as long as the header (it throws otherwise), quotes as RFC 4180 writes them. */
export const parseCsv = (text: string): Record<string, string>[] =>
  parse(text, { columns: true, relax_quotes: false }) as Record<string, string>[];

/** The same CSV as rows of cells, the header first. */
export const csvRows = (text: string): string[][] => parse(text, { relax_quotes: false }) as string[][];
