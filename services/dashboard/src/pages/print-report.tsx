import {
  type AuditIssue,
  type AuditIssues,
  type AuditView,
  dataOf,
  type ReportBrandingView,
  type StoredScan,
} from "@scan/client";
import { useEffect, useState } from "react";
import { EVIDENCE_LABEL } from "../components/evidence";
import { Problem, TableWrap } from "../components/ui";
import { formatDateTime, formatNumber } from "../format";
import { asProblem, useLoad } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { VisibilityPrint, type VisibilityPrintData } from "./print-visibility";

/**
 * The print view of a report: what a client is handed, in the workspace's name and logo. The
 * gateway prints it to PDF in its own Chromium (services/gateway/src/reports), loading it with
 * `?source=renderer` and answering `print-data.json` with the same shape; a signed-in user opens
 * it from a report page to print it from the browser.
 */
export type PrintData =
  | { kind: "audit"; generated_at: string; branding: ReportBrandingView | null; audit: AuditView; issues: AuditIssues }
  | { kind: "scan"; generated_at: string; branding: ReportBrandingView | null; scan: StoredScan }
  | VisibilityPrintData;

/** where the renderer answers the report's data */
export const PRINT_DATA_URL = "/app/print-data.json";

const PRODUCT = "aeo-scan";
const SCORES = [
  ["overall", "Overall"],
  ["seo", "SEO"],
  ["aeo", "AEO"],
  ["geo", "GEO"],
] as const;
const SEVERITY: Record<AuditIssue["severity"], string> = { critical: "Critical", warning: "Warning", info: "Info" };
const STATE: Record<NonNullable<AuditIssue["state"]>, string> = {
  new: "New",
  persisting: "Persisting",
  fixed: "Fixed",
};
const CATEGORY: Record<AuditIssue["category"], string> = { seo: "SEO", aeo: "AEO", geo: "GEO" };
const FINDINGS_PRINTED = 5;

const pagesText = (count: number) => `${formatNumber(count)} ${count === 1 ? "page" : "pages"}`;
const share = (value: number | null) => (value === null ? "–" : `${Math.round(value * 1000) / 10} %`);

const Letterhead = ({ branding, generatedAt }: { branding: ReportBrandingView | null; generatedAt: string }) => {
  const name = branding ? (branding.agency_name ?? branding.workspace_name) : PRODUCT;
  return (
    <header className="print-letterhead">
      {branding?.logo_url ? <img className="print-logo" src={branding.logo_url} alt={`${name} logo`} /> : null}
      <div>
        <p className="print-agency">{name}</p>
        <p className="print-muted">Prepared {formatDateTime(generatedAt)}</p>
      </div>
    </header>
  );
};

const Scores = ({
  grade,
  scores,
}: {
  grade: string | null;
  scores: Record<(typeof SCORES)[number][0], number> | null;
}) => (
  <section className="print-summary" aria-label="Grade and scores">
    <p className="print-grade">
      Grade <strong>{grade ?? "–"}</strong>
    </p>
    <dl className="print-scores">
      {SCORES.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>{scores ? `${scores[key]} / 100` : "–"}</dd>
        </div>
      ))}
    </dl>
  </section>
);

const AuditPrint = ({ data }: { data: Extract<PrintData, { kind: "audit" }> }) => {
  const { audit, issues } = data;
  const report = audit.report;
  const titles = new Map((report?.page_checks ?? []).map((check) => [check.id, check.title]));
  const open = issues.issues.filter((issue) => issue.state !== "fixed");
  const fixed = issues.issues.filter((issue) => issue.state === "fixed");
  const failingSiteChecks = (report?.site_checks ?? []).filter(
    (check) => check.status === "fail" || check.status === "warn",
  );
  return (
    <>
      <h1>Site audit of {audit.url}</h1>
      <p className="print-muted">
        {audit.mode === "full" ? "Full audit" : "Quick audit"} · {formatNumber(issues.pages_judged)} pages judged ·
        completed {formatDateTime(audit.completed_at)}
        {report?.partial ? " · a quick audit's scores are partial" : ""}
      </p>
      <Scores grade={audit.grade} scores={audit.scores} />
      <section>
        <h2>Issues</h2>
        {issues.previous_audit_id ? (
          <p className="print-muted">
            Compared with the previous {audit.mode} audit: {issues.issues.filter((i) => i.state === "new").length} new,{" "}
            {fixed.length} fixed.
          </p>
        ) : null}
        {open.length === 0 ? (
          <p>No check fails or warns on this site.</p>
        ) : (
          <TableWrap label="The issues, most severe first">
            <table className="print-table">
              <thead>
                <tr>
                  <th scope="col">Issue</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Area</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Share</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {open.map((issue) => (
                  <tr key={`${issue.scope}-${issue.check}`}>
                    <td>
                      {issue.title}
                      {issue.scope === "site" ? <span className="print-muted"> (site check)</span> : null}
                    </td>
                    <td>{SEVERITY[issue.severity]}</td>
                    <td>{CATEGORY[issue.category]}</td>
                    <td>{formatNumber(issue.pages)}</td>
                    <td>{share(issue.share)}</td>
                    <td>
                      {issue.state ? STATE[issue.state] : "–"}
                      {issue.state === "persisting" &&
                      issue.previous_pages !== null &&
                      issue.previous_pages !== issue.pages
                        ? ` (was ${formatNumber(issue.previous_pages)})`
                        : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        {fixed.length > 0 ? (
          <>
            <h3>Fixed since the previous audit</h3>
            <ul>
              {fixed.map((issue) => (
                <li key={`${issue.scope}-${issue.check}`}>
                  {issue.title}: was on {pagesText(issue.previous_pages ?? 0)}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {failingSiteChecks.length > 0 ? (
        <section>
          <h2>Site checks</h2>
          {failingSiteChecks.map((check) => (
            <div key={check.id} className="print-block">
              <h3>
                {check.title} <span className="print-muted">({check.status === "fail" ? "fails" : "warns"})</span>
              </h3>
              <p>{check.description}</p>
              <ul>
                {check.findings.slice(0, FINDINGS_PRINTED).map((finding) => (
                  <li key={`${finding.url}-${finding.detail}`}>
                    <span className="print-url">{finding.url}</span>: {finding.detail}
                  </li>
                ))}
              </ul>
              {check.findings_total > FINDINGS_PRINTED ? (
                <p className="print-muted">and {formatNumber(check.findings_total - FINDINGS_PRINTED)} more findings</p>
              ) : null}
            </div>
          ))}
        </section>
      ) : null}
      {report && report.worst_pages.length > 0 ? (
        <section>
          <h2>Pages to fix first</h2>
          <TableWrap label="The pages to fix first">
            <table className="print-table">
              <thead>
                <tr>
                  <th scope="col">Page</th>
                  <th scope="col">Grade</th>
                  <th scope="col">Score</th>
                  <th scope="col">Failing checks</th>
                </tr>
              </thead>
              <tbody>
                {report.worst_pages.map((page) => (
                  <tr key={page.url}>
                    <td className="print-url">{page.url}</td>
                    <td>{page.grade}</td>
                    <td>{page.overall}</td>
                    <td>{page.failing.map((id) => titles.get(id) ?? id).join("; ") || "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </section>
      ) : null}
    </>
  );
};

const ScanPrint = ({ data }: { data: Extract<PrintData, { kind: "scan" }> }) => {
  const { scan } = data;
  const checks = scan.checks ?? [];
  const problems = checks.filter((check) => check.status === "fail" || check.status === "warn");
  const passed = checks.filter((check) => check.status === "pass");
  return (
    <>
      <h1>Page report of {scan.url}</h1>
      <p className="print-muted">
        {scan.mode === "full" ? "Full scan" : "Quick scan"} · scanned{" "}
        {formatDateTime(scan.completed_at ?? scan.created_at)}
      </p>
      {scan.status === "failed" ? (
        <p>The page could not be scanned: {scan.error?.message ?? "unknown reason"}.</p>
      ) : (
        <>
          <Scores grade={scan.grade} scores={scan.scores} />
          <section>
            <h2>Issues</h2>
            {problems.length === 0 ? (
              <p>No check fails or warns on this page.</p>
            ) : (
              <TableWrap label="The checks that fail or warn">
                <table className="print-table print-checks">
                  <thead>
                    <tr>
                      <th scope="col">Check</th>
                      <th scope="col">Severity</th>
                      <th scope="col">Area</th>
                      <th scope="col">Result</th>
                      <th scope="col">Evidence</th>
                      <th scope="col">What to do</th>
                    </tr>
                  </thead>
                  <tbody>
                    {problems.map((check) => (
                      <tr key={check.id}>
                        <td>{check.title}</td>
                        <td>{SEVERITY[check.severity]}</td>
                        <td>{CATEGORY[check.category]}</td>
                        <td>{check.status === "fail" ? "Fails" : "Warns"}</td>
                        <td className="print-evidence">
                          {check.evidence ? EVIDENCE_LABEL[check.evidence.grade] : "–"}
                          {check.evidence?.grade === "convention" ? (
                            <span className="print-muted"> (not scored)</span>
                          ) : null}
                        </td>
                        <td>
                          {check.description}
                          {check.fix ? ` ${check.fix}` : ""}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
          <section>
            <h2>Passed</h2>
            <p>{passed.length === 0 ? "No check passed." : passed.map((check) => check.title).join(" · ")}</p>
          </section>
        </>
      )}
    </>
  );
};

/** The printed page itself, marked `data-print-ready` once drawn (the renderer waits for it). */
export const PrintView = ({ data }: { data: PrintData }) => {
  useEffect(() => {
    document.title =
      data.kind === "audit"
        ? `Site audit of ${data.audit.url}`
        : data.kind === "scan"
          ? `Page report of ${data.scan.url}`
          : `AI visibility of ${data.site.url}`;
  }, [data]);
  return (
    <article className="print-page" data-print-ready="">
      <Letterhead branding={data.branding} generatedAt={data.generated_at} />
      {data.kind === "audit" ? (
        <AuditPrint data={data} />
      ) : data.kind === "scan" ? (
        <ScanPrint data={data} />
      ) : (
        <VisibilityPrint data={data} />
      )}
      <footer className="print-footer print-muted">
        {data.kind === "visibility"
          ? `Made with ${PRODUCT}. Rates are shares of the engines' answers; an interval is the range the answers allow with 95 % confidence.`
          : `Made with ${PRODUCT}. Scores are out of 100; grades run from A (best) to F.`}
      </footer>
    </article>
  );
};

/** The renderer's page: its data from `print-data.json`, no session, no API. */
export const RendererPrint = () => {
  const [data, setData] = useState<PrintData | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    fetch(PRINT_DATA_URL)
      .then((response) =>
        response.ok ? (response.json() as Promise<PrintData>) : Promise.reject(new Error(`${response.status}`)),
      )
      .then(setData)
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  }, []);
  if (failure)
    return (
      <main data-print-ready="" data-print-error="">
        The report's data could not be read ({failure}).
      </main>
    );
  return <main id="main">{data ? <PrintView data={data} /> : null}</main>;
};

/** A signed-in user's print view: the report's data from the API, a toolbar the printout leaves out. */
export const PrintPage = ({ kind, id }: { kind: "audit" | "scan" | "visibility"; id: string }) => {
  const api = useApi();
  const loaded = useLoad(async (): Promise<PrintData> => {
    const branding = api.GET("/api/v1/branding").then(dataOf);
    const generated_at = new Date().toISOString();
    if (kind === "scan") {
      const [scan, brand] = await Promise.all([
        api.GET("/api/v1/scan/{id}", { params: { path: { id } } }).then(dataOf),
        branding,
      ]);
      return { kind, generated_at, branding: brand, scan };
    }
    if (kind === "visibility") {
      const run = await api.GET("/api/v1/visibility/runs/{id}", { params: { path: { id } } }).then(dataOf);
      const path = { params: { path: { id: run.site_id } } };
      const [site, profile, brand] = await Promise.all([
        api.GET("/api/v1/sites/{id}", path).then(dataOf),
        api.GET("/api/v1/sites/{id}/visibility", path).then(dataOf),
        branding,
      ]);
      return {
        kind,
        generated_at,
        branding: brand,
        run,
        site: { id: site.id, url: site.url, name: site.name },
        brand: {
          names: profile.brand_names.length > 0 ? profile.brand_names : [site.name],
          domains: profile.brand_domains.length > 0 ? profile.brand_domains : [site.domain],
        },
      };
    }
    const [audit, issues, brand] = await Promise.all([
      api.GET("/api/v1/audits/{id}", { params: { path: { id } } }).then(dataOf),
      api.GET("/api/v1/audits/{id}/issues", { params: { path: { id } } }).then(dataOf),
      branding,
    ]);
    return { kind, generated_at, branding: brand, audit, issues };
  }, [api, kind, id]);
  const site =
    loaded.data?.kind === "audit"
      ? loaded.data.audit.site_id
      : loaded.data?.kind === "visibility"
        ? loaded.data.site.id
        : null;
  const back =
    kind === "scan" ? `/scans/${id}` : site ? `/sites/${site}${kind === "visibility" ? "/visibility" : ""}` : "/sites";
  return (
    <main id="main" className="print-screen">
      <nav className="print-toolbar" aria-label="Print view">
        <Link to={back}>{kind === "scan" ? "Back to the scan" : "Back to the site"}</Link>
        <button
          type="button"
          className="button small"
          onClick={() => window.print()}
          disabled={loaded.state !== "done"}
        >
          Print
        </button>
      </nav>
      {loaded.state === "error" ? (
        <Problem
          problem={asProblem(loaded.problem)}
          retry={() => void loaded.reload()}
          title="The report could not be loaded"
        />
      ) : loaded.data ? (
        <PrintView data={loaded.data} />
      ) : (
        <p aria-live="polite">Loading the report…</p>
      )}
    </main>
  );
};
