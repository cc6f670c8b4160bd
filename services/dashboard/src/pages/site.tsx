import { dataOf } from "@scan/client";
import { useEffect, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Shell } from "../components/layout";
import { ReadOnlyNotice } from "../components/read-only";
import { Rename } from "../components/rename";
import { Loading, Notice, PageTitle, Problem, ScoreBar } from "../components/ui";
import { formatDateTime, siteTitle } from "../format";
import { useLoad } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { AuditReport } from "./audit-report";
import { SiteAlerts } from "./site-alerts";
import { SiteAudits } from "./site-audits";
import { ScoreHistory } from "./site-history";
import { SiteSchedule } from "./site-schedule";
import { Citations, ENGINES, type Engine, Keywords, RANGES, type Range } from "./site-tracking";
import { announceSiteDeleted } from "./sites";

const pageOf = (value: string | null) => Math.max(1, Math.floor(Number(value)) || 1);

/**
 * A site: its latest scores, its history from scans and audits, its audits (start, follow,
 * cancel, read a report), its regression alerts and audit schedule, its keywords and citations.
 * Where each list stands (pages, filters, the audit opened) is in the URL, so Back and links work.
 */
export const SitePage = ({ id }: { id: string }) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const { search } = usePlace();
  const engineParam = search.get("engine") as Engine | null;
  const engine: Engine = engineParam && ENGINES.includes(engineParam) ? engineParam : "all";
  const rangeParam = search.get("range") as Range | null;
  const range: Range = rangeParam && RANGES.includes(rangeParam) ? rangeParam : "30d";
  const keywordPage = pageOf(search.get("keywords"));
  const citationPage = pageOf(search.get("citations"));
  const auditPage = pageOf(search.get("audits"));
  const alertPage = pageOf(search.get("alerts"));
  const openAudit = search.get("audit");
  // bumped when an audit finishes: the scores, the history and the alerts load again
  const [audited, setAudited] = useState(0);
  const [editing, setEditing] = useState<"rename" | "delete" | null>(null);
  const [renamed, setRenamed] = useState<string | null>(null);

  // the audit opened by a link on this page takes the focus; one opened by the page's own URL leaves it on the title
  const shownAudit = useRef(openAudit);
  const focusReport = shownAudit.current !== openAudit;
  useEffect(() => {
    shownAudit.current = openAudit;
  }, [openAudit]);

  const site = useLoad(
    async () => dataOf(await api.GET("/api/v1/sites/{id}", { params: { path: { id } } })),
    [api, id, audited],
  );

  /** This page with some of its query changed (null removes a parameter). */
  const hrefWith = (changes: Record<string, string | number | null>) => {
    const query = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) query.delete(name);
      else query.set(name, String(value));
    }
    const value = query.toString();
    return `/sites/${id}${value ? `?${value}` : ""}`;
  };
  const pageParam = (page: number) => (page > 1 ? page : null);
  const auditHref = (auditId: string) => hrefWith({ audit: auditId });
  const citationHref = (to: { engine?: Engine; range?: Range; page?: number }) => {
    const nextEngine = to.engine ?? engine;
    const nextRange = to.range ?? range;
    return hrefWith({
      engine: nextEngine === "all" ? null : nextEngine,
      range: nextRange === "30d" ? null : nextRange,
      citations: to.engine || to.range ? null : pageParam(to.page ?? citationPage),
    });
  };

  const data = site.data;
  const title = data ? siteTitle(data) : "Site";
  return (
    <Shell>
      <PageTitle
        actions={
          data && canWrite ? (
            <>
              <button type="button" className="button secondary small" onClick={() => setEditing("rename")}>
                Rename
              </button>
              <button type="button" className="button danger small" onClick={() => setEditing("delete")}>
                Delete site
              </button>
            </>
          ) : null
        }
      >
        {title}
      </PageTitle>
      <p className="site-links">
        <Link to="/sites">← All sites</Link>
        <Link to={`/sites/${id}/visibility`}>AI visibility: profile, prompts, competitors</Link>
      </p>
      <ReadOnlyNotice />
      {renamed ? <Notice kind="success">{renamed}</Notice> : null}
      {data ? (
        <>
          <Rename
            open={editing === "rename"}
            title={`Rename “${title}”`}
            label="Name"
            hint="1 to 100 characters. The address stays the same."
            current={data.name}
            maxLength={100}
            saveLabel="Save name"
            save={async (name) => {
              const next = dataOf(await api.PATCH("/api/v1/sites/{id}", { params: { path: { id } }, body: { name } }));
              setRenamed(`The site is renamed “${siteTitle(next)}”.`);
              await site.reload();
            }}
            onClose={() => setEditing(null)}
          />
          <Confirm
            open={editing === "delete"}
            title={`Delete the site “${title}”?`}
            keepLabel="Keep the site"
            actLabel="Delete site"
            busyLabel="Deleting…"
            act={async () => {
              dataOf(await api.DELETE("/api/v1/sites/{id}", { params: { path: { id } } }));
            }}
            onClose={(deleted) => {
              setEditing(null);
              if (deleted) {
                announceSiteDeleted(title);
                navigate("/sites");
              }
            }}
          >
            <p>
              Its keywords, citation tracks, audits with their reports, audit schedule, regression alerts and stored
              sign-in credentials are deleted with it. This cannot be undone.
            </p>
            <p>
              Your scans of its pages stay in Scans. A later scan of {data.url} adds the site again, without what is
              deleted now.
            </p>
          </Confirm>
        </>
      ) : null}
      {site.state === "error" && !data ? <Problem problem={site.problem} retry={() => void site.reload()} /> : null}
      {site.state === "loading" && !data ? <Loading what="the site" /> : null}
      {data ? (
        <>
          <section className="card" aria-labelledby="latest-title">
            <h2 id="latest-title">Latest scores</h2>
            <p className="muted url">{data.url}</p>
            <div className="summary-scores">
              <ScoreBar label="SEO" value={data.latest_scores?.seo} />
              <ScoreBar label="AEO" value={data.latest_scores?.aeo} />
              <ScoreBar label="GEO" value={data.latest_scores?.geo} />
            </div>
            <p className="muted small">
              {data.latest_scores_audit ? (
                <>
                  From the full audit of {formatDateTime(data.latest_scores_audit.completed_at)} (
                  <Link to={auditHref(data.latest_scores_audit.id)}>open it</Link>).
                </>
              ) : data.latest_scores_scan ? (
                `From a ${data.latest_scores_scan.mode} scan of ${formatDateTime(data.latest_scores_scan.scanned_at)}.`
              ) : (
                "No scan or full audit has scored this site yet."
              )}{" "}
              Last scan: {formatDateTime(data.last_scan_at)}.
            </p>
          </section>
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">Score history</h2>
            <ScoreHistory siteId={id} refresh={audited} auditHref={auditHref} />
          </section>
          <section className="card" aria-labelledby="audits-title">
            <h2 id="audits-title">Site audits</h2>
            <SiteAudits
              siteId={id}
              page={auditPage}
              hrefFor={(page) => hrefWith({ audits: pageParam(page) })}
              auditHref={auditHref}
              onStarted={() => {
                if (auditPage > 1) navigate(hrefWith({ audits: null }));
              }}
              onFinished={() => setAudited((n) => n + 1)}
            />
            {openAudit ? (
              <AuditReport key={openAudit} id={openAudit} closeHref={hrefWith({ audit: null })} focus={focusReport} />
            ) : null}
          </section>
          <section className="card" aria-labelledby="alerts-title">
            <h2 id="alerts-title">Regression alerts</h2>
            <SiteAlerts
              siteId={id}
              page={alertPage}
              refresh={audited}
              hrefFor={(page) => hrefWith({ alerts: pageParam(page) })}
              auditHref={auditHref}
            />
          </section>
          <section className="card" aria-labelledby="schedule-title">
            <h2 id="schedule-title">Audit schedule</h2>
            <SiteSchedule siteId={id} initial={data.schedule} />
          </section>
          <section className="card" aria-labelledby="keywords-title">
            <h2 id="keywords-title">Keywords</h2>
            <Keywords siteId={id} page={keywordPage} hrefFor={(page) => hrefWith({ keywords: pageParam(page) })} />
          </section>
          <section className="card" aria-labelledby="citations-title">
            <h2 id="citations-title">Citation tracks</h2>
            <Citations siteId={id} engine={engine} range={range} page={citationPage} hrefFor={citationHref} />
          </section>
        </>
      ) : null}
    </Shell>
  );
};
