import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { Fragment, type ReactNode, useState } from "react";
import { ReportFiles } from "../components/report-files";
import { Empty, FormError, Loading, Notice, Pager, Problem, StatusBadge, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad, useRefreshWhile } from "../load";
import { Link } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { count, timeScale } from "./history-chart";
import { CitedPagesSection } from "./visibility-cited-pages";

/**
 * What the engines answered: the latest run (started here, followed while under way), its
 * rates with their 95 % intervals, share of voice and cited sources; the runs on a time axis;
 * and a run's answers, each with its citations and the brand's mentions marked.
 */

type Run = DataOf<"getVisibilityRun">;
type Measures = NonNullable<Run["measures"]>;
type Rate = Measures["engines"][number]["mention_rate"];
type Engine = Run["engines"][number];
type Sample = DataOf<"listVisibilitySamples">[number];

const ENGINE_NAME: Record<Engine, string> = {
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};
const ENGINES: Engine[] = ["chatgpt", "claude", "perplexity", "gemini"];

/** How often a run under way is asked about: reads on the session's own budget, kept few. */
const RUN_POLL_MS = 3_000;
/** The runs drawn on the time axis: each is one read of its measures. */
const HISTORY_RUNS = 12;
const SAMPLE_PAGE = 10;

const underWay = (run: { status: string }) => run.status === "queued" || run.status === "running";
const percent = (value: number) => `${Math.round(value * 100)} %`;

/** "42 % (28–57 %) of 12 answers", or that nothing was answered. */
export const rateText = (rate: Rate) =>
  rate.rate === null || rate.n === 0
    ? "no answers"
    : `${percent(rate.rate)} (${Math.round(rate.low * 100)}–${percent(rate.high)}) of ${count(rate.n, "answer")}`;

/** A domain that is the brand's own, or one of its subdomains. */
export const ownDomain = (domain: string, brandDomains: readonly string[]) => {
  const host = domain.toLowerCase().replace(/^www\./, "");
  return brandDomains.some((own) => {
    const brand = own.toLowerCase().replace(/^www\./, "");
    return host === brand || host.endsWith(`.${brand}`);
  });
};
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/** The rate as a dot on its 95 % interval, 0 to 100 %; the numbers beside it say the same. */
const Whisker = ({ rate }: { rate: Rate }) => {
  const at = (value: number) => 4 + value * 152;
  return (
    <svg className="whisker" viewBox="0 0 160 16" aria-hidden="true">
      <line className="grid" x1={4} x2={156} y1={8} y2={8} />
      {rate.rate === null ? null : (
        <>
          <rect className="band" x={at(rate.low)} width={Math.max(1, at(rate.high) - at(rate.low))} y={3} height={10} />
          <circle className="dot" cx={at(rate.rate)} cy={8} r={4} />
        </>
      )}
    </svg>
  );
};

const Change = ({ change }: { change: { changed: boolean; direction: string; p_value: number } | undefined }) =>
  !change ? null : change.changed ? (
    <span className={`change change-${change.direction}`}>
      {change.direction === "up" ? "↑ up" : "↓ down"} since the previous run (p = {change.p_value.toFixed(3)})
    </span>
  ) : (
    <span className="muted">no significant change</span>
  );

const EngineRates = ({ measures }: { measures: Measures }) => {
  const versus = new Map((measures.versus_previous?.engines ?? []).map((entry) => [entry.engine, entry]));
  return (
    <TableWrap label="Rates per engine">
      <table className="rates">
        <caption>Rates per engine, with their 95 % intervals</caption>
        <thead>
          <tr>
            <th scope="col">Engine</th>
            <th scope="col">Brand mentioned</th>
            <th scope="col">Brand cited</th>
            <th scope="col">Average position</th>
          </tr>
        </thead>
        <tbody>
          {measures.engines.map((engine) => (
            <tr key={engine.engine}>
              <th scope="row">{ENGINE_NAME[engine.engine]}</th>
              <td>
                <Whisker rate={engine.mention_rate} />
                <span className="rate-text">{rateText(engine.mention_rate)}</span>
                <Change change={versus.get(engine.engine)?.mention} />
              </td>
              <td>
                <Whisker rate={engine.citation_rate} />
                <span className="rate-text">{rateText(engine.citation_rate)}</span>
                <Change change={versus.get(engine.engine)?.citation} />
              </td>
              <td>{engine.average_position === null ? "–" : engine.average_position.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
};

const ShareOfVoice = ({ share }: { share: Measures["share_of_voice"] }) =>
  share.length === 0 ? (
    <p className="muted">No answer named the brand or a competitor.</p>
  ) : (
    <ul className="bar-list">
      {share.map((entry) => (
        <li key={entry.name}>
          <span className="bar-name">{entry.name}</span>
          <span className="bar-track" aria-hidden="true">
            <span className="bar-fill" style={{ width: `${(entry.share ?? 0) * 100}%` }} />
          </span>
          <span className="bar-value">
            {entry.share === null ? "–" : percent(entry.share)} ({count(entry.mentions, "mention")})
          </span>
        </li>
      ))}
    </ul>
  );

const Sources = ({
  title,
  rows,
  own,
  url,
}: {
  title: string;
  rows: { key: string; count: number }[];
  own: (key: string) => boolean;
  url: boolean;
}) => (
  <div>
    <h4>{title}</h4>
    {rows.length === 0 ? (
      <p className="muted">None cited.</p>
    ) : (
      <ol className="sources">
        {rows.map((row) => (
          <li key={row.key} className={own(row.key) ? "own" : undefined}>
            <span className={url ? "url" : undefined}>{row.key}</span> <span className="muted">×{row.count}</span>
            {own(row.key) ? <span className="badge badge-own">the brand's</span> : null}
          </li>
        ))}
      </ol>
    )}
  </div>
);

const Progress = ({ run }: { run: Run }) => (
  <p className="run-progress">
    <StatusBadge status={run.status} />{" "}
    <progress max={Math.max(1, run.progress.planned)} value={run.progress.done + run.progress.failed}>
      {run.progress.done + run.progress.failed} of {run.progress.planned}
    </progress>{" "}
    {run.progress.done} of {count(run.progress.planned, "answer")} in, {run.progress.failed} failed
  </p>
);

/** The latest run: Run now, its progress while under way, then its measures. */
const LatestRun = ({
  runId,
  brandDomains,
  onEnded,
}: {
  runId: string;
  brandDomains: readonly string[];
  onEnded: () => void;
}) => {
  const api = useApi();
  const [ended, setEnded] = useState(false);
  const run = useLoad(async () => {
    const data = dataOf(await api.GET("/api/v1/visibility/runs/{id}", { params: { path: { id: runId } } }));
    if (!underWay(data) && !ended) {
      setEnded(true);
      onEnded();
    }
    return data;
  }, [api, runId]);
  useRefreshWhile(!!run.data && underWay(run.data), run.reload, run.data, RUN_POLL_MS);
  if (run.state === "error" && !run.data) return <Problem problem={run.problem} retry={() => void run.reload()} />;
  if (!run.data) return <Loading what="the latest run" />;
  const data = run.data;
  const own = (key: string) => ownDomain(key, brandDomains);
  return (
    <section aria-labelledby="latest-run-title" aria-busy={underWay(data)}>
      <h3 id="latest-run-title">Latest run, started {formatDateTime(data.created_at)}</h3>
      <Progress run={data} />
      {data.error ? <Notice kind="warning">{problemSentence(data.error.message, null)}</Notice> : null}
      {data.measures && !underWay(data) ? (
        <>
          <EngineRates measures={data.measures} />
          {data.measures.versus_previous ? null : (
            <p className="muted small">No earlier completed run to compare with.</p>
          )}
          <h4>Share of voice</h4>
          <ShareOfVoice share={data.measures.share_of_voice} />
          <div className="form-row">
            <Sources title="Top cited domains" rows={data.measures.top_domains} own={own} url={false} />
            <Sources title="Top cited pages" rows={data.measures.top_pages} own={(key) => own(hostOf(key))} url />
          </div>
          {data.status === "completed" ? <ReportFiles kind="visibility" id={data.id} formats={["pdf", "csv"]} /> : null}
          {data.status === "completed" ? <CitedPagesSection runId={data.id} /> : null}
        </>
      ) : null}
    </section>
  );
};

const SERIES_CLASS: Record<Engine, string> = {
  chatgpt: "line-overall",
  claude: "line-seo",
  perplexity: "line-aeo",
  gemini: "line-geo",
};

const WIDTH = 600;
const HEIGHT = 200;
const LEFT = 58;
const RIGHT = 24;
const TOP = 10;
const BOTTOM = 34;

/** One rate per engine across runs: a line through the rates, a band through their intervals. */
const RateChart = ({
  runs,
  which,
  title,
}: {
  runs: readonly Run[];
  which: "mention_rate" | "citation_rate";
  title: string;
}) => {
  const times = runs.map((run) => Date.parse(run.completed_at ?? run.created_at));
  const x = timeScale(Math.min(...times), Math.max(...times), LEFT, WIDTH - RIGHT, 3);
  const y = (value: number) => HEIGHT - BOTTOM - value * (HEIGHT - TOP - BOTTOM);
  const engines = ENGINES.filter((engine) =>
    runs.some((run) => run.measures?.engines.some((e) => e.engine === engine)),
  );
  // each engine a few pixels to its own side, so equal rates do not hide one another
  const pointsOf = (engine: Engine, shift: number) =>
    runs.flatMap((run, index) => {
      const rate = run.measures?.engines.find((e) => e.engine === engine)?.[which];
      return rate && rate.rate !== null ? [{ t: x.at(times[index] ?? 0) + shift, rate }] : [];
    });
  const id = `chart-${which}`;
  return (
    <figure className="chart rate-chart">
      <h4>{title}</h4>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={id}>
        <title id={id}>
          {title} per engine over {count(runs.length, "run")}; the table below gives the numbers
        </title>
        {[0, 0.25, 0.5, 0.75, 1].map((level) => (
          <g key={level}>
            <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(level)} y2={y(level)} />
            <text className="axis" x={LEFT - 6} y={y(level) + 4} textAnchor="end">
              {level * 100}%
            </text>
          </g>
        ))}
        <line className="axis-line" x1={LEFT} x2={WIDTH - RIGHT} y1={y(0)} y2={y(0)} />
        {x.ticks.map((tick) => (
          <g key={tick.x}>
            <line className="axis-line" x1={tick.x} x2={tick.x} y1={y(0)} y2={y(0) + 5} />
            <text className="axis" x={tick.x} y={y(0) + 18} textAnchor={tick.anchor}>
              {tick.label}
            </text>
          </g>
        ))}
        {engines.map((engine, index) => {
          const points = pointsOf(engine, (index - (engines.length - 1) / 2) * 5);
          const band = [
            ...points.map((p) => `${p.t},${y(p.rate.high)}`),
            ...points.reverse().map((p) => `${p.t},${y(p.rate.low)}`),
          ].join(" ");
          points.reverse();
          return (
            <g key={engine} className={SERIES_CLASS[engine]}>
              {points.length > 1 ? <polygon className="rate-band" points={band} /> : null}
              {points.map((p) => (
                <line
                  key={`w${p.t}`}
                  className="rate-whisker"
                  x1={p.t}
                  x2={p.t}
                  y1={y(p.rate.low)}
                  y2={y(p.rate.high)}
                />
              ))}
              <polyline fill="none" points={points.map((p) => `${p.t},${y(p.rate.rate ?? 0)}`).join(" ")} />
              {points.map((p) => (
                <circle key={`d${p.t}`} cx={p.t} cy={y(p.rate.rate ?? 0)} r={3.5} />
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span className="legend">
          {engines.map((engine) => (
            <span key={engine} className={`legend-item ${SERIES_CLASS[engine]}`}>
              {ENGINE_NAME[engine]}
            </span>
          ))}
          <span className="muted small">the shaded band: the 95 % interval</span>
        </span>
      </figcaption>
    </figure>
  );
};

/** The site's completed runs on a time axis, and the same numbers as a table. */
const OverTime = ({ runs }: { runs: readonly Run[] }) => {
  const measured = runs.filter((run) => run.measures && run.status === "completed");
  if (measured.length === 0) return <p className="muted">No completed run yet.</p>;
  return (
    <>
      <RateChart runs={measured} which="mention_rate" title="Brand mentioned" />
      <RateChart runs={measured} which="citation_rate" title="Brand cited" />
      <details>
        <summary>The runs as a table</summary>
        <TableWrap label="Rates per run">
          <table>
            <caption>Rates per run and engine, with their 95 % intervals</caption>
            <thead>
              <tr>
                <th scope="col">Run ended</th>
                <th scope="col">Engine</th>
                <th scope="col">Brand mentioned</th>
                <th scope="col">Brand cited</th>
              </tr>
            </thead>
            <tbody>
              {measured.map((run) => (
                <Fragment key={run.id}>
                  {run.measures?.engines.map((engine) => (
                    <tr key={engine.engine}>
                      <td className="nowrap">{formatDateTime(run.completed_at ?? run.created_at)}</td>
                      <th scope="row">{ENGINE_NAME[engine.engine]}</th>
                      <td>{rateText(engine.mention_rate)}</td>
                      <td>{rateText(engine.citation_rate)}</td>
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </>
  );
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The answer's text with each naming of the brand in <mark>. */
export const markBrand = (text: string, names: readonly string[]): ReactNode[] => {
  const words = names.filter((name) => name.trim().length > 0).map(escapeRegExp);
  if (words.length === 0) return [text];
  const pattern = new RegExp(`(${words.join("|")})`, "gi");
  return text.split(pattern).map((part, index) =>
    // split with one capture group puts each match at an odd index
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
    index % 2 === 1 ? <mark key={index}>{part}</mark> : <Fragment key={index}>{part}</Fragment>,
  );
};

const Answer = ({
  sample,
  brandNames,
  brandDomains,
}: {
  sample: Sample;
  brandNames: readonly string[];
  brandDomains: readonly string[];
}) => {
  const names = [
    ...new Set([
      ...brandNames,
      ...sample.mentions.filter((mention) => mention.kind === "brand").map((mention) => mention.entity),
    ]),
  ].sort((a, b) => b.length - a.length);
  return (
    <article className="answer" aria-labelledby={`answer-${sample.id}`}>
      <h4 id={`answer-${sample.id}`}>
        {ENGINE_NAME[sample.engine]}, sample {sample.sample_index + 1}: “{sample.prompt}”
      </h4>
      <p className="muted small">
        <StatusBadge status={sample.status} /> {sample.model ?? ""}
        {sample.brand_mentioned ? " · brand mentioned" : sample.status === "completed" ? " · brand not mentioned" : ""}
        {sample.brand_cited ? " · brand cited" : ""}
        {sample.error_kind ? ` · ${sample.error_kind}` : ""}
      </p>
      {sample.answer ? <div className="answer-text">{markBrand(sample.answer, names)}</div> : null}
      {sample.citations.length > 0 ? (
        <>
          <h5>Citations</h5>
          <ol className="sources">
            {sample.citations.map((citation) => {
              const own = citation.url === sample.cited_page || ownDomain(citation.domain, brandDomains);
              return (
                <li key={`${citation.position}-${citation.url}`} className={own ? "own" : undefined}>
                  <span className="url">{citation.url}</span>
                  {citation.title ? <span className="muted"> — {citation.title}</span> : null}
                  {own ? <span className="badge badge-own">the brand's page</span> : null}
                </li>
              );
            })}
          </ol>
        </>
      ) : null}
    </article>
  );
};

/** A run's answers, a page at a time, of one engine or all. */
const Answers = ({
  run,
  page,
  engine,
  hrefFor,
  brandNames,
  brandDomains,
}: {
  run: Run;
  page: number;
  engine: Engine | null;
  hrefFor: (page: number, engine: Engine | null) => string;
  brandNames: readonly string[];
  brandDomains: readonly string[];
}) => {
  const api = useApi();
  const samples = useLoad(async () => {
    const result = await api.GET("/api/v1/visibility/runs/{id}/samples", {
      params: {
        path: { id: run.id },
        query: { page, limit: SAMPLE_PAGE, ...(engine ? { engine } : {}) },
      },
    });
    const items = dataOf(result);
    // the route also answers CSV (`format=csv`); asked without it, the answer is the JSON page
    const body = typeof result.data === "object" ? result.data : undefined;
    return { items, meta: body?.meta ?? { page, limit: SAMPLE_PAGE, total: items.length, hasMore: false } };
  }, [api, run.id, page, engine]);
  const list = samples.data;
  return (
    <>
      <nav className="engine-filter" aria-label="Answers of one engine">
        <Link to={hrefFor(1, null)} aria-current={engine === null ? "page" : undefined}>
          All engines
        </Link>
        {run.engines.map((name) => (
          <Link key={name} to={hrefFor(1, name)} aria-current={engine === name ? "page" : undefined}>
            {ENGINE_NAME[name]}
          </Link>
        ))}
      </nav>
      {samples.state === "error" && !list ? (
        <Problem problem={samples.problem} retry={() => void samples.reload()} />
      ) : null}
      {!list && samples.state !== "error" ? <Loading what="the answers" /> : null}
      {list && list.items.length === 0 ? <Empty title="No answers on this page." /> : null}
      {list?.items.map((sample) => (
        <Answer key={sample.id} sample={sample} brandNames={brandNames} brandDomains={brandDomains} />
      ))}
      {list ? <Pager {...list.meta} hrefFor={(n) => hrefFor(n, engine)} /> : null}
    </>
  );
};

const START_ERRORS: Record<number, string> = {
  409: "A run of this site is already under way.",
  400: "Nothing to run yet.",
  403: "The run cannot start.",
};

/** The Results part of the site's AI visibility page. */
export const VisibilityResults = ({
  siteId,
  search,
  hrefWith,
}: {
  siteId: string;
  search: URLSearchParams;
  hrefWith: (changes: Record<string, string | null>) => string;
}) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [version, setVersion] = useState(0);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const profile = useLoad(
    async () => dataOf(await api.GET("/api/v1/sites/{id}/visibility", { params: { path: { id: siteId } } })),
    [api, siteId],
  );
  const runs = useLoad(async () => {
    const list = dataOf(
      await api.GET("/api/v1/sites/{id}/visibility/runs", {
        params: { path: { id: siteId }, query: { page: 1, limit: HISTORY_RUNS } },
      }),
    );
    // each completed run's measures, oldest first on the time axis
    const detailed = await Promise.all(
      list
        .filter((run) => run.status === "completed")
        .map(async (run) =>
          dataOf(await api.GET("/api/v1/visibility/runs/{id}", { params: { path: { id: run.id } } })),
        ),
    );
    return { latest: list[0] ?? null, measured: detailed.reverse() };
  }, [api, siteId, version]);
  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      dataOf(await api.POST("/api/v1/sites/{id}/visibility/runs", { params: { path: { id: siteId } } }));
      setVersion((n) => n + 1);
    } catch (failure) {
      const problem = asProblem(failure);
      const lead = START_ERRORS[problem.status];
      setError(`${lead ? `${lead} ` : ""}${problemSentence(problem.message, problem.hint)}`);
    } finally {
      setStarting(false);
    }
  };
  const brandNames = profile.data?.brand_names ?? [];
  const brandDomains = profile.data?.brand_domains ?? [];
  const data = runs.data;
  const latest = data?.latest ?? null;
  const answersPage = Math.max(1, Math.floor(Number(search.get("answers"))) || 1);
  const engineParam = search.get("engine");
  const engine = ENGINES.find((name) => name === engineParam) ?? null;
  const answered = data?.measured.at(-1) ?? null;
  return (
    <>
      {canWrite ? (
        <div className="run-now">
          <button
            type="button"
            className="button primary"
            onClick={() => void start()}
            disabled={starting || (latest !== null && underWay(latest))}
          >
            {starting ? "Starting…" : "Run now"}
          </button>
          <span className="muted small">
            Asks every prompt of each engine of the profile, as many times as the profile says.
          </span>
        </div>
      ) : null}
      <FormError error={error} />
      {runs.state === "error" && !data ? <Problem problem={runs.problem} retry={() => void runs.reload()} /> : null}
      {!data && runs.state !== "error" ? <Loading what="the runs" /> : null}
      {data && !latest ? (
        <Empty title="No run yet.">
          <p>A run asks the engines the site's prompts and measures how often they name and cite the brand.</p>
        </Empty>
      ) : null}
      {latest ? (
        <LatestRun
          key={latest.id}
          runId={latest.id}
          brandDomains={brandDomains}
          onEnded={() => {
            if (underWay(latest)) setVersion((n) => n + 1);
          }}
        />
      ) : null}
      {data && data.measured.length > 0 ? (
        <section aria-labelledby="over-time-title">
          <h3 id="over-time-title">Over time</h3>
          <OverTime runs={data.measured} />
        </section>
      ) : null}
      {answered ? (
        <section aria-labelledby="answers-title" id="answers">
          <h3 id="answers-title">Answers of the run started {formatDateTime(answered.created_at)}</h3>
          <Answers
            run={answered}
            page={answersPage}
            engine={engine}
            brandNames={brandNames}
            brandDomains={brandDomains}
            hrefFor={(page, name) => hrefWith({ answers: page > 1 ? String(page) : null, engine: name })}
          />
        </section>
      ) : null}
    </>
  );
};
