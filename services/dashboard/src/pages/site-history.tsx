import { dataOf } from "@scan/client";
import { Empty, Grade, Loading, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { useLoad } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { count, PageScans, SERIES, SiteChart, timeOf } from "./history-chart";

/** the most recent results drawn: the API's largest page */
const HISTORY_SIZE = 100;

/**
 * The site's history (GET /api/v1/sites/{id}/history) on a time axis: the site's line from its
 * completed audits, each scanned page's line apart from it, and every result in a table.
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
  const audits = points.filter((entry) => entry.kind === "audit");
  const scans = points.filter((entry) => entry.kind === "scan");
  // one time span for the site's line and the pages' lines, so a point sits at the same moment in both
  const from = Math.min(...points.map(timeOf));
  const to = Math.max(...points.map(timeOf));
  return (
    <>
      {audits.length > 0 ? (
        <SiteChart audits={audits} from={from} to={to} />
      ) : (
        <p className="muted">
          No audit of the whole site yet, so no line for the site: its line comes from audits, started below. The scans
          of single pages are shown page by page.
        </p>
      )}
      {scans.length > 0 ? <PageScans scans={scans} from={from} to={to} /> : null}
      <details>
        <summary>
          The scores as a table ({count(audits.length, "audit")}, {count(scans.length, "scan")})
        </summary>
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
