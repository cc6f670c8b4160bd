import { problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { asProblem } from "../load";
import { Field, FormError } from "./ui";

type RenameProps = {
  open: boolean;
  title: string;
  label: string;
  hint?: string;
  /** the value the field starts with */
  current: string;
  maxLength: number;
  saveLabel: string;
  save: (value: string) => Promise<void>;
  onClose: (saved: boolean) => void;
};

/**
 * Changes one name in a native modal dialog: the field, its first control, has the focus when
 * it opens (showModal's focusing steps), Enter
 * saves, Escape or Cancel leaves everything as it was, and the API's refusal shows in it.
 */
export const Rename = ({ open, title, label, hint, current, maxLength, saveLabel, save, onClose }: RenameProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [value, setValue] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open && !dialog.current?.open) {
      setValue(current);
      setError(null);
      dialog.current?.showModal();
    }
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open, current]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await save(value.trim());
      onClose(true);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog ref={dialog} className="dialog" aria-label={title} onClose={() => open && onClose(false)}>
      <form onSubmit={submit}>
        <h2>{title}</h2>
        <Field label={label} {...(hint ? { hint } : {})}>
          {(props) => (
            <input {...props} required maxLength={maxLength} value={value} onChange={(e) => setValue(e.target.value)} />
          )}
        </Field>
        <FormError error={error} />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={() => onClose(false)}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Saving…" : saveLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
};
