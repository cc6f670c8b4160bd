import { dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useId, useRef, useState } from "react";
import { Field, Notice } from "../components/ui";
import { asProblem } from "../load";
import { useApi } from "../session";
import { rowProblems } from "./row-problems";

type Refusal = { lead: string; rows: string[]; hint: string | null };

/** Imports prompts from a CSV file chosen or pasted: all or nothing, each faulty row named. */
export const PromptImport = ({ siteId, onImported }: { siteId: string; onImported: (message: string) => void }) => {
  const api = useApi();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState("");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [said, setSaid] = useState<string | null>(null);
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
      const answer = dataOf(
        await api.POST("/api/v1/sites/{id}/prompts/import", {
          params: { path: { id: siteId } },
          body: csv,
          headers: { "Content-Type": "text/csv" },
          // the CSV is the body as it is, not a JSON string
          bodySerializer: (body: string) => body,
        }),
      );
      setPasted("");
      if (fileInput.current) fileInput.current.value = "";
      const skipped = answer.skipped.length;
      const message = `${answer.imported} ${answer.imported === 1 ? "prompt" : "prompts"} imported from ${answer.rows} ${
        answer.rows === 1 ? "row" : "rows"
      }${skipped > 0 ? `; ${skipped} skipped, tracked already or repeated in the file` : ""}.`;
      if (answer.imported > 0) onImported(message);
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
      aria-labelledby="import-title"
      className="add-record"
      aria-describedby={refusal ? errorId : undefined}
    >
      <h3 id="import-title">Import prompts from CSV</h3>
      <p className="muted small">
        The first row names the columns: <code>text</code> (required), <code>topic</code>, <code>tags</code> (between{" "}
        <code>|</code>), <code>locale</code>. All or nothing: a faulty row refuses the whole file; prompts tracked
        already are skipped.
      </p>
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
              placeholder={"text,topic,tags,locale\nBest widget for boats?,marine,buying|boats,en-GB"}
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
        {busy ? "Importing…" : "Import prompts"}
      </button>
    </form>
  );
};
