import { problemOf, ScanApiError, type ScanClient } from "@scan/client";
import { saveFile } from "./download";

/** The files a finished scan or a completed audit's report is served as (docs/reports.md). */
export type ReportFormat = "csv" | "sarif" | "junit" | "pdf";

const FILE: Record<ReportFormat, { extension: string; type: string; label: string }> = {
  csv: { extension: "csv", type: "text/csv", label: "CSV" },
  sarif: { extension: "sarif", type: "application/sarif+json", label: "SARIF" },
  junit: { extension: "xml", type: "application/xml", label: "JUnit XML" },
  pdf: { extension: "pdf", type: "application/pdf", label: "PDF" },
};

export const formatLabel = (format: ReportFormat) => FILE[format].label;

/** What a file is of: a scan, an audit's report, or a visibility run (its PDF, its samples as CSV). */
export type ReportSubject = { kind: "scan" | "audit" | "visibility"; id: string };

const fetchFile = async (api: ScanClient, { kind, id }: ReportSubject, format: ReportFormat) => {
  const path = { id };
  const parseAs = "blob" as const;
  if (kind === "visibility") {
    return format === "csv"
      ? api.GET("/api/v1/visibility/runs/{id}/samples", { params: { path, query: { format: "csv" } }, parseAs })
      : api.GET("/api/v1/visibility/runs/{id}", { params: { path, query: { format: "pdf" } }, parseAs });
  }
  const options = { params: { path, query: { format } }, parseAs };
  return kind === "scan" ? api.GET("/api/v1/scan/{id}", options) : api.GET("/api/v1/audits/{id}/report", options);
};

const fileName = ({ kind, id }: ReportSubject, format: ReportFormat) => {
  const { extension } = FILE[format];
  if (kind === "scan") return `scan-${id}.${extension}`;
  if (kind === "audit") return `audit-${id}-report.${extension}`;
  return format === "csv" ? `visibility-run-${id}-samples.csv` : `visibility-run-${id}.${extension}`;
};

/**
 * Asks the API for a scan's, an audit report's or a visibility run's file with the session's JWT
 * and saves it. An error answer is the API's envelope, read as JSON whatever was asked for.
 */
export const saveReportFile = async (api: ScanClient, what: ReportSubject, format: ReportFormat): Promise<void> => {
  const { data, error, response } = await fetchFile(api, what, format);
  if (!response.ok || !(data instanceof Blob)) throw new ScanApiError(problemOf(response, error));
  saveFile(fileName(what, format), data, FILE[format].type);
};
