import { problemSentence } from "@scan/client";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { asProblem } from "../load";
import { rowProblems } from "../pages/row-problems";
import { Field, Notice } from "./ui";

type Refusal = { lead: string; rows: string[]; hint: string | null };

/** What an import did: the sentence to show, and whether it changed what the page lists. */
export type Imported = { message: string; changed: boolean };

/**
 * A CSV file chosen or pasted, sent whole: all or nothing, each faulty row the API names listed
 * under the lead. A changing import is told to the page (`onImported`), one that changed
 * nothing is said here.
 */
export const CsvImport = ({
  title,
  about,
  placeholder,
  submitLabel,
  send,
  onImported,
}: {
  title: string;
  about: ReactNode;
  placeholder: string;
  submitLabel: string;
  send: (csv: string) => Promise<Imported>;
  onImported: (message: string) => void;
}) => {
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState("");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const titleId = useId();
  const errorId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    setSaid(null);
    const file = fileInput.current?.files?.[0];
    const csv = file ? await file.text() : pasted;
    if (csv.trim() === "") {
      setRefusal({ lead: "Choose a CSV file or paste its text first.", rows: [], hint: null });
      return;
    }
    setBusy(true);
    try {
      const { message, changed } = await send(csv);
      setPasted("");
      if (fileInput.current) fileInput.current.value = "";
      if (changed) onImported(message);
      else setSaid(message);
    } catch (failure) {
      const problem = asProblem(failure);
      const { lead, rows } = rowProblems(problem.message);
      setRefusal(
        rows.length > 0
          ? { lead, rows, hint: problem.hint }
          : { lead: problemSentence(problem.message, problem.hint), rows: [], hint: null },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={submit}
      aria-labelledby={titleId}
      className="add-record"
      aria-describedby={refusal ? errorId : undefined}
    >
      <h3 id={titleId}>{title}</h3>
      <p className="muted small">{about}</p>
      <div className="form-row">
        <Field label="CSV file">
          {(props) => <input {...props} ref={fileInput} type="file" accept=".csv,text/csv,text/plain" />}
        </Field>
        <Field label="Or paste the CSV" hint="Used when no file is chosen.">
          {(props) => (
            <textarea
              {...props}
              rows={5}
              spellCheck={false}
              placeholder={placeholder}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
            />
          )}
        </Field>
      </div>
      {refusal ? (
        <div className="form-error import-refusal" role="alert" id={errorId}>
          <p>{refusal.lead}</p>
          {refusal.rows.length > 0 ? (
            <ul>
              {refusal.rows.map((row) => (
                <li key={row}>{row}</li>
              ))}
            </ul>
          ) : null}
          {refusal.hint ? <p className="import-hint">{refusal.hint}</p> : null}
        </div>
      ) : null}
      {said ? <Notice kind="info">{said}</Notice> : null}
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Importing…" : submitLabel}
      </button>
    </form>
  );
};
