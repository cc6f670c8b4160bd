import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, Loading, Notice, Pager, Problem, TableWrap } from "../components/ui";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { PromptImport } from "./visibility-import";

type Prompt = DataOf<"listPrompts">[number];
const LIST_SIZE = 20;

/** The tags as typed ("buying, boats" or "buying|boats"), as the list the API takes. */
const tagsOf = (text: string): string[] =>
  text
    .split(/[,|;]+/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");

/** Adds a prompt, or changes the one given: the same fields either way. */
const PromptForm = ({
  siteId,
  editing,
  onDone,
  onCancel,
}: {
  siteId: string;
  editing: Prompt | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) => {
  const api = useApi();
  const [text, setText] = useState(editing?.text ?? "");
  const [topic, setTopic] = useState(editing?.topic ?? "");
  const [tags, setTags] = useState(editing?.tags.join(", ") ?? "");
  const [locale, setLocale] = useState(editing?.locale ?? "");
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
    const fields = {
      text,
      topic: topic.trim() === "" ? null : topic.trim(),
      tags: tagsOf(tags),
      locale: locale.trim() === "" ? null : locale.trim(),
    };
    try {
      if (editing) {
        const changed = dataOf(
          await api.PATCH("/api/v1/sites/{id}/prompts/{promptId}", {
            params: { path: { id: siteId, promptId: editing.id } },
            body: fields,
          }),
        );
        onDone(`The prompt is now “${changed.text}”.`);
      } else {
        const added = dataOf(
          await api.POST("/api/v1/sites/{id}/prompts", { params: { path: { id: siteId } }, body: fields }),
        );
        setText("");
        setTopic("");
        setTags("");
        setLocale("");
        onDone(`“${added.text}” is tracked.`);
      }
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  const titleId = editing ? "edit-prompt-title" : "add-prompt-title";
  return (
    <form onSubmit={submit} aria-labelledby={titleId} className="add-record">
      <h3 id={titleId}>{editing ? "Change the prompt" : "Track a prompt"}</h3>
      <Field label="Prompt" hint="What the engines are asked, as a person would ask it; at most 500 characters.">
        {(props) => (
          <input
            {...props}
            ref={first}
            required
            maxLength={500}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <div className="form-row">
        <Field label="Topic" hint="Optional.">
          {(props) => <input {...props} maxLength={100} value={topic} onChange={(e) => setTopic(e.target.value)} />}
        </Field>
        <Field label="Tags" hint="Optional, between commas.">
          {(props) => <input {...props} value={tags} onChange={(e) => setTags(e.target.value)} />}
        </Field>
        <Field label="Locale" hint="Optional: en-GB, de, pt-BR.">
          {(props) => (
            <input
              {...props}
              maxLength={35}
              className="short"
              value={locale}
              onChange={(e) => setLocale(e.target.value)}
            />
          )}
        </Field>
      </div>
      <FormError error={error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Saving…" : editing ? "Save prompt" : "Add prompt"}
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

/** A site's prompts, newest first and paged, with adding, changing, deleting and importing a CSV. */
export const Prompts = ({
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
  const [editing, setEditing] = useState<Prompt | null>(null);
  const [deleting, setDeleting] = useState<Prompt | null>(null);
  const prompts = useLoad(async () => {
    const result = await api.GET("/api/v1/sites/{id}/prompts", {
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
  const list = prompts.data;
  return (
    <>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {prompts.state === "error" && !list ? (
        <Problem problem={prompts.problem} retry={() => void prompts.reload()} />
      ) : null}
      {!list && prompts.state !== "error" ? <Loading what="the prompts" /> : null}
      {list && list.items.length === 0 ? (
        <Empty title="No prompts yet.">
          {canWrite ? (
            <p>Add the questions your customers ask an AI engine below, one by one or as a CSV file.</p>
          ) : null}
        </Empty>
      ) : null}
      {list && list.items.length > 0 ? (
        <>
          <TableWrap label="Prompt list">
            <table>
              <thead>
                <tr>
                  <th scope="col">Prompt</th>
                  <th scope="col">Topic</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Locale</th>
                  {canWrite ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.items.map((prompt) => (
                  <tr key={prompt.id}>
                    <td className="prompt-text">{prompt.text}</td>
                    <td>{prompt.topic ?? "–"}</td>
                    <td>{prompt.tags.join(", ") || "–"}</td>
                    <td>{prompt.locale ?? "–"}</td>
                    {canWrite ? (
                      <td className="row-actions">
                        <button
                          type="button"
                          className="button secondary small"
                          onClick={() => setEditing(prompt)}
                          aria-label={`Edit “${prompt.text}”`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => setDeleting(prompt)}
                          aria-label={`Delete “${prompt.text}”`}
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
        <>
          <PromptForm
            key={editing?.id ?? "new"}
            siteId={siteId}
            editing={editing}
            onDone={changed}
            onCancel={() => setEditing(null)}
          />
          <PromptImport siteId={siteId} onImported={changed} />
        </>
      ) : null}
      <Confirm
        open={deleting !== null}
        title={`Stop tracking “${deleting?.text ?? ""}”?`}
        keepLabel="Keep it"
        actLabel="Delete prompt"
        busyLabel="Deleting…"
        act={async () => {
          if (!deleting) return;
          dataOf(
            await api.DELETE("/api/v1/sites/{id}/prompts/{promptId}", {
              params: { path: { id: siteId, promptId: deleting.id } },
            }),
          );
          changed(`“${deleting.text}” is no longer tracked.`);
        }}
        onClose={() => setDeleting(null)}
      >
        <p>The engines are no longer asked it. A CSV import holding it adds it again.</p>
      </Confirm>
    </>
  );
};
