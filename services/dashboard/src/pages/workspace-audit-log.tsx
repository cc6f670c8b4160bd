import { type DataOf, dataOf, type operations } from "@scan/client";
import { useState } from "react";
import { Empty, Field, Loading, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import type { WorkspaceView } from "../workspace";

/**
 * The workspace's audit log, for its owners and admins (the API answers them alone): who changed
 * what and when, newest first, one action at a time if asked; "Load more" follows the API's cursor,
 * so entries written meanwhile do not shift what is already shown.
 */

type Entry = DataOf<"listWorkspaceAuditLog">[number];
type Action = NonNullable<NonNullable<operations["listWorkspaceAuditLog"]["parameters"]["query"]>["action"]>;

const ACTIONS: Record<Action, string> = {
  "workspace.renamed": "Workspace renamed",
  "member.invited": "Member invited",
  "member.invitation_revoked": "Invitation revoked",
  "member.joined": "Member joined",
  "member.role_changed": "Role changed",
  "member.removed": "Member removed",
  "member.left": "Member left",
  "key.created": "Key created",
  "key.revoked": "Key revoked",
  "client.created": "Client created",
  "client.changed": "Client changed",
  "client.deleted": "Client deleted",
  "site.created": "Site created",
  "site.renamed": "Site renamed",
  "site.assigned": "Site assigned",
  "site.deleted": "Site deleted",
  "schedule.created": "Schedule created",
  "schedule.changed": "Schedule changed",
  "schedule.deleted": "Schedule deleted",
};

const PAGE_SIZE = 20;
const NO_NAMES: Names = new Map();

/** Client ids by name, so an entry says "client_id: Acme" rather than a uuid. */
type Names = Map<string, string>;

const shown = (value: unknown, names: Names): string => {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return names.get(value) ?? value;
  return JSON.stringify(value);
};

/** A change as "field: from → to" or "field: value". */
const fieldText = (name: string, value: unknown, names: Names): string => {
  if (value && typeof value === "object" && !Array.isArray(value) && "from" in value && "to" in value) {
    const { from, to } = value as { from: unknown; to: unknown };
    return `${name}: ${shown(from, names)} → ${shown(to, names)}`;
  }
  return `${name}: ${shown(value, names)}`;
};

const Changes = ({ changes, names }: { changes: Entry["changes"]; names: Names }) => {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <span className="muted">–</span>;
  return (
    <ul className="changes">
      {fields.map(([name, value]) => (
        <li key={name}>{fieldText(name, value, name === "client_id" ? names : NO_NAMES)}</li>
      ))}
    </ul>
  );
};

const actorText = (actor: Entry["actor"]): string =>
  actor.type === "key" ? `API key ${actor.key_prefix ?? ""}…` : (actor.email ?? actor.user_id ?? "someone");

export const AuditLog = ({ workspace }: { workspace: WorkspaceView }) => {
  const api = useApi();
  const [action, setAction] = useState<Action | "">("");
  const [more, setMore] = useState<{ entries: Entry[]; cursor: string | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<ReturnType<typeof asProblem> | null>(null);
  const page = async (cursor: string | null) => {
    const answer = await api.GET("/api/v1/workspaces/{id}/audit-log", {
      params: {
        path: { id: workspace.id },
        query: { limit: PAGE_SIZE, ...(action ? { action } : {}), ...(cursor ? { cursor } : {}) },
      },
    });
    return { entries: dataOf(answer), cursor: answer.data?.meta.next_cursor ?? null };
  };
  const first = useLoad(async () => {
    setMore(null);
    setMoreError(null);
    return page(null);
  }, [api, workspace.id, workspace.name, action]);
  const clients = useLoad(
    async () => dataOf(await api.GET("/api/v1/clients", { params: { query: { limit: 100 } } })),
    [api, workspace.id],
  );
  const names: Names = new Map((clients.data ?? []).map((client) => [client.id, client.name]));
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const cursor = more ? more.cursor : (first.data?.cursor ?? null);
  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(null);
    try {
      const next = await page(cursor);
      setMore((previous) => ({ entries: [...(previous?.entries ?? []), ...next.entries], cursor: next.cursor }));
    } catch (failure) {
      setMoreError(asProblem(failure));
    } finally {
      setLoadingMore(false);
    }
  };
  return (
    <section aria-labelledby="audit-log-title">
      <h2 id="audit-log-title">Audit log</h2>
      <p className="muted">
        Every change of this workspace's members, keys, clients, sites and schedules, newest first. Shown to owners and
        admins.
      </p>
      <div className="filters">
        <Field label="Action">
          {(props) => (
            <select {...props} value={action} onChange={(e) => setAction(e.target.value as Action | "")}>
              <option value="">Every action</option>
              {Object.entries(ACTIONS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button
          type="button"
          className="button secondary refresh-log"
          disabled={first.state === "loading"}
          onClick={() => void first.reload()}
        >
          Show the latest
        </button>
      </div>
      {first.state === "error" ? <Problem problem={first.problem} retry={() => void first.reload()} /> : null}
      {first.state === "loading" && !first.data ? <Loading what="the audit log" /> : null}
      {first.data && entries.length === 0 ? (
        <Empty title={action ? `No “${ACTIONS[action]}” entry.` : "Nothing recorded yet."} />
      ) : null}
      {entries.length > 0 ? (
        <TableWrap label="Audit log entries">
          <table className="audit-log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.at)}</td>
                  <td>{actorText(entry.actor)}</td>
                  <td>{ACTIONS[entry.action] ?? entry.action}</td>
                  <td>
                    {entry.target.type} <code className="small">{entry.target.id.slice(0, 8)}</code>
                  </td>
                  <td>
                    <Changes changes={entry.changes} names={names} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {moreError ? <Problem problem={moreError} retry={() => void loadMore()} /> : null}
      {cursor ? (
        <button type="button" className="button secondary" disabled={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
};
