import { type ApiKeyView, type CreatedApiKey, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Shell } from "../components/layout";
import { ReadOnlyNotice } from "../components/read-only";
import { Empty, Field, FormError, Loading, Notice, PageTitle, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import type { ClientView } from "./workspace-clients";

/** The new key, shown this once: the service keeps only its hash. */
const NewKey = ({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) => {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("yes");
    } catch {
      // no clipboard (an insecure origin, a refusal): select the key for a manual copy
      field.current?.select();
      setCopied("failed");
    }
  };
  return (
    <section className="card new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key{created.name ? `: ${created.name}` : ""}</h2>
      <Notice kind="warning">
        Copy this key now. <strong>It will not be shown again</strong>: the service keeps only a fingerprint of it. If
        you lose it, delete it and create another.
      </Notice>
      <div className="key-row">
        <label className="visually-hidden" htmlFor="new-key-value">
          New API key
        </label>
        <input
          id="new-key-value"
          ref={field}
          className="key-value"
          readOnly
          value={created.key}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" className="small">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copying is not allowed here: the key is selected, press Ctrl+C (⌘C)."
            : ""}
      </p>
      <p className="small">
        Send it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key: &lt;key&gt;</code>.
      </p>
      <button type="button" className="button secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
};

const CreateKey = ({ clients, onCreated }: { clients: ClientView[]; onCreated: (key: CreatedApiKey) => void }) => {
  const api = useApi();
  const [name, setName] = useState("");
  const [form, setForm] = useState<"" | "A" | "B">("");
  const [clientId, setClientId] = useState("");
  const [readOnly, setReadOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = dataOf(
        await api.POST("/api/v1/keys", {
          body: {
            ...(name.trim() ? { name: name.trim() } : {}),
            ...(form ? { default_form: form } : {}),
            ...(clientId ? { client_id: clientId } : {}),
            ...(readOnly ? { read_only: true } : {}),
          },
        }),
      );
      setName("");
      setForm("");
      setClientId("");
      setReadOnly(false);
      onCreated(created);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <div className="form-row">
        <Field label="Name" hint="What the key is for, e.g. “CI” or “reporting script”.">
          {(props) => <input {...props} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field
          label="Answer format"
          hint="How the API wraps its answers to programs using this key. A request can still ask for the other format."
        >
          {(props) => (
            <select {...props} value={form} onChange={(e) => setForm(e.target.value as "" | "A" | "B")}>
              <option value="">The service's default</option>
              <option value="A">Form A: ok, data and meta</option>
              <option value="B">Form B: success and data</option>
            </select>
          )}
        </Field>
        <Field
          label="Limit to client"
          hint="A key limited to a client reaches that client's sites alone, and adds or changes no client."
        >
          {(props) => (
            <select {...props} value={clientId} onChange={(e) => setClientId(e.target.value)}>
              <option value="">No limit: the whole workspace</option>
              {clients.map((client) => (
                <option key={client.id} value={client.id}>
                  {client.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="check-field">
        <input
          id="key-read-only"
          type="checkbox"
          checked={readOnly}
          onChange={(e) => setReadOnly(e.target.checked)}
          aria-describedby="key-read-only-hint"
        />
        <label htmlFor="key-read-only">Read-only</label>
      </div>
      <p className="field-hint key-read-only-hint" id="key-read-only-hint">
        A read-only key reads and never writes: no scan, audit or change.
      </p>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Creating…" : "Create key"}
      </button>
    </form>
  );
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const countsOf = (scans: number, audits: number) => `${plural(scans, "scan")}, ${plural(audits, "audit")}`;

/** Asks before a key is deleted: a modal dialog, keyboard-usable, Escape cancels. */
const ConfirmDelete = ({ target, onClose }: { target: ApiKeyView | null; onClose: (deleted: boolean) => void }) => {
  const api = useApi();
  return (
    <Confirm
      open={target !== null}
      title={`Delete the key ${target?.name ? `“${target.name}”` : (target?.prefix ?? "")}?`}
      keepLabel="Cancel"
      actLabel="Delete key"
      busyLabel="Deleting…"
      act={async () => {
        if (target) dataOf(await api.DELETE("/api/v1/keys/{id}", { params: { path: { id: target.id } } }));
      }}
      onClose={onClose}
    >
      <p>Requests made with it will be refused at once (401). Its scans stay yours. This cannot be undone.</p>
    </Confirm>
  );
};

export const Keys = () => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const keys = useLoad(async () => dataOf(await api.GET("/api/v1/keys", { params: { query: { limit: 100 } } })), [api]);
  const clients = useLoad(
    async () => dataOf(await api.GET("/api/v1/clients", { params: { query: { limit: 100 } } })),
    [api],
  );
  const usage = useLoad(async () => dataOf(await api.GET("/api/v1/usage", {})), [api]);
  const usageOf = new Map((usage.data?.keys ?? []).map((key) => [key.key_id, key]));
  const deletedWithUse = (usage.data?.keys ?? []).filter((key) => key.revoked);
  const monthOf = (id: string) => {
    if (usage.state === "error") return <span className="muted">not read</span>;
    if (!usage.data) return <span className="muted">…</span>;
    const used = usageOf.get(id);
    return countsOf(used?.scans ?? 0, used?.audits ?? 0);
  };
  const clientName = (id: string) => clients.data?.find((client) => client.id === id)?.name ?? "a client";

  return (
    <Shell>
      <PageTitle>API keys</PageTitle>
      <p className="muted">
        A key lets a program use the API as you: scans made with it are yours and count against your plan.
      </p>
      <ReadOnlyNotice />
      {created ? (
        <NewKey created={created} onDone={() => setCreated(null)} />
      ) : canWrite ? (
        <CreateKey
          clients={clients.data ?? []}
          onCreated={(key) => {
            setDeleted(null);
            setCreated(key);
            void keys.reload();
          }}
        />
      ) : null}
      {deleted ? <Notice kind="success">The key {deleted} is deleted.</Notice> : null}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        {keys.state === "error" ? <Problem problem={keys.problem} retry={() => void keys.reload()} /> : null}
        {keys.state === "loading" && !keys.data ? <Loading what="your keys" /> : null}
        {keys.data && keys.data.length === 0 ? (
          <Empty title="No keys yet.">
            {canWrite ? <p>Create one above to call the API from a script, CI or the command-line client.</p> : null}
          </Empty>
        ) : null}
        {keys.data && keys.data.length > 0 ? (
          <TableWrap label="API keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Reaches</th>
                  <th scope="col">Answer format</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">This month</th>
                  {canWrite ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name ?? <span className="muted">unnamed</span>}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>
                      {key.client_id ? `${clientName(key.client_id)} only` : "the whole workspace"}
                      {key.read_only ? (
                        <>
                          , <strong>read-only</strong>
                        </>
                      ) : null}
                    </td>
                    <td>{key.default_form ? `Form ${key.default_form}` : "the service's default"}</td>
                    <td>{formatDateTime(key.created_at)}</td>
                    <td>{formatDateTime(key.last_used_at)}</td>
                    <td>{monthOf(key.id)}</td>
                    {canWrite ? (
                      <td>
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => setDeleting(key)}
                          aria-label={`Delete the key ${key.name ?? key.prefix}`}
                        >
                          Delete
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
        {usage.state === "error" ? (
          <p className="small muted">
            This month's use of each key could not be read: {usage.problem.message}{" "}
            <button type="button" className="button secondary small" onClick={() => void usage.reload()}>
              Read it again
            </button>
          </p>
        ) : null}
        {usage.data ? (
          <p className="small muted">
            This month counts from {formatDateTime(usage.data.month.start)} until{" "}
            {formatDateTime(usage.data.month.resets_at)}: the scans and audits made with each key. Those made in the
            dashboard or by a schedule count for no key.
          </p>
        ) : null}
        {deletedWithUse.length > 0 ? (
          <p className="small">
            Deleted keys this month:{" "}
            {deletedWithUse
              .map((key) => `${key.name ?? `${key.prefix}…`} ${countsOf(key.scans, key.audits)}`)
              .join("; ")}
            .
          </p>
        ) : null}
      </section>
      <ConfirmDelete
        target={deleting}
        onClose={(wasDeleted) => {
          if (wasDeleted && deleting) {
            setDeleted(deleting.name ? `“${deleting.name}”` : `${deleting.prefix}…`);
            void keys.reload();
          }
          setDeleting(null);
        }}
      />
    </Shell>
  );
};
