import { type AuditView, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import {
  Empty,
  FormError,
  Grade,
  Loading,
  MaxPagesField,
  Pager,
  Problem,
  StatusBadge,
  TableWrap,
} from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad, useRefreshWhile } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";

/** How often a page showing an audit under way asks about it: a small site's audit takes seconds, a large one minutes. */
export const AUDIT_POLL_MS = 3_000;
const LIST_SIZE = 10;
const ACTIVE = new Set(["discovering", "running", "finalizing"]);

export const isActive = (audit: { status: string }) => ACTIVE.has(audit.status);

/** How far an audit has come, in words and a progress bar. */
export const AuditProgress = ({ audit, label }: { audit: AuditView; label: string }) => {
  const { discovered, scanned, failed, blocked, cancelled, queued, running } = audit.progress;
  const done = scanned + failed + blocked + cancelled;
  if (audit.status === "discovering" && discovered === 0)
    return (
      <span className="progress">
        <progress aria-label={label} />
        <span className="small">Reading robots.txt and the sitemaps…</span>
      </span>
    );
  if (isActive(audit))
    return (
      <span className="progress">
        <progress aria-label={label} max={Math.max(1, discovered)} value={done} />
        <span className="small">
          {done} of {discovered} pages done{queued + running > 0 ? `, ${queued + running} to go` : ""}
          {audit.status === "finalizing" ? "; writing the report" : ""}
        </span>
      </span>
    );
  const extra = [
    failed > 0 ? `${failed} failed` : "",
    blocked > 0 ? `${blocked} blocked by robots.txt` : "",
    cancelled > 0 ? `${cancelled} not scanned` : "",
  ].filter(Boolean);
  return (
    <span className="small">
      {scanned} scanned{extra.length > 0 ? `, ${extra.join(", ")}` : ""}
    </span>
  );
};

const StartAudit = ({ siteId, onStarted }: { siteId: string; onStarted: (audit: AuditView) => void }) => {
  const api = useApi();
  const [mode, setMode] = useState<"quick" | "full">("full");
  const [maxPages, setMaxPages] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const pages = maxPages.trim() === "" ? undefined : Number(maxPages);
      const audit = dataOf(
        await api.POST("/api/v1/sites/{id}/audits", {
          params: { path: { id: siteId } },
          body: { mode, ...(pages === undefined ? {} : { max_pages: pages }) },
        }),
      );
      onStarted(audit);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="start-audit" onSubmit={submit} aria-labelledby="start-audit-title">
      <h3 id="start-audit-title">Start an audit</h3>
      <p className="muted small">
        An audit reads the site's robots.txt and sitemaps, follows its links page by page and judges the whole site:
        duplicate titles, broken links, canonicals, the sitemap.
      </p>
      <div className="form-row">
        <fieldset className="modes">
          <legend>Mode</legend>
          <label>
            <input
              type="radio"
              name="audit-mode"
              value="full"
              checked={mode === "full"}
              onChange={() => setMode("full")}
            />{" "}
            Full <span className="muted">(all 57 checks per page)</span>
          </label>
          <label>
            <input
              type="radio"
              name="audit-mode"
              value="quick"
              checked={mode === "quick"}
              onChange={() => setMode("quick")}
            />{" "}
            Quick <span className="muted">(20 core checks per page)</span>
          </label>
        </fieldset>
        <MaxPagesField label="Most pages" value={maxPages} onChange={setMaxPages} />
      </div>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Starting…" : "Start audit"}
      </button>
    </form>
  );
};

/** what opening an audit shows: its report once completed, else how it stands */
const opener = (audit: AuditView) => (audit.status === "completed" ? "Report" : "Details");

const finishedText = (audit: AuditView) => {
  const when = formatDateTime(audit.created_at);
  if (audit.status === "completed")
    return `The audit started ${when} has completed: grade ${audit.grade ?? "–"}, overall ${audit.scores?.overall ?? "–"}.`;
  if (audit.status === "failed")
    return `The audit started ${when} failed: ${audit.error?.message ?? "no reason given"}.`;
  return `The audit started ${when} is cancelled; the pages it scanned are kept.`;
};

/**
 * The site's audits, newest first: start one, follow those under way (asked about every few
 * seconds while one is), open one's report, cancel one.
 */
export const SiteAudits = ({
  siteId,
  page,
  hrefFor,
  auditHref,
  onStarted,
  onFinished,
}: {
  siteId: string;
  page: number;
  hrefFor: (page: number) => string;
  auditHref: (auditId: string) => string;
  /** an audit was started here: the list's first page shows it */
  onStarted: () => void;
  /** an audit shown under way has finished: what depends on audits loads again */
  onFinished: () => void;
}) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [said, setSaid] = useState("");
  const [cancelling, setCancelling] = useState<AuditView | null>(null);
  // after a cancel the focus goes to the list (its Cancel button is gone), once the dialog has given it back
  const listTitle = useRef<HTMLHeadingElement>(null);
  const [cancelled, setCancelled] = useState(0);
  useEffect(() => {
    if (cancelled > 0) listTitle.current?.focus();
  }, [cancelled]);
  const audits = useLoad(async () => {
    const result = await api.GET("/api/v1/sites/{id}/audits", {
      params: { path: { id: siteId }, query: { page, limit: LIST_SIZE } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, page]);
  const anyActive = audits.data?.items.some(isActive) ?? false;
  useRefreshWhile(anyActive && audits.state !== "loading", audits.reload, audits.data, AUDIT_POLL_MS);

  // an audit seen under way and now finished: say so, and let the history and alerts load again
  const underWay = useRef(new Set<string>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each answer; onFinished is the caller's
  useEffect(() => {
    if (!audits.data) return;
    const ended = audits.data.items.filter((audit) => underWay.current.has(audit.id) && !isActive(audit));
    underWay.current = new Set(audits.data.items.filter(isActive).map((audit) => audit.id));
    if (ended.length === 0) return;
    setSaid(ended.map(finishedText).join(" "));
    onFinished();
  }, [audits.data]);

  return (
    <>
      {canWrite ? (
        <StartAudit
          siteId={siteId}
          onStarted={(audit) => {
            setSaid(
              `Audit started (${audit.mode}, up to ${audit.max_pages} pages): reading the site's robots.txt and sitemaps.`,
            );
            onStarted();
            void audits.reload();
          }}
        />
      ) : null}
      <p role="status" className="audit-news">
        {said}
      </p>
      <h3 id="audit-list-title" ref={listTitle} tabIndex={-1}>
        Audits
      </h3>
      {audits.state === "error" ? <Problem problem={audits.problem} retry={() => void audits.reload()} /> : null}
      {!audits.data && audits.state === "loading" ? <Loading what="the audits" /> : null}
      {audits.data && audits.data.items.length === 0 ? (
        <Empty title="No audit of this site yet.">
          {canWrite ? <p>Start one above: it finds the site's pages and scores the site as a whole.</p> : null}
        </Empty>
      ) : null}
      {audits.data && audits.data.items.length > 0 ? (
        <>
          <TableWrap label="Audits">
            <table>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Status</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Grade</th>
                  <th scope="col" className="num">
                    Overall
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {audits.data.items.map((audit) => {
                  const started = formatDateTime(audit.created_at);
                  return (
                    <tr key={audit.id}>
                      <td>{started}</td>
                      <td>{audit.mode}</td>
                      <td>
                        <StatusBadge status={audit.status} />
                      </td>
                      <td>
                        <AuditProgress audit={audit} label={`Pages done, audit started ${started}`} />
                      </td>
                      <td>
                        <Grade grade={audit.grade} />
                      </td>
                      <td className="num">{audit.scores?.overall ?? "–"}</td>
                      <td className="actions">
                        <Link to={auditHref(audit.id)} aria-label={`${opener(audit)} of the audit started ${started}`}>
                          {opener(audit)}
                        </Link>
                        {canWrite && isActive(audit) ? (
                          <button
                            type="button"
                            className="button secondary small"
                            onClick={() => setCancelling(audit)}
                            aria-label={`Cancel the audit started ${started}`}
                          >
                            Cancel
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
          <Pager {...audits.data.meta} hrefFor={hrefFor} />
        </>
      ) : null}
      <Confirm
        open={cancelling !== null}
        title="Cancel the audit?"
        keepLabel="Keep it running"
        actLabel="Cancel audit"
        busyLabel="Cancelling…"
        act={async () => {
          // the list's next answer shows it finished, and says so
          if (cancelling) dataOf(await api.DELETE("/api/v1/audits/{id}", { params: { path: { id: cancelling.id } } }));
        }}
        onClose={(acted) => {
          setCancelling(null);
          if (!acted) return;
          setCancelled((n) => n + 1);
          void audits.reload();
        }}
      >
        <p>
          Pages not yet scanned will not be; pages being scanned finish and are kept. The audit will have no report.
        </p>
      </Confirm>
    </>
  );
};
