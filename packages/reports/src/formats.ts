import type { AuditExport, AuditExportStream } from "./audit-export";
import { renderAuditJunit, streamAuditJunit } from "./audit-junit";
import { renderAuditSarif, streamAuditSarif } from "./audit-sarif";
import { renderCsv } from "./csv";
import { renderJunit } from "./junit";
import type { PageReport, ToolInfo } from "./page-report";
import { renderSarif, type SarifLocations } from "./sarif";

/**
 * The file formats a stored scan is exported in, with the media type each is served as, the
 * other media types that ask for it in `Accept`, and the file name extension.
 */
export const EXPORT_FORMATS = {
  csv: {
    mediaType: "text/csv",
    /** RFC 4180's parameters: the first row names the columns */
    contentType: "text/csv; charset=utf-8; header=present",
    aliases: [] as string[],
    extension: "csv",
  },
  sarif: {
    /** registered with IANA for SARIF logs */
    mediaType: "application/sarif+json",
    contentType: "application/sarif+json",
    aliases: [] as string[],
    extension: "sarif",
  },
  junit: {
    /** JUnit XML has no registered media type of its own: it is served as XML */
    mediaType: "application/xml",
    contentType: "application/xml; charset=utf-8",
    aliases: ["application/junit+xml", "text/xml"],
    extension: "xml",
  },
} as const;

export type ExportFormat = keyof typeof EXPORT_FORMATS;

export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as [ExportFormat, ...ExportFormat[]];

/** The pages in one of the export formats. */
export const renderExport = (format: ExportFormat, pages: readonly PageReport[], tool: ToolInfo): string => {
  switch (format) {
    case "csv":
      return renderCsv(pages);
    case "sarif":
      return renderSarif(pages, tool);
    case "junit":
      return renderJunit(pages, tool);
  }
};

/** The formats an audit's pages are exported in here; its CSV is the site report's (`@scan/audit`). */
export type AuditExportFormat = Exclude<ExportFormat, "csv">;

/** A completed audit in SARIF or JUnit XML. */
export const renderAuditExport = (
  format: AuditExportFormat,
  audit: AuditExport,
  tool: ToolInfo,
  options: { locations?: SarifLocations } = {},
): string => (format === "sarif" ? renderAuditSarif(audit, tool, options) : renderAuditJunit(audit, tool));

/** A completed audit in SARIF or JUnit XML, in parts as it is written: the same text as `renderAuditExport`. */
export const streamAuditExport = (
  format: AuditExportFormat,
  audit: AuditExportStream,
  tool: ToolInfo,
  options: { locations?: SarifLocations } = {},
): AsyncGenerator<string> =>
  format === "sarif" ? streamAuditSarif(audit, tool, options) : streamAuditJunit(audit, tool);
