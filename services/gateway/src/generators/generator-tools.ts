import type { Snapshot } from "@scan/contract";
import { AppError, unpackSnapshot } from "@scan/contract";
import type { Db, Scan } from "@scan/db";
import type { LlmEndpoint } from "@scan/generators";
import { fixes, generate } from "@scan/generators";
import { toScanResult } from "@scan/reports";
import type { PageTools, ToolAnswer, ToolContext } from "../scans";
import type { FixInput, FixResult, GenerateInput, GenerateResult } from "./generator-schemas";

export type GeneratorToolsDeps = {
  pages: PageTools;
  db: Db;
  /** an OpenAI-compatible endpoint for generate; null: extractive only */
  llm: LlmEndpoint | null;
};

const fence = (language: string, body: string) => {
  // a fence longer than any backtick run inside, so the file cannot close it early
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${body.replace(/\n$/, "")}\n${ticks}`;
};

const fixSummary = (result: FixResult): string => {
  const files = [
    result.llmsTxt && { name: "llms.txt", file: result.llmsTxt, where: result.llmsTxt.path },
    result.jsonLd && { name: `JSON-LD (${result.jsonLd.types.join(", ")})`, file: result.jsonLd, where: null },
    result.robotsTxt && { name: "robots.txt", file: result.robotsTxt, where: result.robotsTxt.path },
  ].filter((entry) => entry !== null);
  const { before, after } = result.proof;
  const lines = [
    `Files for ${result.url}, drawn from full scan ${result.scanId} and proven on a copy of the page:`,
    ...files.map(
      ({ name, file, where }) =>
        `- ${name}${where ? ` at ${where}` : ""}: makes ${file.addresses.join(", ") || "no check"} pass. ${file.placement}`,
    ),
    ...files.flatMap(({ name, file }) =>
      file.ownerMustSupply.map(
        (entry) => `  Still to supply for ${entry.id} (${entry.before} → ${entry.after} with ${name}): ${entry.what}.`,
      ),
    ),
    ...(files.length === 0 ? ["- none: no generated file addresses the checks asked for."] : []),
    `Scores with the files in place: overall ${before.scores.overall} → ${after.scores.overall} (grade ${before.grade} → ${after.grade}; SEO ${before.scores.seo} → ${after.scores.seo}, AEO ${before.scores.aeo} → ${after.scores.aeo}, GEO ${before.scores.geo} → ${after.scores.geo}).`,
    ...result.proof.checks
      .filter((check) => check.before !== check.after)
      .map((check) => `  ${check.id}: ${check.before} → ${check.after}`),
    ...result.unaddressed.map((entry) => `Not addressed: ${entry.id}: ${entry.reason}`),
  ];
  if (result.llmsTxt) lines.push("", `${result.llmsTxt.path}:`, fence("markdown", result.llmsTxt.content));
  if (result.jsonLd) lines.push("", "JSON-LD:", fence("html", result.jsonLd.html));
  if (result.robotsTxt) lines.push("", `${result.robotsTxt.path}:`, fence("text", result.robotsTxt.content));
  return lines.join("\n");
};

const generateSummary = (result: GenerateResult): string => {
  const how =
    result.method === "llm"
      ? `Drafted by the model ${result.llm?.model} from the page's text`
      : result.llm
        ? `Drawn from the page's own words: the model ${result.llm.model} failed (${result.llm.error})`
        : "Drawn from the page's own words (no model is configured)";
  const about = result.topic ? `, about "${result.topic}"` : "";
  return [
    result.markdown.trimEnd(),
    "",
    "---",
    `${how}; ${result.contentType} content for ${result.url}${about}, from quick scan ${result.scanId}.`,
    ...result.notes.map((note) => `Note: ${note}`),
  ].join("\n");
};

export type GeneratorTools = {
  /** aeo_fix: a full scan of the page, then the llms.txt, JSON-LD and robots.txt made from it, the checks run again over them. */
  fix: (input: FixInput, context: ToolContext) => Promise<ToolAnswer<FixResult>>;
  /** aeo_generate: a quick scan of the page, then content of the asked type drafted from its snapshot. */
  generate: (input: GenerateInput, context: ToolContext) => Promise<ToolAnswer<GenerateResult>>;
};

/**
 * fix and generate: a scan of the page through the pipeline that asks the worker to keep its
 * snapshot, then the generators over that snapshot. fix runs a full scan (every check id can
 * be asked for, and the sitemap is fetched for robots.txt); generate a quick one (content
 * only), which leaves the model's call room within a client's timeout.
 */
export const createGeneratorTools = ({ pages, db, llm }: GeneratorToolsDeps): GeneratorTools => {
  const snapshotOf = async (scan: Scan): Promise<Snapshot> => {
    const row = await db.scanSnapshot.findFirst({ where: { scanId: scan.id, expiresAt: { gt: new Date() } } });
    if (!row) {
      throw new AppError(
        "upstream_failure",
        `The page at ${scan.url} is too large to generate from`,
        `Its snapshot was over the size kept for the generators; the scan itself is stored as ${scan.id}.`,
      );
    }
    return unpackSnapshot(row.data);
  };

  const fix = async (input: FixInput, context: ToolContext): Promise<ToolAnswer<FixResult>> => {
    const scan = await pages.completedScan(input.url, "full", context, true);
    const snapshot = await snapshotOf(scan);
    const result = toScanResult(scan);
    const files = fixes(snapshot, {
      ...(input.issues ? { issues: input.issues } : {}),
      checks: result.checks,
      // the proof runs the checks at the scan's time, so that a date judged fresh stays so
      scannedAt: new Date(result.scannedAt),
    });
    const data: FixResult = { scanId: scan.id, ...files };
    return { data, summary: fixSummary(data) };
  };

  const draft = async (input: GenerateInput, context: ToolContext): Promise<ToolAnswer<GenerateResult>> => {
    const scan = await pages.completedScan(input.url, "quick", context, true);
    const snapshot = await snapshotOf(scan);
    const content = await generate(
      snapshot,
      { contentType: input.content_type, ...(input.topic ? { topic: input.topic } : {}) },
      llm,
    );
    const data: GenerateResult = { scanId: scan.id, ...content };
    return { data, summary: generateSummary(data) };
  };

  return { fix, generate: draft };
};
