import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, Loading, Notice, Pager, Problem, TableWrap } from "../components/ui";
import { linesOf } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";

type Competitor = DataOf<"listCompetitors">[number];
const LIST_SIZE = 20;

type Refusal = { text: string; planLimit: boolean };

/** Adds a competitor, or changes the one given. */
const CompetitorForm = ({
  siteId,
  editing,
  onDone,
  onCancel,
}: {
  siteId: string;
  editing: Competitor | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) => {
  const api = useApi();
  const [name, setName] = useState(editing?.name ?? "");
  const [aliases, setAliases] = useState(editing?.aliases.join(", ") ?? "");
  const [domains, setDomains] = useState(editing?.domains.join(", ") ?? "");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) first.current?.focus();
  }, [editing]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setRefusal(null);
    const fields = { name, aliases: linesOf(aliases), domains: linesOf(domains) };
    try {
      if (editing) {
        const changed = dataOf(
          await api.PATCH("/api/v1/sites/{id}/competitors/{competitorId}", {
            params: { path: { id: siteId, competitorId: editing.id } },
            body: fields,
          }),
        );
        onDone(`${changed.name} is saved.`);
      } else {
        const added = dataOf(
          await api.POST("/api/v1/sites/{id}/competitors", { params: { path: { id: siteId } }, body: fields }),
        );
        setName("");
        setAliases("");
        setDomains("");
        onDone(`${added.name} is a competitor now.`);
      }
    } catch (failure) {
      const problem = asProblem(failure);
      // Form A answers the plan's limit as 403 `forbidden` (Form B `PLAN_LIMIT`), as a viewer's
      // refusal is: the limit's message names the plan
      const planLimit = problem.code === "PLAN_LIMIT" || (problem.status === 403 && /\bplan\b/i.test(problem.message));
      setRefusal({ text: problemSentence(problem.message, problem.hint), planLimit });
    } finally {
      setBusy(false);
    }
  };
  const titleId = editing ? "edit-competitor-title" : "add-competitor-title";
  return (
    <form onSubmit={submit} aria-labelledby={titleId} className="add-record">
      <h3 id={titleId}>{editing ? `Change ${editing.name}` : "Add a competitor"}</h3>
      <div className="form-row">
        <Field label="Competitor name" hint="As answers name it; at most 100 characters.">
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
        <Field label="Other names" hint="Optional, between commas.">
          {(props) => <input {...props} value={aliases} onChange={(e) => setAliases(e.target.value)} />}
        </Field>
        <Field label="Domains" hint="Optional, between commas: rival.example.">
          {(props) => <input {...props} value={domains} onChange={(e) => setDomains(e.target.value)} />}
        </Field>
      </div>
      {refusal?.planLimit ? (
        <div className="notice notice-warning plan-limit" role="alert">
          <p className="state-title">Your plan's limit of competitors for this site is reached.</p>
          <p>{refusal.text}</p>
        </div>
      ) : (
        <FormError error={refusal?.text ?? null} />
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Saving…" : editing ? "Save competitor" : "Add competitor"}
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

/** A site's competitors, newest first and paged, with adding, changing and deleting. */
export const Competitors = ({
  siteId,
  page,
  hrefFor,
  onChanged,
}: {
  siteId: string;
  page: number;
  hrefFor: (page: number) => string;
  onChanged: () => void;
}) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Competitor | null>(null);
  const [deleting, setDeleting] = useState<Competitor | null>(null);
  const competitors = useLoad(async () => {
    const result = await api.GET("/api/v1/sites/{id}/competitors", {
      params: { path: { id: siteId }, query: { page, limit: LIST_SIZE } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, page, version]);
  const changed = (message: string) => {
    setNotice(message);
    setEditing(null);
    setVersion((n) => n + 1);
    onChanged();
  };
  const list = competitors.data;
  return (
    <>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {competitors.state === "error" && !list ? (
        <Problem problem={competitors.problem} retry={() => void competitors.reload()} />
      ) : null}
      {!list && competitors.state !== "error" ? <Loading what="the competitors" /> : null}
      {list && list.items.length === 0 ? (
        <Empty title="No competitors yet.">
          {canWrite ? <p>Add the brands this site is measured against in the answers below.</p> : null}
        </Empty>
      ) : null}
      {list && list.items.length > 0 ? (
        <>
          <TableWrap label="Competitor list">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Other names</th>
                  <th scope="col">Domains</th>
                  {canWrite ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.items.map((competitor) => (
                  <tr key={competitor.id}>
                    <td>{competitor.name}</td>
                    <td>{competitor.aliases.join(", ") || "–"}</td>
                    <td>
                      {competitor.domains.length > 0
                        ? competitor.domains.map((domain) => (
                            <span key={domain} className="host">
                              {domain}
                            </span>
                          ))
                        : "–"}
                    </td>
                    {canWrite ? (
                      <td className="row-actions">
                        <button
                          type="button"
                          className="button secondary small"
                          onClick={() => setEditing(competitor)}
                          aria-label={`Edit ${competitor.name}`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => setDeleting(competitor)}
                          aria-label={`Delete ${competitor.name}`}
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
          <Pager {...list.meta} hrefFor={hrefFor} />
        </>
      ) : null}
      {canWrite ? (
        <CompetitorForm
          key={editing?.id ?? "new"}
          siteId={siteId}
          editing={editing}
          onDone={changed}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <Confirm
        open={deleting !== null}
        title={`Stop measuring against ${deleting?.name ?? ""}?`}
        keepLabel="Keep it"
        actLabel="Delete competitor"
        busyLabel="Deleting…"
        act={async () => {
          if (!deleting) return;
          dataOf(
            await api.DELETE("/api/v1/sites/{id}/competitors/{competitorId}", {
              params: { path: { id: siteId, competitorId: deleting.id } },
            }),
          );
          changed(`${deleting.name} is no longer a competitor.`);
        }}
        onClose={() => setDeleting(null)}
      >
        <p>Its name and domains are no longer looked for in the answers.</p>
      </Confirm>
    </>
  );
};
