import { type CitationView, dataOf, type ScanSummary } from "@scan/client";
import { Shell } from "../components/layout";
import { Empty, Field, Loading, Pager, PageTitle, Problem, ScoreBar, TableWrap } from "../components/ui";
import { formatDate, formatDateTime, formatNumber } from "../format";
import { useLoad } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi } from "../session";

const ENGINES = ["all", "chatgpt", "claude", "perplexity", "gemini"] as const;
type Engine = (typeof ENGINES)[number];
const ENGINE_NAME: Record<Engine, string> = {
  all: "All engines",
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};
const RANGES = ["7d", "30d", "90d"] as const;
type Range = (typeof RANGES)[number];
const RANGE_NAME: Record<Range, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
const HISTORY_SCANS = 100;
const LIST_SIZE = 20;

const SERIES = [
  { key: "overall", name: "Overall", className: "line-overall" },
  { key: "seo", name: "SEO", className: "line-seo" },
  { key: "aeo", name: "AEO", className: "line-aeo" },
  { key: "geo", name: "GEO", className: "line-geo" },
] as const;

/** The site's scores scan after scan, oldest on the left: a chart, and the same numbers as a table. */
const ScoreHistory = ({ scans }: { scans: ScanSummary[] }) => {
  const points = scans.filter((scan) => scan.scores).reverse();
  if (points.length === 0)
    return (
      <Empty title="No completed scan of this site yet.">
        <p>
          <Link to="/scans">Scan one of its pages</Link> to start its history.
        </p>
      </Empty>
    );
  const width = 600;
  const height = 180;
  const pad = 24;
  const x = (i: number) => (points.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (points.length - 1));
  const y = (score: number) => height - pad - (score * (height - 2 * pad)) / 100;
  return (
    <>
      <figure className="chart">
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="history-chart-title">
          <title id="history-chart-title">
            Scores of the last {points.length} completed scans, from {formatDate(points[0]?.completed_at)} to{" "}
            {formatDate(points.at(-1)?.completed_at)}
          </title>
          {[0, 50, 100].map((level) => (
            <g key={level}>
              <line className="grid" x1={pad} x2={width - pad} y1={y(level)} y2={y(level)} />
              <text className="axis" x={2} y={y(level) + 4}>
                {level}
              </text>
            </g>
          ))}
          {SERIES.map((series) => (
            <polyline
              key={series.key}
              className={series.className}
              fill="none"
              points={points.map((scan, i) => `${x(i)},${y(scan.scores?.[series.key] ?? 0)}`).join(" ")}
            />
          ))}
          {points.map((scan, i) =>
            SERIES.map((series) => (
              <circle
                key={`${scan.id}-${series.key}`}
                className={series.className}
                cx={x(i)}
                cy={y(scan.scores?.[series.key] ?? 0)}
                r={3}
              />
            )),
          )}
        </svg>
        <figcaption>
          <span className="legend">
            {SERIES.map((series) => (
              <span key={series.key} className={`legend-item ${series.className}`}>
                {series.name}
              </span>
            ))}
          </span>
          <span className="muted small">
            {points.length} {points.length === 1 ? "scan" : "scans"}, {formatDate(points[0]?.completed_at)} (left) to{" "}
            {formatDate(points.at(-1)?.completed_at)} (right)
          </span>
        </figcaption>
      </figure>
      <details>
        <summary>The scores as a table</summary>
        <TableWrap label="Score history">
          <table>
            <thead>
              <tr>
                <th scope="col">Scan</th>
                <th scope="col">Mode</th>
                {SERIES.map((series) => (
                  <th key={series.key} scope="col" className="num">
                    {series.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...points].reverse().map((scan) => (
                <tr key={scan.id}>
                  <td>
                    <Link to={`/scans/${scan.id}`}>{formatDateTime(scan.completed_at)}</Link>
                  </td>
                  <td>{scan.mode}</td>
                  {SERIES.map((series) => (
                    <td key={series.key} className="num">
                      {scan.scores?.[series.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </>
  );
};

const TREND: Record<string, string> = { up: "↑ up", down: "↓ down", flat: "→ flat", new: "new" };

const Keywords = ({ siteId, page, hrefFor }: { siteId: string; page: number; hrefFor: (page: number) => string }) => {
  const api = useApi();
  const keywords = useLoad(async () => {
    const result = await api.GET("/api/v1/keywords", {
      params: { query: { site_id: siteId, page, limit: LIST_SIZE } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, page]);
  if (keywords.state === "error") return <Problem problem={keywords.problem} retry={() => void keywords.reload()} />;
  if (!keywords.data) return <Loading what="keywords" />;
  if (keywords.data.items.length === 0)
    return (
      <Empty title="No tracked keywords.">
        <p>
          Record a keyword's search position with <code>POST /api/v1/keywords</code> (see the API reference at{" "}
          <a href="/docs">/docs</a>); it shows here with its trend.
        </p>
      </Empty>
    );
  return (
    <>
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
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Pager {...keywords.data.meta} hrefFor={hrefFor} />
    </>
  );
};

const Citations = ({
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
  const citations = useLoad(async () => {
    const result = await api.GET("/api/v1/citations", {
      params: { query: { site_id: siteId, engine, date_range: range, page, limit: LIST_SIZE } },
    });
    const items: CitationView[] = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, engine, range, page]);
  return (
    <>
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
            Choose a longer range or another engine, or record what an engine answered with{" "}
            <code>POST /api/v1/citations</code>.
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
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager {...citations.data.meta} hrefFor={(p) => hrefFor({ page: p })} />
        </>
      )}
    </>
  );
};

export const SitePage = ({ id }: { id: string }) => {
  const api = useApi();
  const { search } = usePlace();
  const engineParam = search.get("engine") as Engine | null;
  const engine: Engine = engineParam && ENGINES.includes(engineParam) ? engineParam : "all";
  const rangeParam = search.get("range") as Range | null;
  const range: Range = rangeParam && RANGES.includes(rangeParam) ? rangeParam : "30d";
  const keywordPage = Math.max(1, Number(search.get("keywords")) || 1);
  const citationPage = Math.max(1, Number(search.get("citations")) || 1);

  const site = useLoad(async () => {
    const [found, history] = await Promise.all([
      api.GET("/api/v1/sites/{id}", { params: { path: { id } } }),
      api.GET("/api/v1/scans", { params: { query: { site_id: id, status: "completed", limit: HISTORY_SCANS } } }),
    ]);
    return { site: dataOf(found), scans: dataOf(history) };
  }, [api, id]);

  const hrefFor = (to: { engine?: Engine; range?: Range; page?: number; keywords?: number }) => {
    const query = new URLSearchParams();
    const nextEngine = to.engine ?? engine;
    const nextRange = to.range ?? range;
    if (nextEngine !== "all") query.set("engine", nextEngine);
    if (nextRange !== "30d") query.set("range", nextRange);
    const citations = to.engine || to.range ? 1 : (to.page ?? citationPage);
    if (citations > 1) query.set("citations", String(citations));
    const keywords = to.keywords ?? keywordPage;
    if (keywords > 1) query.set("keywords", String(keywords));
    const value = query.toString();
    return `/sites/${id}${value ? `?${value}` : ""}`;
  };

  return (
    <Shell>
      <PageTitle>{site.data?.site.name ?? "Site"}</PageTitle>
      <p>
        <Link to="/sites">← All sites</Link>
      </p>
      {site.state === "error" ? <Problem problem={site.problem} retry={() => void site.reload()} /> : null}
      {site.state === "loading" && !site.data ? <Loading what="the site" /> : null}
      {site.data ? (
        <>
          <section className="card" aria-labelledby="latest-title">
            <h2 id="latest-title">Latest scores</h2>
            <p className="muted url">{site.data.site.url}</p>
            <div className="summary-scores">
              <ScoreBar label="SEO" value={site.data.site.latest_scores?.seo} />
              <ScoreBar label="AEO" value={site.data.site.latest_scores?.aeo} />
              <ScoreBar label="GEO" value={site.data.site.latest_scores?.geo} />
            </div>
            <p className="muted small">
              {site.data.site.latest_scores_scan
                ? `From a ${site.data.site.latest_scores_scan.mode} scan of ${formatDateTime(site.data.site.latest_scores_scan.scanned_at)}.`
                : "No scan has scored this site yet."}{" "}
              Last scan: {formatDateTime(site.data.site.last_scan_at)}.
            </p>
          </section>
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">Score history</h2>
            <ScoreHistory scans={site.data.scans} />
          </section>
          <section className="card" aria-labelledby="keywords-title">
            <h2 id="keywords-title">Keywords</h2>
            <Keywords siteId={id} page={keywordPage} hrefFor={(p) => hrefFor({ keywords: p })} />
          </section>
          <section className="card" aria-labelledby="citations-title">
            <h2 id="citations-title">Citation tracks</h2>
            <Citations siteId={id} engine={engine} range={range} page={citationPage} hrefFor={hrefFor} />
          </section>
        </>
      ) : null}
    </Shell>
  );
};
