import { compareRates, type Interval } from "./statistics";

/** A rate as the API shows it: successes of n, the estimate and its 95 % Wilson interval. */
export type RateView = { successes: number; n: number; rate: number | null; low: number; high: number };

export const rateView = (interval: Interval): RateView => ({
  successes: interval.successes,
  n: interval.n,
  rate: interval.estimate,
  low: interval.lower,
  high: interval.upper,
});

export type RateComparison = {
  previous: RateView;
  current: RateView;
  p_value: number;
  changed: boolean;
  direction: "up" | "down" | "flat";
};

/** One rate before and after, by Fisher's exact test at alpha 0.05: `changed` only when p < 0.05. */
export const compareRateCounts = (
  before: { successes: number; n: number },
  after: { successes: number; n: number },
): RateComparison => {
  const change = compareRates(before, after, { alpha: 0.05 });
  return {
    previous: rateView(change.before),
    current: rateView(change.after),
    p_value: change.pValue,
    changed: change.changed,
    direction:
      !change.changed || change.difference === null || change.difference === 0
        ? "flat"
        : change.difference > 0
          ? "up"
          : "down",
  };
};

/** What a run's comparison needs of each answered sample. */
export type AnsweredRate = { engine: string; brandMentioned: boolean | null; brandCited: boolean | null };

export type EngineComparison<E extends string = string> = {
  engine: E;
  mention: RateComparison;
  citation: RateComparison;
};

/**
 * A run's answered samples against the previous completed run's, per engine of the run: the
 * mention rate and the citation rate, each tested. The one comparison the API shows as
 * `versus_previous` and alerts are raised from.
 */
export const versusPrevious = <E extends string>(
  engines: readonly E[],
  earlier: readonly AnsweredRate[],
  answered: readonly AnsweredRate[],
): EngineComparison<E>[] => {
  const count = (rows: readonly AnsweredRate[], engine: string, key: "brandMentioned" | "brandCited") => {
    const mine = rows.filter((s) => s.engine === engine);
    return { successes: mine.filter((s) => s[key] === true).length, n: mine.length };
  };
  return engines.map((engine) => ({
    engine,
    mention: compareRateCounts(count(earlier, engine, "brandMentioned"), count(answered, engine, "brandMentioned")),
    citation: compareRateCounts(count(earlier, engine, "brandCited"), count(answered, engine, "brandCited")),
  }));
};
