import { problemSentence } from "@scan/client";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { asProblem } from "../load";
import { FormError } from "./ui";

type ConfirmProps = {
  /** shown while set; null closes the dialog */
  open: boolean;
  title: string;
  children: ReactNode;
  /** the safe choice, first in the dialog so it has the focus when it opens */
  keepLabel: string;
  actLabel: string;
  busyLabel: string;
  act: () => Promise<void>;
  onClose: (acted: boolean) => void;
};

/**
 * Asks before something that cannot be undone: a native modal dialog (the focus moves into it
 * and comes back; Escape cancels), the safe choice first, the API's refusal shown in it.
 */
export const Confirm = ({ open, title, children, keepLabel, actLabel, busyLabel, act, onClose }: ConfirmProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open && !dialog.current?.open) {
      setError(null);
      dialog.current?.showModal();
    }
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open]);
  const confirm = async () => {
    setBusy(true);
    try {
      await act();
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
      <h2>{title}</h2>
      {children}
      <FormError error={error} />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={() => onClose(false)}>
          {keepLabel}
        </button>
        <button type="button" className="button danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? busyLabel : actLabel}
        </button>
      </div>
    </dialog>
  );
};
