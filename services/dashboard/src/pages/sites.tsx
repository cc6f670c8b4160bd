import { dataOf, problemSentence, type SiteView } from "@scan/client";
import { type FormEvent, useEffect, useState } from "react";
import { Shell } from "../components/layout";
import { ReadOnlyNotice } from "../components/read-only";
import { Empty, Field, FormError, Loading, Notice, Pager, PageTitle, Problem, TableWrap } from "../components/ui";
import { formatDateTime, siteTitle } from "../format";
import { asProblem, useLoad } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { ClientOfSite } from "./site-client";

const PAGE_SIZE = 20;

const Scores = ({ site }: { site: SiteView }) =>
  site.latest_scores ? (
    <>
      <td className="num">{site.latest_scores.seo}</td>
      <td className="num">{site.latest_scores.aeo}</td>
      <td className="num">{site.latest_scores.geo}</td>
    </>
  ) : (
    <td colSpan={3} className="muted">
      not scanned yet
    </td>
  );

/** What the sites page says once: a site deleted on its own page, before the list shows without it. */
let deletedSite: string | null = null;
export const announceSiteDeleted = (title: string) => {
  deletedSite = title;
};

/**
 * Records a site from any of its pages' URLs. The API refuses what the scanner may not reach
 * (private addresses, ports outside SCAN_PORTS) and the refusal shows under the form.
 */
const AddSite = ({ onAdded }: { onAdded: (site: SiteView, created: boolean) => void }) => {
  const api = useApi();
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api.POST("/api/v1/sites", {
        body: { url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) },
      });
      const site = dataOf(answer);
      setUrl("");
      setName("");
      onAdded(site, answer.response.status === 201);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="add-site-title">
      <h2 id="add-site-title">Add a site</h2>
      <div className="form-row">
        <Field label="Address" hint="Any page of the site, e.g. https://example.com. The site is its origin.">
          {(props) => (
            <input
              {...props}
              type="url"
              required
              inputMode="url"
              placeholder="https://"
              maxLength={2048}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <Field label="Name" hint="Optional: the client's or the project's name. The domain otherwise.">
          {(props) => <input {...props} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
      </div>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Adding…" : "Add site"}
      </button>
    </form>
  );
};

export const Sites = () => {
  const api = useApi();
  const canWrite = useCanWrite();
  const { search } = usePlace();
  const page = Math.max(1, Number(search.get("page")) || 1);
  const q = search.get("q") ?? "";
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const [notice, setNotice] = useState<string | null>(() => {
    const said = deletedSite === null ? null : `The site “${deletedSite}” is deleted, with what was recorded for it.`;
    deletedSite = null;
    return said;
  });

  const sites = useLoad(async () => {
    const result = await api.GET("/api/v1/sites", {
      params: { query: { page, limit: PAGE_SIZE, ...(q ? { q } : {}) } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: PAGE_SIZE, total: items.length, hasMore: false } };
  }, [api, page, q]);

  const clients = useLoad(
    async () => dataOf(await api.GET("/api/v1/clients", { params: { query: { limit: 100 } } })),
    [api],
  );
  const [assignError, setAssignError] = useState<string | null>(null);
  const hasClients = (clients.data?.length ?? 0) > 0;

  const hrefFor = (to: { page?: number; q?: string }) => {
    const query = new URLSearchParams();
    const nextQ = to.q ?? q;
    if (nextQ) query.set("q", nextQ);
    if ((to.page ?? 1) > 1) query.set("page", String(to.page));
    const value = query.toString();
    return value ? `/sites?${value}` : "/sites";
  };

  const find = (event: FormEvent) => {
    event.preventDefault();
    navigate(hrefFor({ q: text.trim(), page: 1 }));
  };

  return (
    <Shell>
      <PageTitle>Sites</PageTitle>
      <p className="muted">
        {canWrite
          ? "A site is one origin (scheme, host and port). Add one below, or scan any of its pages: every scan you make records its page's site, with the latest scores."
          : "A site is one origin (scheme, host and port), with the latest scores of its scans and audits."}
      </p>
      <ReadOnlyNotice />
      {canWrite ? (
        <AddSite
          onAdded={(site, created) => {
            setNotice(
              created
                ? `The site “${siteTitle(site)}” is added.`
                : `You already had the site “${siteTitle(site)}” (${site.url}).`,
            );
            if (page > 1 || q) navigate("/sites");
            else void sites.reload();
          }}
        />
      ) : null}
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <FormError error={assignError} />
      <search>
        <form className="search" onSubmit={find}>
          <Field label="Find a site" hint="Part of a domain, name or URL.">
            {(props) => <input {...props} type="search" value={text} onChange={(e) => setText(e.target.value)} />}
          </Field>
          <button type="submit" className="button secondary">
            Search
          </button>
        </form>
      </search>
      {sites.state === "error" ? <Problem problem={sites.problem} retry={() => void sites.reload()} /> : null}
      {sites.state === "loading" && !sites.data ? <Loading what="your sites" /> : null}
      {sites.data && sites.data.items.length === 0 ? (
        q ? (
          <Empty title={`No site matches “${q}”.`}>
            <p>
              Try part of the domain only, or <Link to="/sites">show every site</Link>.
            </p>
          </Empty>
        ) : (
          <Empty title="No sites yet.">
            {canWrite ? (
              <p>
                Add one above, or <Link to="/scans">scan a page</Link>: its site appears here with its scores.
              </p>
            ) : null}
          </Empty>
        )
      ) : null}
      {sites.data && sites.data.items.length > 0 ? (
        <>
          <TableWrap label="Sites">
            <table>
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col" className="num">
                    SEO
                  </th>
                  <th scope="col" className="num">
                    AEO
                  </th>
                  <th scope="col" className="num">
                    GEO
                  </th>
                  <th scope="col">Last scan</th>
                  {hasClients ? <th scope="col">Client</th> : null}
                </tr>
              </thead>
              <tbody>
                {sites.data.items.map((site) => (
                  <tr key={site.id}>
                    <td>
                      <Link to={`/sites/${site.id}`}>{siteTitle(site)}</Link>
                      <div className="muted small url">{site.url}</div>
                    </td>
                    <Scores site={site} />
                    <td>{formatDateTime(site.last_scan_at)}</td>
                    {hasClients && clients.data ? (
                      <td>
                        <ClientOfSite
                          key={`${site.id}-${site.client_id}`}
                          site={site}
                          clients={clients.data}
                          canWrite={canWrite}
                          onDone={(done, failed) => {
                            setNotice(done);
                            setAssignError(failed);
                            if (done) void sites.reload();
                          }}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager {...sites.data.meta} hrefFor={(p) => hrefFor({ page: p })} />
        </>
      ) : null}
    </Shell>
  );
};
