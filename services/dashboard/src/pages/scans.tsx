import { dataOf, problemSentence, type ScanSummary } from "@scan/client";
import { type FormEvent, useState } from "react";
import { Shell } from "../components/layout";
import { ReadOnlyNotice } from "../components/read-only";
import {
  Empty,
  Field,
  FormError,
  Grade,
  Loading,
  Pager,
  PageTitle,
  Problem,
  StatusBadge,
  TableWrap,
} from "../components/ui";
import { formatDateTime, formatMs } from "../format";
import { useLiveScan } from "../live-scan";
import { asProblem, useLoad } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";

const STATUSES = ["queued", "running", "completed", "failed"] as const;
type Status = (typeof STATUSES)[number];
const PAGE_SIZE = 20;

const STATE_TEXT: Record<string, string> = {
  queued: "Queued: waiting for a free worker.",
  running: "Running: the page is being fetched and checked.",
  completed: "Done.",
  failed: "Failed.",
};

/** One scan started from this page, followed until it has finished. */
const StartedScan = ({ id, onFinished }: { id: string; onFinished: () => void }) => {
  const api = useApi();
  const live = useLiveScan(api, id, onFinished);
  const scan = live.scan;
  const status = scan?.status ?? "queued";
  return (
    <li className="started">
      <div className="started-head">
        <StatusBadge status={status} />
        <span className="url">{scan?.url ?? "…"}</span>
        <span className="muted">{scan?.mode}</span>
      </div>
      <p role="status" aria-live="polite" className="started-state">
        {STATE_TEXT[status]}
        {scan?.status === "failed" && scan.error ? ` ${scan.error.message}` : ""}
        {live.state === "error" ? ` ${problemSentence(live.problem.message, live.problem.hint)}` : ""}
      </p>
      {scan?.status === "completed" ? (
        <p>
          Grade <Grade grade={scan.grade} />, overall {scan.scores?.overall} in {formatMs(scan.duration_ms)}.{" "}
          <Link to={`/scans/${scan.id}`}>Open the report</Link>
        </p>
      ) : null}
    </li>
  );
};

const ScanForm = ({ onStarted }: { onStarted: (id: string) => void }) => {
  const api = useApi();
  const [url, setUrl] = useState("");
  const [mode, setMode] = useState<"quick" | "full">("quick");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // answered at once (202) with the scan's id; the page then follows the scan
      const accepted = dataOf(
        await api.POST("/api/v1/scan", { body: { url: url.trim(), mode }, headers: { Prefer: "respond-async" } }),
      );
      onStarted(accepted.id);
      setUrl("");
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card scan-form" onSubmit={submit} aria-labelledby="scan-form-title">
      <h2 id="scan-form-title">Scan a page</h2>
      <div className="scan-form-row">
        <Field label="Page URL" hint="An http:// or https:// address, e.g. https://example.com/pricing">
          {(props) => (
            <input
              {...props}
              type="url"
              inputMode="url"
              placeholder="https://example.com/"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <fieldset className="modes">
          <legend>Mode</legend>
          <label>
            <input
              type="radio"
              name="mode"
              value="quick"
              checked={mode === "quick"}
              onChange={() => setMode("quick")}
            />{" "}
            Quick <span className="muted">(20 core checks, ~10 s)</span>
          </label>
          <label>
            <input type="radio" name="mode" value="full" checked={mode === "full"} onChange={() => setMode("full")} />{" "}
            Full <span className="muted">(all 57 checks, ~25 s)</span>
          </label>
        </fieldset>
      </div>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Starting…" : "Scan"}
      </button>
    </form>
  );
};

const ScanRows = ({ scans }: { scans: ScanSummary[] }) => (
  <TableWrap label="Scans">
    <table>
      <thead>
        <tr>
          <th scope="col">Page</th>
          <th scope="col">Mode</th>
          <th scope="col">Status</th>
          <th scope="col">Grade</th>
          <th scope="col" className="num">
            Overall
          </th>
          <th scope="col">Started</th>
        </tr>
      </thead>
      <tbody>
        {scans.map((scan) => (
          <tr key={scan.id}>
            <td className="url">
              <Link to={`/scans/${scan.id}`}>{scan.url}</Link>
            </td>
            <td>{scan.mode}</td>
            <td>
              <StatusBadge status={scan.status} />
            </td>
            <td>
              <Grade grade={scan.grade} />
            </td>
            <td className="num">{scan.scores?.overall ?? "–"}</td>
            <td>{formatDateTime(scan.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableWrap>
);

export const Scans = () => {
  const api = useApi();
  const canWrite = useCanWrite();
  const { search } = usePlace();
  const page = Math.max(1, Number(search.get("page")) || 1);
  const statusParam = search.get("status");
  const status = STATUSES.includes(statusParam as Status) ? (statusParam as Status) : undefined;
  const [started, setStarted] = useState<string[]>([]);

  const history = useLoad(async () => {
    const { data, error, response } = await api.GET("/api/v1/scans", {
      params: { query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}) } },
    });
    const items = dataOf({ data, error, response });
    return { items, meta: data?.meta ?? { page, limit: PAGE_SIZE, total: items.length, hasMore: false } };
  }, [api, page, status]);

  const hrefFor = (to: { page?: number; status?: Status | undefined }) => {
    const query = new URLSearchParams();
    const nextStatus = "status" in to ? to.status : status;
    if (nextStatus) query.set("status", nextStatus);
    if ((to.page ?? 1) > 1) query.set("page", String(to.page));
    const text = query.toString();
    return text ? `/scans?${text}` : "/scans";
  };

  return (
    <Shell>
      <PageTitle>Scans</PageTitle>
      <ReadOnlyNotice />
      {canWrite ? <ScanForm onStarted={(id) => setStarted((ids) => [id, ...ids])} /> : null}
      {started.length > 0 ? (
        <section aria-labelledby="started-title" className="card">
          <h2 id="started-title">Started here</h2>
          <ul className="started-list">
            {started.map((id) => (
              <StartedScan key={id} id={id} onFinished={() => void history.reload()} />
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="history-title">
        <div className="section-head">
          <h2 id="history-title">History</h2>
          <Field label="Status">
            {(props) => (
              <select
                {...props}
                value={status ?? ""}
                onChange={(e) => navigate(hrefFor({ status: (e.target.value || undefined) as Status | undefined }))}
              >
                <option value="">All</option>
                <option value="queued">Queued</option>
                <option value="running">Running</option>
                <option value="completed">Done</option>
                <option value="failed">Failed</option>
              </select>
            )}
          </Field>
        </div>
        {history.state === "error" ? <Problem problem={history.problem} retry={() => void history.reload()} /> : null}
        {history.state === "loading" && !history.data ? <Loading what="your scans" /> : null}
        {history.data && history.data.items.length === 0 ? (
          status ? (
            <Empty title="No scans with this status.">
              <p>
                <Link to="/scans">Show every scan</Link>.
              </p>
            </Empty>
          ) : (
            <Empty title="No scans yet.">
              {canWrite ? (
                <p>Enter a page's address above and choose Scan: the report opens here when it is done.</p>
              ) : null}
            </Empty>
          )
        ) : null}
        {history.data && history.data.items.length > 0 ? (
          <>
            <ScanRows scans={history.data.items} />
            <Pager {...history.data.meta} hrefFor={(p) => hrefFor({ page: p })} />
          </>
        ) : null}
      </section>
    </Shell>
  );
};
