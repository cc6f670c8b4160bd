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

/**
 * Asks the API for a scan's or an audit report's file with the session's JWT and saves it. An
 * error answer is the API's envelope, read as JSON whatever was asked for.
 */
export const saveReportFile = async (
  api: ScanClient,
  what: { kind: "scan" | "audit"; id: string },
  format: ReportFormat,
): Promise<void> => {
  const options = { params: { path: { id: what.id }, query: { format } }, parseAs: "blob" as const };
  const { data, error, response } =
    what.kind === "scan"
      ? await api.GET("/api/v1/scan/{id}", options)
      : await api.GET("/api/v1/audits/{id}/report", options);
  if (!response.ok || !(data instanceof Blob)) throw new ScanApiError(problemOf(response, error));
  const { extension, type } = FILE[format];
  const name = what.kind === "scan" ? `scan-${what.id}.${extension}` : `audit-${what.id}-report.${extension}`;
  saveFile(name, data, type);
};
