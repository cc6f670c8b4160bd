import { useSyncExternalStore } from "react";
import { formatNumber } from "../format";
import { countTicks } from "./count-ticks";
import { timeScale } from "./history-chart";

export type Minute = { at: string; done: number; failed: number };

const HEIGHT = 200;
/** a phone draws the chart on a narrower canvas, so its text is not shrunk below reading size */
const NARROW = "(max-width: 640px)";

const useNarrow = () =>
  useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(NARROW).matches,
  );
const LEFT = 46;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 44;

/**
 * Scans finished in each minute of the last hour, oldest on the left, done and failed stacked:
 * a count axis on the left, the minutes' clock times below, each axis named, and a legend with
 * one entry per series.
 */
export const Throughput = ({ perMinute }: { perMinute: Minute[] }) => {
  const narrow = useNarrow();
  const canvasWidth = narrow ? 340 : 600;
  const busiest = Math.max(0, ...perMinute.map((minute) => minute.done + minute.failed));
  const ticks = countTicks(busiest);
  const yMax = ticks.at(-1) ?? 1;
  const plotWidth = canvasWidth - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const bar = plotWidth / Math.max(1, perMinute.length);
  const y = (count: number) => TOP + plotHeight - (count * plotHeight) / yMax;
  const first = Date.parse(perMinute[0]?.at ?? new Date().toISOString());
  const last = Date.parse(perMinute.at(-1)?.at ?? new Date().toISOString());
  // tick marks sit under the middle of the first and last bars
  const x = timeScale(first, last, LEFT + bar / 2, canvasWidth - RIGHT - bar / 2, narrow ? 3 : 5);
  const done = perMinute.reduce((sum, minute) => sum + minute.done, 0);
  const failed = perMinute.reduce((sum, minute) => sum + minute.failed, 0);
  return (
    <figure className="throughput">
      <svg className="bars" viewBox={`0 0 ${canvasWidth} ${HEIGHT}`} role="img" aria-labelledby="throughput-title">
        <title id="throughput-title">
          Scans finished per minute over the last hour: {formatNumber(done)} done and {formatNumber(failed)} failed, at
          most {formatNumber(busiest)} in one minute
        </title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="grid" x1={LEFT} x2={canvasWidth - RIGHT} y1={y(tick)} y2={y(tick)} />
            <text className="axis" x={LEFT - 6} y={y(tick) + 4} textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        {perMinute.map((minute, i) => {
          const left = LEFT + i * bar + 1;
          const width = Math.max(1, bar - 2);
          const doneTop = y(minute.done);
          const failedTop = y(minute.done + minute.failed);
          return (
            <g key={minute.at}>
              <rect className="done" x={left} y={doneTop} width={width} height={y(0) - doneTop} />
              <rect className="failed" x={left} y={failedTop} width={width} height={doneTop - failedTop} />
            </g>
          );
        })}
        <line className="axis-line" x1={LEFT} x2={canvasWidth - RIGHT} y1={y(0) + 0.5} y2={y(0) + 0.5} />
        <line className="axis-line" x1={LEFT - 0.5} x2={LEFT - 0.5} y1={TOP} y2={y(0)} />
        {x.ticks.map((tick) => (
          <g key={tick.x}>
            <line className="axis-line" x1={tick.x} x2={tick.x} y1={y(0)} y2={y(0) + 4} />
            <text className="axis" x={tick.x} y={y(0) + 16} textAnchor={tick.anchor}>
              {tick.label}
            </text>
          </g>
        ))}
        <text className="axis axis-title" x={LEFT + plotWidth / 2} y={HEIGHT - 6} textAnchor="middle">
          Minute finished (your time)
        </text>
        <text
          className="axis axis-title"
          transform={`translate(12 ${TOP + plotHeight / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          Scans per minute
        </text>
      </svg>
      <figcaption>
        <ul className="legend" aria-label="Legend">
          <li className="legend-item bar-done">Done: {formatNumber(done)}</li>
          <li className="legend-item bar-failed">Failed: {formatNumber(failed)}</li>
        </ul>
        <span className="muted small">Each bar is one minute of the last hour, now on the right.</span>
      </figcaption>
    </figure>
  );
};
