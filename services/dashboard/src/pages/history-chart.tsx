import type { SiteHistoryEntry } from "@scan/client";
import { Grade } from "../components/ui";
import { formatDate } from "../format";

/**
 * The site's history drawn on a time axis: the site's own line from its audits alone (a scan
 * scores one page, not the site), and each scanned page's overall score on a line of its own.
 * Quick and full results never share a line: a quick one's scores are partial.
 */

export const SERIES = [
  { key: "overall", name: "Overall", className: "line-overall" },
  { key: "seo", name: "SEO", className: "line-seo" },
  { key: "aeo", name: "AEO", className: "line-aeo" },
  { key: "geo", name: "GEO", className: "line-geo" },
] as const;

export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const DAY_MS = 86_400_000;
export const timeOf = (entry: SiteHistoryEntry) => Date.parse(entry.completed_at);
const withSeconds = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const shortTime = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const shortDate = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });

/** A tick's text, as fine as the span needs: seconds within minutes, the hour within two days, else the day. */
const tickLabel = (span: number) => (time: number) =>
  span < 10 * 60_000 ? withSeconds.format(time) : span < 2 * DAY_MS ? shortTime.format(time) : shortDate.format(time);

/** Where a time falls across [left, right]: the middle when all results share one moment. */
export type TimeScale = {
  at: (time: number) => number;
  ticks: Array<{ x: number; label: string; anchor: "start" | "middle" | "end" }>;
};

export const timeScale = (from: number, to: number, left: number, right: number, tickCount: number): TimeScale => {
  const span = to - from;
  const at = (time: number) => (span <= 0 ? (left + right) / 2 : left + ((time - from) * (right - left)) / span);
  const label = tickLabel(span);
  if (span <= 0) return { at, ticks: [{ x: at(from), label: label(from), anchor: "middle" }] };
  const ticks: TimeScale["ticks"] = [];
  for (let i = 0; i < tickCount; i++) {
    const time = from + (i * span) / (tickCount - 1);
    const text = label(time);
    // two ticks that read the same say nothing more than one
    if (ticks.at(-1)?.label === text) continue;
    ticks.push({ x: at(time), label: text, anchor: i === 0 ? "start" : i === tickCount - 1 ? "end" : "middle" });
  }
  return { at, ticks };
};

/** The results of one mode in time order: the points one line joins. */
const byMode = (entries: readonly SiteHistoryEntry[]) =>
  (["full", "quick"] as const)
    .map((mode) => entries.filter((entry) => entry.mode === mode))
    .filter((line) => line.length > 0);

const WIDTH = 600;
const HEIGHT = 200;
const LEFT = 34;
const RIGHT = 14;
const TOP = 10;
const BOTTOM = 34;

/** The site's scores from its audits, on a time axis shared with the pages' lines. */
export const SiteChart = ({ audits, from, to }: { audits: readonly SiteHistoryEntry[]; from: number; to: number }) => {
  const x = timeScale(from, to, LEFT, WIDTH - RIGHT, 4);
  const y = (score: number) => HEIGHT - BOTTOM - (score * (HEIGHT - TOP - BOTTOM)) / 100;
  const lines = byMode(audits);
  const first = formatDate(audits[0]?.completed_at);
  const last = formatDate(audits.at(-1)?.completed_at);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="history-chart-title">
        <title id="history-chart-title">
          Site scores of {count(audits.length, "audit")}, from {first} to {last}
        </title>
        {[0, 25, 50, 75, 100].map((level) => (
          <g key={level}>
            <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(level)} y2={y(level)} />
            <text className="axis" x={LEFT - 6} y={y(level) + 4} textAnchor="end">
              {level}
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
        {lines.flatMap((line) =>
          SERIES.map((series) => (
            <polyline
              key={`${line[0]?.mode}-${series.key}`}
              className={`${series.className}${line[0]?.partial ? " quick-line" : ""}`}
              fill="none"
              points={line.map((entry) => `${x.at(timeOf(entry))},${y(entry.scores[series.key])}`).join(" ")}
            />
          )),
        )}
        {audits.map((entry) =>
          SERIES.map((series) => (
            <rect
              key={`${entry.id}-${series.key}`}
              className={`${series.className}${entry.partial ? " partial" : ""}`}
              x={x.at(timeOf(entry)) - 4.5}
              y={y(entry.scores[series.key]) - 4.5}
              width={9}
              height={9}
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
        <span className="legend">
          <span className="legend-mark">
            <svg viewBox="0 0 12 12" aria-hidden="true" className="mark">
              <rect className="line-overall" x={1.5} y={1.5} width={9} height={9} />
            </svg>
            full audit
          </span>
          <span className="legend-mark">
            <svg viewBox="0 0 12 12" aria-hidden="true" className="mark">
              <rect className="line-overall partial" x={1.5} y={1.5} width={9} height={9} />
            </svg>
            quick audit (partial scores; its own dashed line)
          </span>
        </span>
        <span className="muted small">
          The site's line comes from its audits only: {count(audits.length, "audit")}, {first} to {last}. Scans of
          single pages are below, a line per page.
        </span>
      </figcaption>
    </figure>
  );
};

const SPARK_WIDTH = 240;
const SPARK_HEIGHT = 44;

/** One page's overall score scan after scan, on the same time span as the site's chart. */
const PageLine = ({ scans, from, to }: { scans: readonly SiteHistoryEntry[]; from: number; to: number }) => {
  const x = timeScale(from, to, 6, SPARK_WIDTH - 6, 2);
  const y = (score: number) => SPARK_HEIGHT - 6 - (score * (SPARK_HEIGHT - 12)) / 100;
  const url = scans[0]?.url ?? "";
  const scores = scans.map((scan) => `${scan.scores.overall}${scan.partial ? " (quick)" : ""}`).join(", ");
  return (
    <svg
      className="page-line"
      viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
      role="img"
      aria-label={`Overall score of ${count(scans.length, "scan")} of ${url}, from ${formatDate(scans[0]?.completed_at)} to ${formatDate(scans.at(-1)?.completed_at)}: ${scores}`}
    >
      <line className="grid" x1={6} x2={SPARK_WIDTH - 6} y1={y(50)} y2={y(50)} />
      {byMode(scans).map((line) => (
        <polyline
          key={line[0]?.mode}
          className={`line-overall${line[0]?.partial ? " quick-line" : ""}`}
          fill="none"
          points={line.map((scan) => `${x.at(timeOf(scan))},${y(scan.scores.overall)}`).join(" ")}
        />
      ))}
      {scans.map((scan) => (
        <circle
          key={scan.id}
          className={`line-overall${scan.partial ? " partial" : ""}`}
          cx={x.at(timeOf(scan))}
          cy={y(scan.scores.overall)}
          r={3.5}
        />
      ))}
    </svg>
  );
};

/** The site's scanned pages, each on its own line: never averaged into the site's. */
export const PageScans = ({ scans, from, to }: { scans: readonly SiteHistoryEntry[]; from: number; to: number }) => {
  const byUrl = new Map<string, SiteHistoryEntry[]>();
  for (const scan of scans) byUrl.set(scan.url, [...(byUrl.get(scan.url) ?? []), scan]);
  // the page scanned most recently first
  const pages = [...byUrl.values()].sort(
    (a, b) => timeOf(b.at(-1) as SiteHistoryEntry) - timeOf(a.at(-1) as SiteHistoryEntry),
  );
  return (
    <section aria-labelledby="page-scans-title" className="page-scans">
      <h3 id="page-scans-title">Scans of single pages</h3>
      <p className="muted small">
        Each page's overall score, scan after scan, on the same time span as the site's chart (a hollow dot: a quick
        scan).
      </p>
      <ul className="page-lines">
        {pages.map((page) => {
          const latest = page.at(-1) as SiteHistoryEntry;
          return (
            <li key={latest.url}>
              <span className="url-line" title={latest.url}>
                {new URL(latest.url).pathname + new URL(latest.url).search}
              </span>
              <PageLine scans={page} from={from} to={to} />
              <span className="page-latest">
                <Grade grade={latest.grade} /> {latest.scores.overall}
                <span className="muted small"> · {count(page.length, "scan")}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
};
