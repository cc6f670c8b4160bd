import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useState } from "react";
import { formatDateTime } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import { manages, type WorkspaceView } from "../workspace";
import { Confirm } from "./confirm";
import { Empty, Field, FormError, Loading, Notice, Problem, TableWrap } from "./ui";

/**
 * The workspace's own keys for the AI engines' APIs, for its owners and admins (the API's rule):
 * set, replace or remove one per engine. A key is never shown back, only its last four characters.
 */

type EngineKey = DataOf<"listEngineKeys">[number];
type Engine = EngineKey["engine"];

const ENGINES: Engine[] = ["chatgpt", "claude", "perplexity", "gemini"];
const ENGINE_NAME: Record<Engine, string> = {
  chatgpt: "ChatGPT (OpenAI)",
  claude: "Claude (Anthropic)",
  perplexity: "Perplexity",
  gemini: "Gemini (Google)",
};

const KeyForm = ({
  workspaceId,
  keys,
  onSaved,
}: {
  workspaceId: string;
  keys: EngineKey[];
  onSaved: (message: string) => void;
}) => {
  const api = useApi();
  const [engine, setEngine] = useState<Engine>(
    ENGINES.find((one) => !keys.some((key) => key.engine === one)) ?? "chatgpt",
  );
  const [apiKey, setApiKey] = useState("");
  const [model, setModel] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const replacing = keys.some((key) => key.engine === engine);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const saved = dataOf(
        await api.PUT("/api/v1/workspaces/{id}/engine-keys/{engine}", {
          params: { path: { id: workspaceId, engine } },
          body: { api_key: apiKey.trim(), model: model.trim() === "" ? null : model.trim() },
        }),
      );
      setApiKey("");
      setModel("");
      onSaved(`The ${ENGINE_NAME[engine]} key ending in ${saved.key_last4} is ${replacing ? "replaced" : "set"}.`);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="engine-key-form-title" className="add-record">
      <h3 id="engine-key-form-title">Set or replace a key</h3>
      <div className="form-row">
        <Field label="Engine">
          {(props) => (
            <select {...props} value={engine} onChange={(e) => setEngine(e.target.value as Engine)}>
              {ENGINES.map((one) => (
                <option key={one} value={one}>
                  {ENGINE_NAME[one]}
                  {keys.some((key) => key.engine === one) ? " (has a key)" : ""}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="API key" hint="Never shown again: only its last four characters.">
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="off"
              spellCheck={false}
              required
              minLength={16}
              maxLength={512}
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
            />
          )}
        </Field>
        <Field label="Model" hint="Optional: empty for the service's default.">
          {(props) => (
            <input
              {...props}
              spellCheck={false}
              maxLength={100}
              value={model}
              onChange={(e) => setModel(e.target.value)}
            />
          )}
        </Field>
      </div>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Saving…" : replacing ? "Replace key" : "Set key"}
      </button>
    </form>
  );
};

const Keys = ({ workspace }: { workspace: WorkspaceView }) => {
  const api = useApi();
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<EngineKey | null>(null);
  const keys = useLoad(
    async () =>
      dataOf(await api.GET("/api/v1/workspaces/{id}/engine-keys", { params: { path: { id: workspace.id } } })),
    [api, workspace.id, version],
  );
  const changed = (message: string) => {
    setNotice(message);
    setVersion((n) => n + 1);
  };
  return (
    <section className="card" aria-labelledby="engine-keys-title">
      <h2 id="engine-keys-title">AI engine keys</h2>
      <p className="muted">
        The workspace's visibility runs ask each engine with its own key when it has one here, else with the service's.
      </p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {keys.state === "error" && !keys.data ? (
        <Problem problem={keys.problem} retry={() => void keys.reload()} />
      ) : null}
      {!keys.data && keys.state !== "error" ? <Loading what="the engine keys" /> : null}
      {keys.data && keys.data.length === 0 ? <Empty title="No engine keys: the service's keys are used." /> : null}
      {keys.data && keys.data.length > 0 ? (
        <TableWrap label="Engine key list">
          <table>
            <thead>
              <tr>
                <th scope="col">Engine</th>
                <th scope="col">Model</th>
                <th scope="col">Key</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.engine}>
                  <td>{ENGINE_NAME[key.engine]}</td>
                  <td className="nowrap">{key.model ?? <span className="muted">default</span>}</td>
                  <td className="nowrap">
                    <span className="visually-hidden">ending in </span>
                    <code>…{key.key_last4}</code>
                  </td>
                  <td>{formatDateTime(key.updated_at)}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button danger small"
                      onClick={() => setRemoving(key)}
                      aria-label={`Remove the ${ENGINE_NAME[key.engine]} key`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {keys.data ? <KeyForm workspaceId={workspace.id} keys={keys.data} onSaved={changed} /> : null}
      <Confirm
        open={removing !== null}
        title={`Remove the ${removing ? ENGINE_NAME[removing.engine] : ""} key?`}
        keepLabel="Keep it"
        actLabel="Remove key"
        busyLabel="Removing…"
        act={async () => {
          if (!removing) return;
          dataOf(
            await api.DELETE("/api/v1/workspaces/{id}/engine-keys/{engine}", {
              params: { path: { id: workspace.id, engine: removing.engine } },
            }),
          );
          changed(`The ${ENGINE_NAME[removing.engine]} key is removed.`);
        }}
        onClose={() => setRemoving(null)}
      >
        <p>
          The sealed key is deleted. Runs then ask this engine with the service's key, where the operator has set one.
        </p>
      </Confirm>
    </section>
  );
};

/** Shown to the workspace's owners and admins only: the others cannot read or change the keys. */
export const EngineKeys = ({ workspace }: { workspace: WorkspaceView }) =>
  manages(workspace.role) ? <Keys key={workspace.id} workspace={workspace} /> : null;
