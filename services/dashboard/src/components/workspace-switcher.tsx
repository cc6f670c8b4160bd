import { problemSentence } from "@scan/client";
import { type FormEvent, useId, useState } from "react";
import { asProblem } from "../load";
import { ROLE_NAMES, useWorkspaces } from "../workspace";

/**
 * The header's workspace switcher: the member's workspaces with their role there. A select and
 * a Switch button rather than switching on each change, so moving through the options by
 * keyboard changes nothing until the choice is confirmed.
 */
export const WorkspaceSwitcher = () => {
  const { workspaces, current, switchTo } = useWorkspaces();
  const id = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = workspaces.data ?? [];
  if (!current || list.length === 0) return null;
  const selected = chosen ?? current.id;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || selected === current.id) return;
    setBusy(true);
    setError(null);
    try {
      await switchTo(selected);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
      setBusy(false);
    }
  };
  return (
    <form className="switcher" onSubmit={submit} aria-label="Switch workspace">
      <label htmlFor={id}>Workspace</label>
      <select id={id} value={selected} onChange={(e) => setChosen(e.target.value)}>
        {list.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name} ({ROLE_NAMES[workspace.role]})
          </option>
        ))}
      </select>
      <button type="submit" className="button secondary small" disabled={busy || selected === current.id}>
        {busy ? "Switching…" : "Switch"}
      </button>
      {error ? (
        <p className="switcher-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
};
