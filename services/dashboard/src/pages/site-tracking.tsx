import { type CitationView, dataOf, type KeywordView, problemSentence } from "@scan/client";
import { type FormEvent, useState } from "react";
import { Confirm } from "../components/confirm";
import { Rename } from "../components/rename";
import { Empty, Field, FormError, Loading, Notice, Pager, Problem, TableWrap } from "../components/ui";
import { formatDateTime, formatNumber } from "../format";
import { asProblem, useLoad } from "../load";
import { navigate } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { KeywordImport } from "./visibility-import";

/** What a site is tracked by besides scans and audits: its keywords' positions and AI engines' citations. */

export const ENGINES = ["all", "chatgpt", "claude", "perplexity", "gemini"] as const;
export type Engine = (typeof ENGINES)[number];
const ENGINE_NAME: Record<Engine, string> = {
  all: "All engines",
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};
export const RANGES = ["7d", "30d", "90d"] as const;
export type Range = (typeof RANGES)[number];
const RANGE_NAME: Record<Range, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
const LIST_SIZE = 20;

const TREND: Record<string, string> = { up: "↑ up", down: "↓ down", flat: "→ flat", new: "new" };

/** Runs a form's request: busy while it runs, the API's refusal as one sentence. */
const useSubmit = () => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
};

/** A whole number the API takes, or null while the field does not hold one. */
const wholeNumber = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

const AddKeyword = ({
  siteId,
  onAdded,
}: {
  siteId: string;
  onAdded: (keyword: KeywordView, created: boolean) => void;
}) => {
  const api = useApi();
  const [keyword, setKeyword] = useState("");
  const [position, setPosition] = useState("");
  const [volume, setVolume] = useState("");
  const [difficulty, setDifficulty] = useState("");
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await api.POST("/api/v1/keywords", {
        body: {
          site_id: siteId,
          keyword,
          position: wholeNumber(position) ?? Number.NaN,
          volume: wholeNumber(volume) ?? 0,
          difficulty: wholeNumber(difficulty) ?? 0,
        },
      });
      const added = dataOf(answer);
      setKeyword("");
      setPosition("");
      setVolume("");
      setDifficulty("");
      onAdded(added, answer.response.status === 201);
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-keyword-title" className="add-record">
      <h3 id="add-keyword-title">Track a keyword</h3>
      <div className="form-row">
        <Field label="Keyword" hint="The search query, as people type it.">
          {(props) => (
            <input {...props} required maxLength={200} value={keyword} onChange={(e) => setKeyword(e.target.value)} />
          )}
        </Field>
        <Field label="Position" hint="Where the site ranks now: 1 is the top result.">
          {(props) => (
            <input
              {...props}
              required
              inputMode="numeric"
              pattern="[0-9]+"
              className="short"
              value={position}
              onChange={(e) => setPosition(e.target.value)}
            />
          )}
        </Field>
        <Field label="Volume" hint="Monthly searches; optional, 0 when empty.">
          {(props) => (
            <input
              {...props}
              inputMode="numeric"
              pattern="[0-9]+"
              className="short"
              value={volume}
              onChange={(e) => setVolume(e.target.value)}
            />
          )}
        </Field>
        <Field label="Difficulty" hint="Optional, 0 (easy) to 100.">
          {(props) => (
            <input
              {...props}
              inputMode="numeric"
              pattern="[0-9]+"
              className="short"
              value={difficulty}
              onChange={(e) => setDifficulty(e.target.value)}
            />
          )}
        </Field>
      </div>
      <p className="muted small">A keyword the site already tracks gets this position as its latest, with its trend.</p>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Saving…" : "Track keyword"}
      </button>
    </form>
  );
};

export const Keywords = ({
  siteId,
  page,
  hrefFor,
}: {
  siteId: string;
  page: number;
  hrefFor: (page: number) => string;
}) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const keywords = useLoad(async () => {
    const result = await api.GET("/api/v1/keywords", {
      params: { query: { site_id: siteId, page, limit: LIST_SIZE } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, page]);
  const [editing, setEditing] = useState<{ keyword: KeywordView; action: "rename" | "delete" } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const changed = (said: string) => {
    setNotice(said);
    void keywords.reload();
  };
  const form = canWrite ? (
    <>
      <AddKeyword
        siteId={siteId}
        onAdded={(keyword, created) => {
          if (created && page > 1) navigate(hrefFor(1));
          changed(
            created
              ? `“${keyword.keyword}” is tracked.`
              : `“${keyword.keyword}” was tracked already: its position is now ${keyword.position}.`,
          );
        }}
      />
      <KeywordImport
        siteId={siteId}
        onImported={(message) => {
          if (page > 1) navigate(hrefFor(1));
          changed(message);
        }}
      />
    </>
  ) : null;
  const dialogs = (
    <>
      <Rename
        open={editing?.action === "rename"}
        title={`Reword “${editing?.keyword.keyword ?? ""}”`}
        label="Keyword"
        hint="Its positions and trend stay."
        current={editing?.keyword.keyword ?? ""}
        maxLength={200}
        saveLabel="Save keyword"
        save={async (value) => {
          if (!editing) return;
          const next = dataOf(
            await api.PATCH("/api/v1/keywords/{id}", {
              params: { path: { id: editing.keyword.id } },
              body: { keyword: value },
            }),
          );
          changed(`“${editing.keyword.keyword}” is now “${next.keyword}”.`);
        }}
        onClose={() => setEditing(null)}
      />
      <Confirm
        open={editing?.action === "delete"}
        title={`Stop tracking “${editing?.keyword.keyword ?? ""}”?`}
        keepLabel="Keep it"
        actLabel="Delete keyword"
        busyLabel="Deleting…"
        act={async () => {
          if (!editing) return;
          dataOf(await api.DELETE("/api/v1/keywords/{id}", { params: { path: { id: editing.keyword.id } } }));
          changed(`“${editing.keyword.keyword}” is no longer tracked.`);
        }}
        onClose={() => setEditing(null)}
      >
        <p>Its recorded position, volume, difficulty and trend are deleted with it. This cannot be undone.</p>
      </Confirm>
    </>
  );
  const said = notice ? <Notice kind="success">{notice}</Notice> : null;
  if (keywords.state === "error" && !keywords.data)
    return <Problem problem={keywords.problem} retry={() => void keywords.reload()} />;
  if (!keywords.data) return <Loading what="keywords" />;
  if (keywords.data.items.length === 0)
    return (
      <>
        {said}
        <Empty title="No tracked keywords.">
          {canWrite ? (
            <p>
              Track one below, import Search Console's queries, or record positions from a rank tracker through the API
              (see /docs).
            </p>
          ) : null}
        </Empty>
        {form}
        {dialogs}
      </>
    );
  return (
    <>
      {said}
      <TableWrap label="Keywords">
        <table>
          <thead>
            <tr>
              <th scope="col">Keyword</th>
              <th scope="col" className="num">
                Position
              </th>
              <th scope="col">Trend</th>
              <th scope="col" className="num">
                Volume
              </th>
              <th scope="col" className="num">
                Difficulty
              </th>
              <th scope="col" className="num">
                Clicks
              </th>
              <th scope="col" className="num">
                Impressions
              </th>
              {canWrite ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {keywords.data.items.map((keyword) => (
              <tr key={keyword.id}>
                <td>{keyword.keyword}</td>
                <td className="num">{keyword.position}</td>
                <td>{TREND[keyword.trend] ?? keyword.trend}</td>
                <td className="num">{formatNumber(keyword.volume)}</td>
                <td className="num">{keyword.difficulty}</td>
                <td className="num">{keyword.clicks === null ? "–" : formatNumber(keyword.clicks)}</td>
                <td className="num">{keyword.impressions === null ? "–" : formatNumber(keyword.impressions)}</td>
                {canWrite ? (
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button secondary small"
                      onClick={() => setEditing({ keyword, action: "rename" })}
                      aria-label={`Reword “${keyword.keyword}”`}
                    >
                      Reword
                    </button>
                    <button
                      type="button"
                      className="button danger small"
                      onClick={() => setEditing({ keyword, action: "delete" })}
                      aria-label={`Delete “${keyword.keyword}”`}
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
      <Pager {...keywords.data.meta} hrefFor={hrefFor} />
      {form}
      {dialogs}
    </>
  );
};

const PLATFORMS = ENGINES.filter((engine) => engine !== "all") as Exclude<Engine, "all">[];

const AddCitation = ({ siteId, onAdded }: { siteId: string; onAdded: (track: CitationView) => void }) => {
  const api = useApi();
  const [query, setQuery] = useState("");
  const [platform, setPlatform] = useState<Exclude<Engine, "all">>("chatgpt");
  const [cited, setCited] = useState(false);
  const [url, setUrl] = useState("");
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const track = dataOf(
        await api.POST("/api/v1/citations", {
          body: {
            site_id: siteId,
            platform,
            query_text: query,
            cited,
            ...(url.trim() ? { citation_url: url.trim() } : {}),
          },
        }),
      );
      setQuery("");
      setUrl("");
      setCited(false);
      onAdded(track);
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-citation-title" className="add-record">
      <h3 id="add-citation-title">Record what an engine answered</h3>
      <div className="form-row">
        <Field label="Question asked" hint="What the engine was asked, word for word.">
          {(props) => (
            <input {...props} required maxLength={500} value={query} onChange={(e) => setQuery(e.target.value)} />
          )}
        </Field>
        <Field label="Engine asked">
          {(props) => (
            <select {...props} value={platform} onChange={(e) => setPlatform(e.target.value as Exclude<Engine, "all">)}>
              {PLATFORMS.map((value) => (
                <option key={value} value={value}>
                  {ENGINE_NAME[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="check-field">
        <input id={`cited-${siteId}`} type="checkbox" checked={cited} onChange={(e) => setCited(e.target.checked)} />
        <label htmlFor={`cited-${siteId}`}>The answer cited this site</label>
      </div>
      <Field
        label={cited ? "Page cited" : "Page cited instead (optional)"}
        hint={cited ? "The site's page the answer linked to." : "What the answer cited in place of this site, if any."}
      >
        {(props) => (
          <input
            {...props}
            type="url"
            required={cited}
            maxLength={2048}
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <p className="muted small">It is recorded as seen now.</p>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Saving…" : "Record answer"}
      </button>
    </form>
  );
};

export const Citations = ({
  siteId,
  engine,
  range,
  page,
  hrefFor,
}: {
  siteId: string;
  engine: Engine;
  range: Range;
  page: number;
  hrefFor: (to: { engine?: Engine; range?: Range; page?: number }) => string;
}) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const citations = useLoad(async () => {
    const result = await api.GET("/api/v1/citations", {
      params: { query: { site_id: siteId, engine, date_range: range, page, limit: LIST_SIZE } },
    });
    const items: CitationView[] = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, engine, range, page]);
  const [editing, setEditing] = useState<{ track: CitationView; action: "rename" | "delete" } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const changed = (said: string) => {
    setNotice(said);
    void citations.reload();
  };
  return (
    <>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <div className="filters">
        <Field label="Engine">
          {(props) => (
            <select {...props} value={engine} onChange={(e) => navigate(hrefFor({ engine: e.target.value as Engine }))}>
              {ENGINES.map((value) => (
                <option key={value} value={value}>
                  {ENGINE_NAME[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Checked">
          {(props) => (
            <select {...props} value={range} onChange={(e) => navigate(hrefFor({ range: e.target.value as Range }))}>
              {RANGES.map((value) => (
                <option key={value} value={value}>
                  {RANGE_NAME[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {citations.state === "error" ? (
        <Problem problem={citations.problem} retry={() => void citations.reload()} />
      ) : !citations.data ? (
        <Loading what="citation tracks" />
      ) : citations.data.items.length === 0 ? (
        <Empty
          title={`No citation tracks for ${ENGINE_NAME[engine].toLowerCase()} in the ${RANGE_NAME[range].toLowerCase()}.`}
        >
          <p>
            {canWrite
              ? "Choose a longer range or another engine, or record what an engine answered below."
              : "Choose a longer range or another engine."}
          </p>
        </Empty>
      ) : (
        <>
          <TableWrap label="Citation tracks">
            <table>
              <thead>
                <tr>
                  <th scope="col">Query</th>
                  <th scope="col">Engine</th>
                  <th scope="col">Cited</th>
                  <th scope="col">Page cited</th>
                  <th scope="col">Checked</th>
                  {canWrite ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {citations.data.items.map((track) => (
                  <tr key={track.id}>
                    <td>{track.query_text}</td>
                    <td>{ENGINE_NAME[track.platform]}</td>
                    <td>
                      {track.cited ? (
                        <span className="badge badge-pass">Cited</span>
                      ) : (
                        <span className="badge badge-skip">Not cited</span>
                      )}
                    </td>
                    <td className="url">{track.citation_url ?? "–"}</td>
                    <td>{formatDateTime(track.checked_at)}</td>
                    {canWrite ? (
                      <td className="row-actions">
                        <button
                          type="button"
                          className="button secondary small"
                          onClick={() => setEditing({ track, action: "rename" })}
                          aria-label={`Correct the question “${track.query_text}” (${ENGINE_NAME[track.platform]})`}
                        >
                          Correct
                        </button>
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => setEditing({ track, action: "delete" })}
                          aria-label={`Delete the track “${track.query_text}” (${ENGINE_NAME[track.platform]})`}
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
          <Pager {...citations.data.meta} hrefFor={(p) => hrefFor({ page: p })} />
        </>
      )}
      {canWrite ? (
        <AddCitation
          siteId={siteId}
          onAdded={(track) => {
            const shown = (engine === "all" || engine === track.platform) && page === 1;
            if (!shown) navigate(hrefFor({ engine: "all", range }));
            changed(`The answer of ${ENGINE_NAME[track.platform]} to “${track.query_text}” is recorded.`);
          }}
        />
      ) : null}
      <Rename
        open={editing?.action === "rename"}
        title="Correct the question"
        label="Question asked"
        hint="The engine, its answer and when it was seen stay as recorded."
        current={editing?.track.query_text ?? ""}
        maxLength={500}
        saveLabel="Save question"
        save={async (value) => {
          if (!editing) return;
          const next = dataOf(
            await api.PATCH("/api/v1/citations/{id}", {
              params: { path: { id: editing.track.id } },
              body: { query_text: value },
            }),
          );
          changed(`The question now reads “${next.query_text}”.`);
        }}
        onClose={() => setEditing(null)}
      />
      <Confirm
        open={editing?.action === "delete"}
        title="Delete this citation track?"
        keepLabel="Keep it"
        actLabel="Delete track"
        busyLabel="Deleting…"
        act={async () => {
          if (!editing) return;
          dataOf(await api.DELETE("/api/v1/citations/{id}", { params: { path: { id: editing.track.id } } }));
          changed(`The track of “${editing.track.query_text}” (${ENGINE_NAME[editing.track.platform]}) is deleted.`);
        }}
        onClose={() => setEditing(null)}
      >
        <p>
          {editing
            ? `${ENGINE_NAME[editing.track.platform]}'s answer to “${editing.track.query_text}”, seen ${formatDateTime(editing.track.checked_at)}, `
            : ""}
          is deleted from the site's citation history. Other observations of the same question stay. This cannot be
          undone.
        </p>
      </Confirm>
    </>
  );
};
