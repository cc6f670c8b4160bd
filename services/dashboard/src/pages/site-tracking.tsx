import { type CitationView, dataOf } from "@scan/client";
import { Empty, Field, Loading, Pager, Problem, TableWrap } from "../components/ui";
import { formatDateTime, formatNumber } from "../format";
import { useLoad } from "../load";
import { navigate } from "../router";
import { useApi } from "../session";

/** What a site is tracked by besides scans and audits: its keywords' positions and AI engines' citations. */

export const ENGINES = ["all", "chatgpt", "claude", "perplexity", "gemini"] as const;
export type Engine = (typeof ENGINES)[number];
const ENGINE_NAME: Record<Engine, string> = {
  all: "All engines",
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};
export const RANGES = ["7d", "30d", "90d"] as const;
export type Range = (typeof RANGES)[number];
const RANGE_NAME: Record<Range, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
const LIST_SIZE = 20;

const TREND: Record<string, string> = { up: "↑ up", down: "↓ down", flat: "→ flat", new: "new" };

export const Keywords = ({
  siteId,
  page,
  hrefFor,
}: {
  siteId: string;
  page: number;
  hrefFor: (page: number) => string;
}) => {
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

export const Citations = ({
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
