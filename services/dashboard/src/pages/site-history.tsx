import { dataOf, type SiteHistoryEntry } from "@scan/client";
import { Empty, Grade, Loading, Problem, TableWrap } from "../components/ui";
import { formatDate, formatDateTime } from "../format";
import { useLoad } from "../load";
import { Link } from "../router";
import { useApi } from "../session";

/** the most recent results drawn: the API's largest page */
const HISTORY_SIZE = 100;

const SERIES = [
  { key: "overall", name: "Overall", className: "line-overall" },
  { key: "seo", name: "SEO", className: "line-seo" },
  { key: "aeo", name: "AEO", className: "line-aeo" },
  { key: "geo", name: "GEO", className: "line-geo" },
] as const;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** A point's marker: a dot for a scan of one page, a square for an audit of the site; hollow when partial (quick). */
const Marker = ({ entry, x, y, className }: { entry: SiteHistoryEntry; x: number; y: number; className: string }) => {
  const classes = `${className}${entry.partial ? " partial" : ""}`;
  return entry.kind === "audit" ? (
    <rect className={classes} x={x - 4.5} y={y - 4.5} width={9} height={9} />
  ) : (
    <circle className={classes} cx={x} cy={y} r={3.5} />
  );
};

/** What the markers mean, drawn as they are in the chart. */
const MarkerKey = () => (
  <span className="legend">
    <span className="legend-mark">
      <svg viewBox="0 0 12 12" aria-hidden="true" className="mark">
        <circle className="line-overall" cx={6} cy={6} r={3.5} />
      </svg>
      scan of one page
    </span>
    <span className="legend-mark">
      <svg viewBox="0 0 12 12" aria-hidden="true" className="mark">
        <rect className="line-overall" x={1.5} y={1.5} width={9} height={9} />
      </svg>
      audit of the site
    </span>
    <span className="legend-mark">
      <svg viewBox="0 0 12 12" aria-hidden="true" className="mark">
        <circle className="line-overall partial" cx={6} cy={6} r={3.5} />
      </svg>
      hollow: quick (partial scores)
    </span>
  </span>
);

/**
 * The site's scores result after result, oldest on the left: its completed scans and audits
 * (GET /api/v1/sites/{id}/history), a chart whose audit points are squares on a dashed guide, and
 * the same numbers as a table.
 */
export const ScoreHistory = ({
  siteId,
  refresh,
  auditHref,
}: {
  siteId: string;
  /** changes when an audit finished, so its point is drawn */
  refresh: number;
  auditHref: (auditId: string) => string;
}) => {
  const api = useApi();
  const history = useLoad(
    async () =>
      dataOf(
        await api.GET("/api/v1/sites/{id}/history", {
          params: { path: { id: siteId }, query: { limit: HISTORY_SIZE } },
        }),
      ),
    [api, siteId, refresh],
  );
  if (history.state === "error" && !history.data)
    return <Problem problem={history.problem} retry={() => void history.reload()} />;
  if (!history.data) return <Loading what="the score history" />;
  const points = [...history.data].reverse();
  if (points.length === 0)
    return (
      <Empty title="No completed scan or audit of this site yet.">
        <p>
          <Link to="/scans">Scan one of its pages</Link>, or start an audit of the whole site below, to start its
          history.
        </p>
      </Empty>
    );
  const audits = points.filter((entry) => entry.kind === "audit").length;
  const scans = points.length - audits;
  const from = formatDate(points[0]?.completed_at);
  const to = formatDate(points.at(-1)?.completed_at);
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
            Scores of {count(scans, "scan")} and {count(audits, "audit")}, from {from} to {to}
          </title>
          {[0, 50, 100].map((level) => (
            <g key={level}>
              <line className="grid" x1={pad} x2={width - pad} y1={y(level)} y2={y(level)} />
              <text className="axis" x={2} y={y(level) + 4}>
                {level}
              </text>
            </g>
          ))}
          {points.map((entry, i) =>
            entry.kind === "audit" ? (
              <line key={entry.id} className="audit-guide" x1={x(i)} x2={x(i)} y1={y(100)} y2={y(0)} />
            ) : null,
          )}
          {SERIES.map((series) => (
            <polyline
              key={series.key}
              className={series.className}
              fill="none"
              points={points.map((entry, i) => `${x(i)},${y(entry.scores[series.key])}`).join(" ")}
            />
          ))}
          {points.map((entry, i) =>
            SERIES.map((series) => (
              <Marker
                key={`${entry.id}-${series.key}`}
                entry={entry}
                x={x(i)}
                y={y(entry.scores[series.key])}
                className={series.className}
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
          <MarkerKey />
          <span className="muted small">
            {count(scans, "scan")} and {count(audits, "audit")}, {from} (left) to {to} (right)
          </span>
        </figcaption>
      </figure>
      <details>
        <summary>The scores as a table</summary>
        <TableWrap label="Score history">
          <table>
            <thead>
              <tr>
                <th scope="col">Completed</th>
                <th scope="col">Kind</th>
                <th scope="col">Mode</th>
                <th scope="col">Grade</th>
                {SERIES.map((series) => (
                  <th key={series.key} scope="col" className="num">
                    {series.name}
                  </th>
                ))}
                <th scope="col" className="num">
                  Pages
                </th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <Link to={entry.kind === "audit" ? auditHref(entry.id) : `/scans/${entry.id}`}>
                      {formatDateTime(entry.completed_at)}
                    </Link>
                  </td>
                  <td>{entry.kind === "audit" ? "Audit" : "Scan"}</td>
                  <td>{entry.mode}</td>
                  <td>
                    <Grade grade={entry.grade} />
                  </td>
                  {SERIES.map((series) => (
                    <td key={series.key} className="num">
                      {entry.scores[series.key]}
                    </td>
                  ))}
                  <td className="num">{entry.pages}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </>
  );
};
