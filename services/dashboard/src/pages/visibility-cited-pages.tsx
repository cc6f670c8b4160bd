import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { useState } from "react";
import { FormError, Loading, Problem, TableWrap } from "../components/ui";
import { asProblem, useLoad, useRefreshWhile } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { count } from "./history-chart";

/**
 * A completed run joined to the audit: the pages the engines cited, scanned with the service's
 * checks, and per prompt the brand's cited pages beside the pages cited in their place, with
 * what those pages pass that the brand's fail.
 */

type CitedPages = DataOf<"getVisibilityCitedPages">;
type Page = CitedPages["pages"][number];
type PromptRow = CitedPages["prompts"][number];
type CompetitorPage = PromptRow["competitor_pages"][number];

/** How often scans under way are asked about. */
const SCAN_POLL_MS = 3_000;

const STATE_TEXT: Record<Page["state"], string> = {
  not_started: "not scanned yet",
  refused: "refused",
  queued: "queued",
  running: "scanning",
  completed: "scanned",
  failed: "scan failed",
  missing: "scan deleted",
};

/** A page's standing: its scores once scanned, why it was refused, or where its scan is. */
const Standing = ({ page }: { page: Page }) => {
  if (page.state === "refused")
    return (
      <span>
        <span className="badge badge-fail">Refused</span> refused by the address policy: {page.refused}
      </span>
    );
  if (page.scan?.status === "completed")
    return (
      <span>
        <Link to={`/scans/${page.scan.id}`}>
          overall {page.scan.overall ?? "–"}
          <span className="visually-hidden"> for {page.url}</span>
        </Link>{" "}
        <span className="muted small">
          SEO {page.scan.seo ?? "–"} · AEO {page.scan.aeo ?? "–"} · GEO {page.scan.geo ?? "–"}
          {page.scan.reused ? " · a recent scan" : ""}
        </span>
      </span>
    );
  return (
    <span className="muted">
      {STATE_TEXT[page.state]}
      {page.scan?.error ? `: ${page.scan.error.message}` : ""}
    </span>
  );
};

const Lacks = ({ page }: { page: CompetitorPage }) => {
  if (page.state === "refused") return <span className="muted">not scanned</span>;
  if (page.compared_with === null) return <span className="muted">no page of yours was cited to compare with</span>;
  if (page.lacks === null) return <span className="muted">known once both pages are scanned</span>;
  if (page.lacks.length === 0) return <span className="muted">nothing your page fails</span>;
  return (
    <ul className="lacks">
      {page.lacks.map((gap) => (
        <li key={gap.check}>
          {gap.title}{" "}
          <span className="muted small">
            ({gap.category.toUpperCase()}; yours: {gap.yours})
          </span>
        </li>
      ))}
    </ul>
  );
};

const PromptTable = ({ prompt }: { prompt: PromptRow }) => (
  <TableWrap label={`Cited pages for “${prompt.prompt}”`}>
    <table className="cited-pages">
      <caption>“{prompt.prompt}”</caption>
      <thead>
        <tr>
          <th scope="col">Page</th>
          <th scope="col">Cited</th>
          <th scope="col">Scan</th>
          <th scope="col">Passes what yours fails</th>
        </tr>
      </thead>
      <tbody>
        {prompt.brand_pages.map((page) => (
          <tr key={page.url} className="own">
            <th scope="row">
              <span className="url">{page.url}</span> <span className="badge badge-own">yours</span>
            </th>
            <td>{count(page.prompt_citations, "answer")}</td>
            <td>
              <Standing page={page} />
            </td>
            <td className="muted">–</td>
          </tr>
        ))}
        {prompt.competitor_pages.map((page) => (
          <tr key={page.url}>
            <th scope="row">
              <span className="url">{page.url}</span>
              {page.competitor ? <span className="badge">{page.competitor}</span> : null}
            </th>
            <td>{count(page.prompt_citations, "answer")}</td>
            <td>
              <Standing page={page} />
            </td>
            <td>
              <Lacks page={page} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableWrap>
);

export const CitedPagesSection = ({ runId }: { runId: string }) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cited = useLoad(
    async () => dataOf(await api.GET("/api/v1/visibility/runs/{id}/cited-pages", { params: { path: { id: runId } } })),
    [api, runId],
  );
  const data = cited.data;
  useRefreshWhile(!!data && data.started && data.counts.pending > 0, cited.reload, data, SCAN_POLL_MS);
  const send = async () => {
    setSending(true);
    setError(null);
    try {
      dataOf(await api.POST("/api/v1/visibility/runs/{id}/cited-pages", { params: { path: { id: runId } } }));
      await cited.reload();
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setSending(false);
    }
  };
  const shown = data?.prompts.filter((prompt) => prompt.brand_pages.length + prompt.competitor_pages.length > 0) ?? [];
  return (
    <section aria-labelledby="cited-pages-title" aria-busy={!!data && data.started && data.counts.pending > 0}>
      <h4 id="cited-pages-title">Cited pages against yours</h4>
      {cited.state === "error" && !data ? <Problem problem={cited.problem} retry={() => void cited.reload()} /> : null}
      {!data && cited.state !== "error" ? <Loading what="the cited pages" /> : null}
      {data ? (
        <>
          <p className="muted small">
            Your {count(data.bounds.brand_pages, "most cited page")} and the{" "}
            {count(data.bounds.competitor_pages, "most cited page")} of answers that cited none of yours, scanned with
            this service's checks; a scan of the same address from the last {data.bounds.reuse_within_hours} hours is
            reused.
          </p>
          {data.counts.pages === 0 ? (
            <p className="muted">This run's answers cited no page that can be scanned.</p>
          ) : !data.started ? (
            <div className="run-now">
              {canWrite ? (
                <button type="button" className="button" onClick={() => void send()} disabled={sending}>
                  {sending ? "Sending…" : `Scan ${count(data.counts.pages, "cited page")}`}
                </button>
              ) : null}
              <span className="muted small">Each page counts as one scan of this month's quota.</span>
            </div>
          ) : (
            <p role="status">
              {data.counts.completed} of {count(data.counts.pages, "page")} scanned
              {data.counts.pending > 0 ? `, ${data.counts.pending} under way` : ""}
              {data.counts.failed > 0 ? `, ${data.counts.failed} failed` : ""}
              {data.counts.refused > 0 ? `, ${data.counts.refused} refused by the address policy` : ""}.
            </p>
          )}
          <FormError error={error} />
          {shown.map((prompt) => (
            <PromptTable key={prompt.prompt_id} prompt={prompt} />
          ))}
        </>
      ) : null}
    </section>
  );
};
