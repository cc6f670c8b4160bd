import { dataOf, problemSentence, type SiteView } from "@scan/client";
import { type FormEvent, useState } from "react";
import { siteTitle } from "../format";
import { asProblem } from "../load";
import { useApi } from "../session";
import type { ClientView } from "./workspace-clients";

/**
 * The client a site is assigned to: a select and a button (keyboard: Tab to the select, arrows,
 * Tab, Enter). A viewer reads the client's name.
 */
export const ClientOfSite = ({
  site,
  clients,
  canWrite,
  onDone,
}: {
  site: SiteView;
  clients: ClientView[];
  canWrite: boolean;
  onDone: (message: string | null, error: string | null) => void;
}) => {
  const api = useApi();
  const [clientId, setClientId] = useState(site.client_id ?? "");
  const [busy, setBusy] = useState(false);
  const nameOf = (id: string) => clients.find((client) => client.id === id)?.name ?? "no client";
  if (!canWrite) return <>{site.client_id ? nameOf(site.client_id) : <span className="muted">none</span>}</>;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      dataOf(
        await api.PATCH("/api/v1/sites/{id}", {
          params: { path: { id: site.id } },
          body: { client_id: clientId || null },
        }),
      );
      onDone(
        clientId
          ? `The site “${siteTitle(site)}” is assigned to ${nameOf(clientId)}.`
          : `The site “${siteTitle(site)}” is assigned to no client.`,
        null,
      );
    } catch (failure) {
      const problem = asProblem(failure);
      setClientId(site.client_id ?? "");
      onDone(null, `The site “${siteTitle(site)}” keeps its client: ${problemSentence(problem.message, problem.hint)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="role-change" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`client-${site.id}`}>
        Client of {siteTitle(site)}
      </label>
      <select id={`client-${site.id}`} value={clientId} onChange={(e) => setClientId(e.target.value)}>
        <option value="">No client</option>
        {clients.map((client) => (
          <option key={client.id} value={client.id}>
            {client.name}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="button secondary small"
        disabled={busy || clientId === (site.client_id ?? "")}
        aria-label={`Assign ${siteTitle(site)}`}
      >
        {busy ? "Saving…" : "Assign"}
      </button>
    </form>
  );
};
