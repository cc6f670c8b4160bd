import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, Loading, Notice, Problem, TableWrap } from "../components/ui";
import { formatDateTime, formatNumber } from "../format";
import { asProblem, useLoad } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";

/**
 * The workspace's clients: each with its sites and this month's scans, audits and audit pages
 * against its own quotas. Members and up add, change and delete them; a viewer reads. Sites are assigned to a
 * client from the Sites page.
 */

export type ClientView = DataOf<"listClients">[number];
type Usage = DataOf<"getUsage">;
type Count = { used: number; limit: number | null };

/** "12 of 500" or "12 (no quota)": a use against its quota. */
const used = (count: Count | undefined): string =>
  count === undefined
    ? "–"
    : count.limit === null
      ? `${formatNumber(count.used)} (no quota)`
      : `${formatNumber(count.used)} of ${formatNumber(count.limit)}`;

/** A quota field's text as the API takes it: empty is none, else a whole number. */
const quotaOf = (text: string): number | null => (text.trim() === "" ? null : Number(text));

const QuotaField = ({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) => (
  <Field label={label} hint="A calendar month (UTC). Empty: none of its own, the plan's alone.">
    {(props) => (
      <input
        {...props}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    )}
  </Field>
);

/** Adds a client, or changes one (`editing`); the API's refusal shows under the form. */
const ClientForm = ({
  editing,
  onSaved,
  onCancel,
}: {
  editing: ClientView | null;
  onSaved: (name: string) => void;
  onCancel: () => void;
}) => {
  const api = useApi();
  const [name, setName] = useState(editing?.name ?? "");
  const [notes, setNotes] = useState(editing?.notes ?? "");
  const [scanQuota, setScanQuota] = useState(editing?.scan_quota?.toString() ?? "");
  const [auditQuota, setAuditQuota] = useState(editing?.audit_quota?.toString() ?? "");
  const [pageQuota, setPageQuota] = useState(editing?.audit_page_quota?.toString() ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) first.current?.focus();
  }, [editing]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      name: name.trim(),
      notes: notes.trim() === "" ? null : notes.trim(),
      scan_quota: quotaOf(scanQuota),
      audit_quota: quotaOf(auditQuota),
      audit_page_quota: quotaOf(pageQuota),
    };
    try {
      if (editing) dataOf(await api.PATCH("/api/v1/clients/{id}", { params: { path: { id: editing.id } }, body }));
      else dataOf(await api.POST("/api/v1/clients", { body }));
      if (!editing) {
        setName("");
        setNotes("");
        setScanQuota("");
        setAuditQuota("");
        setPageQuota("");
      }
      onSaved(body.name);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  const titleId = editing ? "edit-client-title" : "add-client-title";
  return (
    <form className="card client-form" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{editing ? `Change ${editing.name}` : "Add a client"}</h3>
      <div className="form-row">
        <Field label="Client name" hint="Unique in this workspace.">
          {(props) => (
            <input
              {...props}
              ref={first}
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <QuotaField label="Scans a month" value={scanQuota} onChange={setScanQuota} />
        <QuotaField label="Audits a month" value={auditQuota} onChange={setAuditQuota} />
        <QuotaField label="Audit pages a month" value={pageQuota} onChange={setPageQuota} />
      </div>
      <Field label="Notes" hint="Optional: contacts, contract, anything the team should know.">
        {(props) => (
          <textarea {...props} rows={2} maxLength={2000} value={notes} onChange={(e) => setNotes(e.target.value)} />
        )}
      </Field>
      <FormError error={error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Saving…" : editing ? "Save client" : "Add client"}
        </button>
        {editing ? (
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
};

const MonthUsage = ({ usage }: { usage: Usage }) => (
  <p className="muted small">
    This month, until {formatDateTime(usage.month.resets_at)}
    {usage.workspace
      ? `: the workspace's scans ${used(usage.workspace.scans)}, its audits ${usage.workspace.audits.used} (${usage.workspace.audit_pages.used} pages)`
      : ""}
    {usage.unassigned
      ? `; counted for no client: ${usage.unassigned.scans} scans and ${usage.unassigned.audits} audits (${usage.unassigned.audit_pages} pages).`
      : "."}
  </p>
);

export const Clients = () => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState<ClientView | null>(null);
  const [deleting, setDeleting] = useState<ClientView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const clients = useLoad(async () => {
    const [list, usage] = await Promise.all([
      api.GET("/api/v1/clients", { params: { query: { limit: 100 } } }),
      api.GET("/api/v1/usage", {}),
    ]);
    return { items: dataOf(list), usage: dataOf(usage) };
  }, [api]);
  const usageOf = (id: string) => clients.data?.usage.clients.find((entry) => entry.client_id === id);
  const saved = (what: string) => {
    setMessage(what);
    setEditing(null);
    void clients.reload();
  };
  return (
    <section aria-labelledby="clients-title">
      <h2 id="clients-title">Clients</h2>
      <p className="muted">
        Group the workspace's sites by client, each with its own monthly quotas within the plan. Assign a site to a
        client from <Link to="/sites">Sites</Link>; limit an API key to one client under{" "}
        <Link to="/settings/keys">API keys</Link>.
      </p>
      {message ? <Notice kind="success">{message}</Notice> : null}
      {clients.state === "error" ? <Problem problem={clients.problem} retry={() => void clients.reload()} /> : null}
      {clients.state === "loading" && !clients.data ? <Loading what="the clients" /> : null}
      {clients.data ? <MonthUsage usage={clients.data.usage} /> : null}
      {clients.data && clients.data.items.length === 0 ? (
        <Empty title="No clients yet.">{canWrite ? <p>Add one below.</p> : null}</Empty>
      ) : null}
      {clients.data && clients.data.items.length > 0 ? (
        <TableWrap label="Client list">
          <table>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col" className="num">
                  Sites
                </th>
                <th scope="col">Scans this month</th>
                <th scope="col">Audits this month</th>
                <th scope="col">Audit pages this month</th>
                {canWrite ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {clients.data.items.map((client) => (
                <tr key={client.id}>
                  <td>
                    {client.name}
                    {client.notes ? <div className="muted small client-notes">{client.notes}</div> : null}
                  </td>
                  <td className="num">{client.site_count}</td>
                  <td>{used(usageOf(client.id)?.scans)}</td>
                  <td>{used(usageOf(client.id)?.audits)}</td>
                  <td>{used(usageOf(client.id)?.audit_pages)}</td>
                  {canWrite ? (
                    <td className="row-actions">
                      <button
                        type="button"
                        className="button secondary small"
                        onClick={() => {
                          setMessage(null);
                          setEditing(client);
                        }}
                        aria-label={`Change ${client.name}`}
                      >
                        Change
                      </button>
                      <button
                        type="button"
                        className="button danger small"
                        onClick={() => setDeleting(client)}
                        aria-label={`Delete ${client.name}`}
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
      {canWrite ? (
        <ClientForm
          key={editing?.id ?? "new"}
          editing={editing}
          onSaved={(name) => saved(editing ? `The client ${name} is saved.` : `The client ${name} is added.`)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <Confirm
        open={deleting !== null}
        title={`Delete the client ${deleting?.name ?? ""}?`}
        keepLabel="Keep it"
        actLabel="Delete client"
        busyLabel="Deleting…"
        act={async () => {
          if (deleting) dataOf(await api.DELETE("/api/v1/clients/{id}", { params: { path: { id: deleting.id } } }));
        }}
        onClose={(acted) => {
          if (acted && deleting) saved(`The client ${deleting.name} is deleted; its sites are kept, with no client.`);
          setDeleting(null);
        }}
      >
        <p>
          Its {deleting?.site_count ?? 0} site{deleting?.site_count === 1 ? "" : "s"} stay, with every record, assigned
          to no client. A client that an API key is limited to cannot be deleted until that key is.
        </p>
      </Confirm>
    </section>
  );
};
