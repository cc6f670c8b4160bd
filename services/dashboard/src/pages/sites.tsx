import { dataOf, type SiteView } from "@scan/client";
import { type FormEvent, useEffect, useState } from "react";
import { Shell } from "../components/layout";
import { Empty, Field, Loading, Pager, PageTitle, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { useLoad } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi } from "../session";

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

export const Sites = () => {
  const api = useApi();
  const { search } = usePlace();
  const page = Math.max(1, Number(search.get("page")) || 1);
  const q = search.get("q") ?? "";
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);

  const sites = useLoad(async () => {
    const result = await api.GET("/api/v1/sites", {
      params: { query: { page, limit: PAGE_SIZE, ...(q ? { q } : {}) } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: PAGE_SIZE, total: items.length, hasMore: false } };
  }, [api, page, q]);

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
        A site is one origin (scheme, host and port). Every scan you make records its page's site, with the latest
        scores.
      </p>
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
            <p>
              <Link to="/scans">Scan a page</Link>: its site appears here with its scores.
            </p>
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
                </tr>
              </thead>
              <tbody>
                {sites.data.items.map((site) => (
                  <tr key={site.id}>
                    <td>
                      <Link to={`/sites/${site.id}`}>{site.name}</Link>
                      <div className="muted small url">{site.url}</div>
                    </td>
                    <Scores site={site} />
                    <td>{formatDateTime(site.last_scan_at)}</td>
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
