import type { CheckResult, StoredScan } from "@scan/client";
import { useEffect, useLayoutEffect, useMemo, useState } from "react";
import { EVIDENCE_LABEL, evidenceWeightText } from "../components/evidence";
import { Shell } from "../components/layout";
import { ReportFiles } from "../components/report-files";
import { Grade, Loading, Notice, PageTitle, Problem, ScoreBar, StatusBadge } from "../components/ui";
import { formatDateTime, formatMs } from "../format";
import { useLiveScan } from "../live-scan";
import { Link } from "../router";
import { useApi } from "../session";

const AREAS = [
  { id: "seo", name: "SEO", about: "How search engines find, read and list the page." },
  { id: "aeo", name: "AEO", about: "How answer engines can lift answers from the page." },
  { id: "geo", name: "GEO", about: "How generative engines can read, trust and cite the page." },
] as const;

const STATUS_ORDER = ["fail", "warn", "pass", "skip"] as const;
const STATUS_GROUP: Record<(typeof STATUS_ORDER)[number], string> = {
  fail: "Failed",
  warn: "Warnings",
  pass: "Passed",
  skip: "Skipped",
};

/** Checks that hold the HTML as served against the page after its scripts ran. */
const SERVED_VS_RENDERED = ["raw-html-content", "bot-access-parity", "indexable", "charset"];

/**
 * How well what the check asks for is known to matter, with its source one keypress away (a
 * details element: Enter or Space opens it). Convention-only checks say that they are not scored.
 */
const EvidenceLabel = ({ evidence }: { evidence: NonNullable<CheckResult["evidence"]> }) => (
  <details className={`evidence evidence-${evidence.grade}`}>
    <summary>
      <span className="visually-hidden">Evidence: </span>
      {EVIDENCE_LABEL[evidence.grade]}
    </summary>
    <p className="evidence-source">
      {evidence.source ? (
        <>
          Source:{" "}
          <a href={evidence.source.url} rel="noreferrer">
            {evidence.source.title}
          </a>
          {evidence.checked ? <> (checked {evidence.checked})</> : null}.
        </>
      ) : (
        <>No engine documentation or study found for it.</>
      )}{" "}
      {evidenceWeightText(evidence.grade)}
    </p>
  </details>
);

const CheckItem = ({ check }: { check: CheckResult }) => (
  <li className={`check check-${check.status}`}>
    <div className="check-head">
      <StatusBadge status={check.status} />
      <span className="check-title">{check.title}</span>
      <span className="check-score" title="points earned of the points at stake">
        {check.score} / {check.maxScore}
      </span>
    </div>
    <p className="check-description">{check.description}</p>
    {check.fix ? (
      <p className="check-fix">
        <strong>Fix:</strong> {check.fix}
      </p>
    ) : null}
    <div className="check-meta">
      <span>
        <code>{check.id}</code> · {check.severity}
      </span>
      {check.evidence ? <EvidenceLabel evidence={check.evidence} /> : null}
    </div>
  </li>
);

const CheckList = ({ checks }: { checks: CheckResult[] }) => (
  <ul className="checks">
    {checks.map((check) => (
      <CheckItem key={check.id} check={check} />
    ))}
  </ul>
);

/**
 * What needs work is open; what passed or was skipped is one click away, and drawn only when
 * opened (half a report's checks usually pass: the report appears sooner without them).
 */
const StatusGroup = ({ status, checks }: { status: (typeof STATUS_ORDER)[number]; checks: CheckResult[] }) => {
  const [open, setOpen] = useState(false);
  const heading = `${STATUS_GROUP[status]} (${checks.length})`;
  return status === "fail" || status === "warn" ? (
    <div>
      <h3>{heading}</h3>
      <CheckList checks={checks} />
    </div>
  ) : (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <h3 className="inline">{heading}</h3>
      </summary>
      {open ? <CheckList checks={checks} /> : null}
    </details>
  );
};

const AreaChecks = ({ area, checks }: { area: (typeof AREAS)[number]; checks: CheckResult[] }) => {
  const byStatus = STATUS_ORDER.map((status) => ({ status, checks: checks.filter((c) => c.status === status) })).filter(
    (group) => group.checks.length > 0,
  );
  return (
    <section className="card area" aria-labelledby={`area-${area.id}`}>
      <h2 id={`area-${area.id}`}>
        {area.name} <span className="muted small">{checks.length} checks</span>
      </h2>
      <p className="muted">{area.about}</p>
      {byStatus.map((group) => (
        <StatusGroup key={group.status} status={group.status} checks={group.checks} />
      ))}
    </section>
  );
};

const ServedAndRendered = ({ scan }: { scan: StoredScan }) => {
  const compared = (scan.checks ?? []).filter((check) => SERVED_VS_RENDERED.includes(check.id));
  return (
    <section className="card" aria-labelledby="served-title">
      <h2 id="served-title">Served HTML and rendered page</h2>
      {scan.rendered ? (
        <p>
          The page was rendered: its scripts ran in Chromium, and the checks read the page as a browser shows it.
          {compared.length > 0 ? " These checks held the HTML as served against the rendered page:" : ""}
        </p>
      ) : scan.render_failure ? (
        <p>
          The page was to be rendered in Chromium, but the render failed: {scan.render_failure.message} Checks that need
          its scripts read the page as a crawler that runs none does. Scan it again to judge it as a browser shows it.
        </p>
      ) : (
        <p>
          The page was judged on its HTML as served, without running its scripts (a quick scan renders only pages that
          need it). A full scan renders every page and compares what crawlers without JavaScript see with what browsers
          show.
        </p>
      )}
      {compared.length > 0 ? (
        <ul className="checks">
          {compared.map((check) => (
            <CheckItem key={check.id} check={check} />
          ))}
        </ul>
      ) : null}
    </section>
  );
};

/** The stored scan as a JSON file, made in the browser from what the API answered. */
const Download = ({ scan }: { scan: StoredScan }) => {
  const href = useMemo(
    () => URL.createObjectURL(new Blob([`${JSON.stringify(scan, null, 2)}\n`], { type: "application/json" })),
    [scan],
  );
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <a className="button secondary" href={href} download={`scan-${scan.id}.json`}>
      Download JSON
    </a>
  );
};

/** Marks when the report is on screen, against when its data arrived (the benchmark reads both). */
const useDrawnMark = (ready: boolean) => {
  useLayoutEffect(() => {
    if (!ready) return;
    requestAnimationFrame(() => {
      performance.mark("report:drawn");
      if (performance.getEntriesByName("report:data").length > 0)
        performance.measure("report:draw", "report:data", "report:drawn");
    });
  }, [ready]);
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The issues as the sections below group them, by status (failed, warnings), with how many of
 * them are of critical severity. The scan's own counts are by severity over the same checks;
 * they stand alone when its check list was dropped by retention.
 */
const IssueSummary = ({ scan }: { scan: StoredScan }) => {
  const { critical, warning, info } = scan.issues;
  if (!scan.checks)
    return (
      <>
        {plural(critical + warning + info, "check", "checks")} failed or warned: {critical} critical, {warning} of
        warning severity, {info} of info severity
      </>
    );
  const failed = scan.checks.filter((check) => check.status === "fail").length;
  const warned = scan.checks.filter((check) => check.status === "warn").length;
  return (
    <>
      {failed} failed, {plural(warned, "warning", "warnings")}
      {critical > 0 ? ` (${critical} of them critical)` : ""}
    </>
  );
};

export const Report = ({ scan }: { scan: StoredScan }) => {
  const checks = scan.checks ?? [];
  useDrawnMark(true);
  return (
    <>
      <section className="card summary" aria-label="Summary">
        <div className="summary-grade">
          <Grade grade={scan.grade} large />
          <div>
            <p className="summary-overall">
              Overall <strong>{scan.scores?.overall ?? "–"}</strong>
              <span className="muted"> / 100</span>
            </p>
            <p className="muted small">
              {scan.mode === "quick"
                ? "Quick scan: 20 core checks, not comparable with a full scan's scores."
                : "Full scan: all 57 checks."}
            </p>
            {scan.render_failure ? (
              <p>
                <a className="badge badge-warn" href="#served-title" title={scan.render_failure.message}>
                  Judged on served HTML: the render failed
                </a>
              </p>
            ) : null}
          </div>
        </div>
        <div className="summary-scores">
          {AREAS.map((area) => (
            <ScoreBar key={area.id} label={area.name} value={scan.scores?.[area.id]} />
          ))}
        </div>
        <dl className="facts">
          <div>
            <dt>Page</dt>
            <dd className="url">{scan.url}</dd>
          </div>
          {scan.final_url && scan.final_url !== scan.url ? (
            <div>
              <dt>Ended at</dt>
              <dd className="url">{scan.final_url}</dd>
            </div>
          ) : null}
          <div>
            <dt>Finished</dt>
            <dd>{formatDateTime(scan.completed_at)}</dd>
          </div>
          <div>
            <dt>Took</dt>
            <dd>{formatMs(scan.duration_ms)}</dd>
          </div>
          <div>
            <dt>Issues</dt>
            <dd>
              <IssueSummary scan={scan} />
            </dd>
          </div>
        </dl>
      </section>
      <ServedAndRendered scan={scan} />
      {AREAS.map((area) => (
        <AreaChecks key={area.id} area={area} checks={checks.filter((check) => check.category === area.id)} />
      ))}
    </>
  );
};

export const ScanReport = ({ id }: { id: string }) => {
  const api = useApi();
  const live = useLiveScan(api, id);
  const scan = live.scan;
  return (
    <Shell>
      <PageTitle actions={scan?.status === "completed" ? <Download scan={scan} /> : null}>Scan report</PageTitle>
      {scan?.status === "completed" && scan.checks_pruned_at === null ? <ReportFiles kind="scan" id={scan.id} /> : null}
      <p>
        <Link to="/scans">← All scans</Link>
      </p>
      {live.state === "error" && !scan ? (
        <Problem
          // a 404's hint speaks to API callers (which id to use); here the page says what it means
          problem={live.problem.status === 404 ? { ...live.problem, hint: null } : live.problem}
          title="This scan cannot be shown."
        />
      ) : null}
      {!scan && live.state === "loading" ? <Loading what="the scan" /> : null}
      {scan && (scan.status === "queued" || scan.status === "running") ? (
        <div className="card" role="status" aria-live="polite">
          <p>
            <StatusBadge status={scan.status} /> {scan.url} ({scan.mode})
          </p>
          <p>
            {scan.status === "queued" ? "Waiting for a free worker." : "The page is being fetched and checked."} This
            page shows the report as soon as it is done.
          </p>
        </div>
      ) : null}
      {scan?.status === "failed" ? (
        <Notice kind="warning">
          <p>
            <strong>The scan of {scan.url} failed.</strong> {scan.error?.message}
          </p>
          <p>Check that the page answers from the internet, then scan it again.</p>
        </Notice>
      ) : null}
      {scan?.status === "completed" ? <Report scan={scan} /> : null}
    </Shell>
  );
};
