import type {
  CheckEvidence,
  ResponseForm,
  ScanMode,
  ScanResult,
  ScanToolInput,
  ScoreSummary,
  ScoreToolInput,
} from "@scan/contract";
import { AppError, normaliseScanUrl } from "@scan/contract";
import type { Scan } from "@scan/db";
import { topProblems, toScanResult } from "@scan/reports";
import type { AccountCaller } from "../access/authenticate";
import type { ScanService } from "./scan-service";

/**
 * Who runs a tool and for which request: scans are owned, counted and logged as REST scans are.
 * `urlForm` is how a URL is read: Form A wants it absolute; Form B (the default here) also
 * takes a bare host, since tool callers are often language models that drop the scheme.
 */
export type ToolContext = { caller: AccountCaller; requestId: string; signal: AbortSignal; urlForm?: ResponseForm };

/** A tool's answer: the data, and a few lines saying it in words (the MCP text content). */
export type ToolAnswer<T> = { data: T; summary: string };

const URL_HINT = "Send url as an absolute http(s) URL, or a host or host/path (read as https://).";

const percent = (scores: { seo: number; aeo: number; geo: number; overall: number }) =>
  `overall ${scores.overall}/100 (SEO ${scores.seo}, AEO ${scores.aeo}, GEO ${scores.geo})`;

/** how a check's evidence grade reads in a tool's words: a convention-only check moves no score */
export const evidenceNote = (evidence: CheckEvidence | undefined): string =>
  evidence === undefined
    ? ""
    : evidence.grade === "convention"
      ? " (evidence: convention only; not scored)"
      : ` (evidence: ${evidence.grade.replace("_", "-")}${evidence.source ? `, ${evidence.source.title}` : ""})`;

const problemLines = (
  problems: ReadonlyArray<{ severity: string; title: string; fix: string; evidence?: CheckEvidence }>,
) =>
  problems.map(
    (problem, index) =>
      `${index + 1}. [${problem.severity}] ${problem.title}: ${problem.fix}${evidenceNote(problem.evidence)}`,
  );

export type PageTools = {
  /** aeo_scan: the scan result with grade, as POST /api/v1/scan answers it. */
  scan: (input: ScanToolInput, context: ToolContext) => Promise<ToolAnswer<ScanResult>>;
  /** aeo_score: a quick scan's area scores, overall, grade and the three worst problems. */
  score: (input: ScoreToolInput, context: ToolContext) => Promise<ToolAnswer<ScoreSummary>>;
  /** A completed scan of the page, or the reason there is none (AppError). */
  completedScan: (rawUrl: string, mode: ScanMode, context: ToolContext, keepSnapshot?: boolean) => Promise<Scan>;
};

/**
 * The page tools over the scan pipeline: the same validation, queue, workers, ownership and
 * monthly quota as POST /api/v1/scan.
 */
export const createPageTools = ({ scans }: { scans: ScanService }): PageTools => {
  /** A completed scan of the page, or the reason there is none (AppError). */
  const completedScan = async (
    rawUrl: string,
    mode: ScanMode,
    { caller, requestId, signal, urlForm = "B" }: ToolContext,
    keepSnapshot = false,
  ): Promise<Scan> => {
    const url = normaliseScanUrl(rawUrl, urlForm);
    if (!url.ok) throw new AppError("invalid_request", `url: ${url.reason}`, URL_HINT);
    const submitted = await scans.submit({ url: url.url, mode, requestId, keepSnapshot }, caller, signal);
    if (!submitted.finished) {
      const { id } = submitted.scan;
      throw new AppError(
        "upstream_failure",
        `The scan of ${submitted.scan.url} did not finish in time`,
        `It is still running as scan ${id}; GET /api/v1/scan/${id} returns it once it completes.`,
      );
    }
    const { scan } = submitted;
    if (scan.status === "failed") {
      throw new AppError(
        "upstream_failure",
        `The scan of ${scan.url} failed: ${scan.errorMessage ?? "unknown reason"}`,
        `Check that the site answers; the failed scan is stored as ${scan.id}.`,
      );
    }
    return scan;
  };

  /** aeo_scan: the scan result with grade, as POST /api/v1/scan answers it. */
  const scan = async (input: ScanToolInput, context: ToolContext): Promise<ToolAnswer<ScanResult>> => {
    const result = toScanResult(await completedScan(input.url, input.mode ?? "full", context));
    const summary = [
      `${result.url}: grade ${result.grade}, ${percent(result.scores)}; ${result.mode} scan of ${result.checks.length} checks.`,
      `Issues: ${result.issues.critical} critical, ${result.issues.warning} warning, ${result.issues.info} info.`,
      ...(result.issues.critical + result.issues.warning + result.issues.info > 0
        ? ["Worst problems:", ...problemLines(topProblems(result.checks, 3))]
        : []),
      `Scan id ${result.id}; the full result is in the structured content.`,
    ].join("\n");
    return { data: result, summary };
  };

  /** aeo_score: a quick scan's area scores, overall, grade and the three worst problems. */
  const score = async (input: ScoreToolInput, context: ToolContext): Promise<ToolAnswer<ScoreSummary>> => {
    const result = toScanResult(await completedScan(input.url, "quick", context));
    const problems = topProblems(result.checks, 3).map(
      ({ id, category, status, severity, title, description, fix, evidence }) => ({
        id,
        category,
        status,
        severity,
        title,
        description,
        fix,
        ...(evidence ? { evidence } : {}),
      }),
    );
    const { seo, aeo, geo, overall } = result.scores;
    const data: ScoreSummary = {
      id: result.id,
      url: result.url,
      finalUrl: result.finalUrl,
      grade: result.grade,
      scores: { seo, aeo, geo, overall },
      topProblems: problems,
      scannedAt: result.scannedAt,
    };
    const summary = [
      `${result.url}: grade ${result.grade}, ${percent(data.scores)} (quick scan: the 20 core checks).`,
      ...(problems.length > 0 ? ["Top problems:", ...problemLines(problems)] : ["No check failed."]),
    ].join("\n");
    return { data, summary };
  };

  return { scan, score, completedScan };
};
