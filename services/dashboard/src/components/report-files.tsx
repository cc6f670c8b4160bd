import { useState } from "react";
import { asProblem } from "../load";
import { formatLabel, type ReportFormat, saveReportFile } from "../report-files";
import { Link } from "../router";
import { useApi } from "../session";
import { FormError } from "./ui";

const FORMATS: ReportFormat[] = ["pdf", "csv", "sarif", "junit"];
const PRINT_PATH = { scan: "scans", audit: "audits", visibility: "visibility" } as const;

/**
 * A finished scan's, a completed audit's or a completed visibility run's files: the client report
 * (PDF, in the workspace's name and logo), CSV (a run's: its answers), SARIF and JUnit XML, each
 * fetched with the session's JWT and saved; and the print view the PDF is made from.
 */
export const ReportFiles = ({
  kind,
  id,
  formats = FORMATS,
}: {
  kind: "scan" | "audit" | "visibility";
  id: string;
  /** the files offered; the audit page offers its CSVs beside these */
  formats?: ReportFormat[];
}) => {
  const api = useApi();
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (format: ReportFormat) => {
    setBusy(format);
    setError(null);
    try {
      await saveReportFile(api, { kind, id }, format);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(`The ${formatLabel(format)} could not be made: ${problem.message}. ${problem.hint ?? ""}`.trim());
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="exports">
      {formats.map((format) => (
        <button
          key={format}
          type="button"
          className={`button small ${format === "pdf" ? "" : "secondary"}`}
          onClick={() => void save(format)}
          disabled={busy !== null}
        >
          {busy === format
            ? "Preparing…"
            : format === "pdf"
              ? "Client report (PDF)"
              : `Download ${kind === "audit" ? "report " : kind === "visibility" ? "answers " : ""}(${formatLabel(format)})`}
        </button>
      ))}
      <Link className="button secondary small" to={`/print/${PRINT_PATH[kind]}/${id}`}>
        Print view
      </Link>
      <FormError error={error} />
    </div>
  );
};
