import { AppError, type ScanFormat, type StoredScan } from "@scan/contract";
import { EXPORT_FORMATS, type ExportFormat, pageOfStoredScan, renderExport, TOOL } from "@scan/reports";
import type { Response } from "express";
import { preferredType } from "../http/accept";

/**
 * The media types GET /api/v1/scan/:id and GET /api/v1/audits/:id/report serve, in the server's order of preference (JSON first:
 * `*\/*` and no Accept mean the stored scan as JSON), each with the format it stands for.
 */
const SERVED: ReadonlyArray<readonly [string, ScanFormat]> = [
  ["application/json", "json"],
  ...(Object.entries(EXPORT_FORMATS) as [ExportFormat, (typeof EXPORT_FORMATS)[ExportFormat]][]).flatMap(
    ([format, { mediaType, aliases }]) => [mediaType, ...aliases].map((type) => [type, format] as const),
  ),
  ["application/pdf", "pdf"],
];

const FORMAT_OF = new Map(SERVED);
const ACCEPT_HINT =
  "Ask for application/json, text/csv, application/sarif+json, application/xml (JUnit) or application/pdf, or name the format with ?format=json|csv|sarif|junit|pdf.";

/**
 * `?format=` when given (it wins over Accept), else the type Accept prefers; 406 when it accepts
 * none. A stored scan and an audit's report are served in the same four formats.
 */
export const exportFormatFor = (format: ScanFormat | undefined, accept: string | undefined): ScanFormat => {
  if (format) return format;
  const type = preferredType(
    accept,
    SERVED.map(([served]) => served),
  );
  if (type === null) {
    throw new AppError(
      "not_acceptable",
      `This endpoint cannot answer in any type Accept names (${accept?.slice(0, 120)})`,
      ACCEPT_HINT,
    );
  }
  return FORMAT_OF.get(type) ?? "json";
};

/**
 * A finished scan as a file: CSV, SARIF or JUnit XML, to be saved (`Content-Disposition:
 * attachment`). A scan still queued or running has no result to export: 409.
 */
export const sendExport = (res: Response, format: ExportFormat, scan: StoredScan): void => {
  assertExportable(format, scan);
  const { contentType, extension } = EXPORT_FORMATS[format];
  res.setHeader("Content-Type", contentType);
  res.setHeader("Content-Disposition", `attachment; filename="scan-${scan.id}.${extension}"`);
  res.status(200).send(renderExport(format, [pageOfStoredScan(scan)], TOOL));
};

/** A scan still queued or running has no export (409); one whose checks retention dropped has none either (410). */
export const assertExportable = (format: ExportFormat | "pdf", scan: StoredScan): void => {
  if (scan.status !== "completed" && scan.status !== "failed") {
    throw new AppError(
      "scan_not_finished",
      `Scan ${scan.id} is ${scan.status}: it has no ${format} export until it has finished`,
      `Read GET /api/v1/scan/${scan.id} as JSON until its status is completed or failed, then ask again.`,
      { "Retry-After": "2" },
    );
  }
  // retention dropped its check list: an export of no checks would read as a clean page
  if (scan.checks_pruned_at !== null) {
    throw new AppError(
      "checks_pruned",
      `Scan ${scan.id} no longer has its checks: retention dropped them at ${scan.checks_pruned_at}`,
      `Its scores and issue counts are still in GET /api/v1/scan/${scan.id} as JSON; scan the page again for an export.`,
    );
  }
};

/** A client report to save: `Content-Disposition: attachment`, never kept by a shared cache. */
export const sendPdf = (res: Response, name: string, file: Buffer): void => {
  res.setHeader("Content-Type", "application/pdf");
  res.setHeader("Content-Disposition", `attachment; filename="${name}.pdf"`);
  res.setHeader("Cache-Control", "private, no-store");
  res.status(200).send(file);
};
