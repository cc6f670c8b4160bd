import { type AuditView, dataOf, problemOf, ScanApiError, type SiteReport } from "@scan/client";
import { useEffect, useRef, useState } from "react";
import { ReportFiles } from "../components/report-files";
import { FormError, Grade, Loading, Problem, ScoreBar, StatusBadge, TableWrap } from "../components/ui";
import { saveFile } from "../download";
import { formatDateTime } from "../format";
import { asProblem, useLoad, useRefreshWhile } from "../load";
import { followProgress } from "../progress";
import { Link } from "../router";
import { useApi } from "../session";
import { AuditIssueList } from "./audit-issues";
import { AUDIT_POLL_MS, AuditProgress, isActive } from "./site-audits";

/** findings shown per site check, and pages per finding; the CSV holds them all */
const FINDINGS_SHOWN = 20;
const PAGES_SHOWN = 10;

type SiteCheck = SiteReport["site_checks"][number];

const Finding = ({ finding }: { finding: SiteCheck["findings"][number] }) => (
  <li>
    <span className="url">{finding.url}</span>: {finding.detail}
    {finding.pages.length > 0 ? (
      <details>
        <summary>
          {finding.pages.length} {finding.pages.length === 1 ? "page" : "pages"} involved
        </summary>
        <ul className="pages">
          {finding.pages.slice(0, PAGES_SHOWN).map((page) => (
            <li key={page} className="url">
              {page}
            </li>
          ))}
          {finding.pages.length > PAGES_SHOWN ? (
            <li className="muted">and {finding.pages.length - PAGES_SHOWN} more (in the report's CSV)</li>
          ) : null}
        </ul>
      </details>
    ) : null}
  </li>
);

const FailingSiteChecks = ({ checks }: { checks: SiteCheck[] }) => {
  const failing = checks.filter((check) => check.status === "fail");
  const passing = checks.filter((check) => check.status === "pass").length;
  const skipped = checks.filter((check) => check.status === "skip").length;
  return (
    <>
      <h4>Site checks failing</h4>
      <p className="muted small">
        {failing.length} failing, {passing} passing{skipped > 0 ? `, ${skipped} not applicable` : ""}.
      </p>
      {failing.length === 0 ? <p>Every site check that applies passes.</p> : null}
      <ul className="checks">
        {failing.map((check) => (
          <li key={check.id} className="check check-fail">
            <div className="check-head">
              <span className="check-title">{check.title}</span>
              <span className="badge badge-fail">{check.severity}</span>
            </div>
            <p className="check-description">{check.description}</p>
            <p className="check-fix">
              <strong>Fix:</strong> {check.fix}
            </p>
            <ul className="findings">
              {check.findings.slice(0, FINDINGS_SHOWN).map((finding) => (
                <Finding key={finding.url} finding={finding} />
              ))}
            </ul>
            {check.findings_total > FINDINGS_SHOWN ? (
              <p className="muted small">
                {check.findings_total - FINDINGS_SHOWN} more findings are in the report's CSV.
              </p>
            ) : null}
            <p className="check-meta">
              {check.id} · {check.category}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
};

const WorstPages = ({ pages, titles }: { pages: SiteReport["worst_pages"]; titles: ReadonlyMap<string, string> }) => (
  <>
    <h4>Worst pages</h4>
    {pages.length === 0 ? (
      <p className="muted">No page answered 200 at its own URL, so none was scored.</p>
    ) : (
      <TableWrap label="Worst pages">
        <table>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Grade</th>
              <th scope="col" className="num">
                Overall
              </th>
              <th scope="col" className="num">
                Critical
              </th>
              <th scope="col" className="num">
                Warnings
              </th>
              <th scope="col">Failing checks</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr key={page.url}>
                <td className="url-cell">
                  <span className="url-line" title={page.url}>
                    {page.url}
                  </span>
                </td>
                <td>
                  <Grade grade={page.grade} />
                </td>
                <td className="num">{page.overall}</td>
                <td className="num">{page.issues.critical}</td>
                <td className="num">{page.issues.warning}</td>
                <td className="small failing-checks">
                  {page.failing.length === 0
                    ? "–"
                    : page.failing.map((id) => (
                        <span key={id} className="failing-check" title={id}>
                          {titles.get(id) ?? id}
                        </span>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    )}
  </>
);

/** The audit's exports, fetched with the session's JWT and saved from the page. */
const Exports = ({ audit }: { audit: AuditView }) => {
  const api = useApi();
  const [busy, setBusy] = useState<"pages" | "report" | "issues" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (what: "pages" | "report" | "issues") => {
    setBusy(what);
    setError(null);
    try {
      const options = {
        params: { path: { id: audit.id }, query: { format: "csv" as const } },
        parseAs: "text" as const,
      };
      const {
        data,
        error: failed,
        response,
      } = what === "pages"
        ? await api.GET("/api/v1/audits/{id}/pages", options)
        : what === "issues"
          ? await api.GET("/api/v1/audits/{id}/issues", options)
          : await api.GET("/api/v1/audits/{id}/report", options);
      // an error answer is the API's envelope, read as JSON whatever was asked for
      if (!response.ok || typeof data !== "string") throw new ScanApiError(problemOf(response, failed));
      saveFile(`audit-${audit.id}-${what}.csv`, data, "text/csv");
    } catch (failure) {
      setError(`The ${what} CSV could not be made: ${asProblem(failure).message}`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div className="exports">
        <button type="button" className="button secondary small" onClick={() => void save("pages")} disabled={!!busy}>
          {busy === "pages" ? "Preparing…" : "Download pages (CSV)"}
        </button>
        {audit.status === "completed" ? (
          <>
            <button
              type="button"
              className="button secondary small"
              onClick={() => void save("issues")}
              disabled={!!busy}
            >
              {busy === "issues" ? "Preparing…" : "Download issues (CSV)"}
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => void save("report")}
              disabled={!!busy}
            >
              {busy === "report" ? "Preparing…" : "Download report (CSV)"}
            </button>
          </>
        ) : null}
        <FormError error={error} />
      </div>
      {audit.status === "completed" ? (
        <ReportFiles kind="audit" id={audit.id} formats={["pdf", "sarif", "junit"]} />
      ) : null}
    </>
  );
};

const Summary = ({ audit, report }: { audit: AuditView; report: SiteReport }) => (
  <div className="summary">
    <div className="summary-grade">
      <Grade grade={report.grade} large />
      <div>
        <p className="summary-overall">
          Overall <strong>{report.scores.overall}</strong>
          <span className="muted small"> / 100</span>
        </p>
        {report.partial ? (
          <p className="muted small">A quick audit: partial scores, compared only with other quick audits.</p>
        ) : null}
      </div>
    </div>
    <div className="summary-scores">
      <ScoreBar label="SEO" value={report.scores.seo} />
      <ScoreBar label="AEO" value={report.scores.aeo} />
      <ScoreBar label="GEO" value={report.scores.geo} />
    </div>
    <dl className="facts">
      <div>
        <dt>Pages judged</dt>
        <dd>{report.pages_judged}</dd>
      </div>
      <div>
        <dt>Issues</dt>
        <dd>
          {report.issues.critical} critical, {report.issues.warning} warnings, {report.issues.info} notes
        </dd>
      </div>
      <div>
        <dt>Completed</dt>
        <dd>{formatDateTime(audit.completed_at)}</dd>
      </div>
    </dl>
  </div>
);

/**
 * One audit, opened from the list, the history or an alert: its progress while under way, then
 * its site report (site checks failing with their pages, the worst pages) and its CSV exports.
 */
export const AuditReport = ({ id, closeHref, focus }: { id: string; closeHref: string; focus: boolean }) => {
  const api = useApi();
  const heading = useRef<HTMLHeadingElement>(null);
  const audit = useLoad(
    async () => dataOf(await api.GET("/api/v1/audits/{id}", { params: { path: { id } } })),
    [api, id],
  );
  // while under way, the audit's progress is pushed; the whole audit (its report) is read once it has ended
  const [pushed, setPushed] = useState<AuditView | null>(null);
  const [streamRefused, setStreamRefused] = useState(false);
  const underWay = audit.data !== null && isActive(audit.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload is read when the audit ends, not a reason to reconnect
  useEffect(() => {
    if (!underWay) return;
    setStreamRefused(false);
    return followProgress("audit", id, {
      onState: (view) => {
        if (isActive(view)) {
          setPushed(view);
          return false;
        }
        void audit.reload().then(() => setPushed(null));
        return true;
      },
      onRefused: () => setStreamRefused(true),
    });
  }, [underWay, id]);
  // no stream to be had (too many open, a proxy that breaks them): read the audit every few seconds instead
  useRefreshWhile(underWay && streamRefused && audit.state !== "loading", audit.reload, audit.data, AUDIT_POLL_MS);
  // opened by a link on this page: the focus follows, so a keyboard or screen reader user is taken to it
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when it opens
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, []);
  const data = pushed?.id === id ? pushed : audit.data;
  return (
    <section className="audit-report" aria-labelledby="audit-report-title">
      <div className="section-head">
        <h3 id="audit-report-title" ref={heading} tabIndex={-1}>
          {data ? `Audit started ${formatDateTime(data.created_at)}` : "Audit"}
        </h3>
        <Link to={closeHref}>Close the audit</Link>
      </div>
      {audit.state === "error" && !data ? <Problem problem={audit.problem} retry={() => void audit.reload()} /> : null}
      {!data && audit.state === "loading" ? <Loading what="the audit" /> : null}
      {data ? (
        <>
          <p className="audit-state">
            <StatusBadge status={data.status} /> {data.mode} audit of <span className="url">{data.url}</span>, up to{" "}
            {data.max_pages} pages. <AuditProgress audit={data} label="Pages done" />
          </p>
          {data.status === "failed" && data.error ? <p className="form-error">{data.error.message}</p> : null}
          {isActive(data) ? <p className="muted small">The report appears here when the audit has completed.</p> : null}
          {data.status === "cancelled" ? <p className="muted small">A cancelled audit has no report.</p> : null}
          <Exports audit={data} />
          {data.report ? (
            <>
              <Summary audit={data} report={data.report} />
              <AuditIssueList audit={data} />
              <FailingSiteChecks checks={data.report.site_checks} />
              <WorstPages
                pages={data.report.worst_pages}
                titles={new Map(data.report.page_checks.map((check) => [check.id, check.title]))}
              />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
};
