import type { AnswerAnalysis } from "./analyse";

/** z for a two-sided 95 % interval: the standard normal's 97.5th percentile. */
export const Z_95 = 1.959963984540054;

export type Interval = {
  successes: number;
  n: number;
  /** successes / n; null when n is 0 */
  estimate: number | null;
  lower: number;
  upper: number;
};

const checkCounts = (successes: number, n: number) => {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a whole number ≥ 0, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n)
    throw new RangeError(`successes must be a whole number from 0 to n (${n}), got ${successes}`);
};

/**
 * The Wilson score interval for a proportion (Wilson 1927), without continuity correction:
 * centre (p̂ + z²/2n) / (1 + z²/n), half-width z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n). Unlike the
 * normal (Wald) interval it stays inside [0, 1] and is honest at 0 and n successes, which is
 * where a handful of samples per prompt lands. With no samples the whole range is returned.
 */
export const wilsonInterval = (successes: number, n: number, z: number = Z_95): Interval => {
  checkCounts(successes, n);
  if (!(z > 0)) throw new RangeError(`z must be positive, got ${z}`);
  if (n === 0) return { successes, n, estimate: null, lower: 0, upper: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // exact at the ends: the formula gives 0 and 1 there, up to rounding
  const lower = successes === 0 ? 0 : Math.max(0, centre - half);
  const upper = successes === n ? 1 : Math.min(1, centre + half);
  return { successes, n, estimate: p, lower, upper };
};

// ln Γ by the Lanczos approximation (g = 7, 9 terms), accurate to about 15 digits
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const logGamma = (x: number): number => {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0] ?? 0;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] ?? 0) / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
};
const logChoose = (n: number, k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);

/**
 * Fisher's exact test of a 2×2 table [[a, b], [c, d]], two-sided: the p-value is the total
 * probability, under fixed margins, of every table no more probable than the one observed
 * (the rule R's `fisher.test` uses, with the same relative tolerance of 10⁻⁷ for ties).
 */
export const fisherExactTwoSided = (a: number, b: number, c: number, d: number): number => {
  for (const cell of [a, b, c, d])
    if (!Number.isInteger(cell) || cell < 0) throw new RangeError(`table cells must be whole numbers ≥ 0, got ${cell}`);
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const total = row1 + row2;
  const logP = (x: number) => logChoose(row1, x) + logChoose(row2, col1 - x) - logChoose(total, col1);
  const observed = logP(a);
  const lo = Math.max(0, col1 - row2);
  const hi = Math.min(row1, col1);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    if (lp <= observed + Math.log1p(1e-7)) p += Math.exp(lp);
  }
  return Math.min(1, p);
};

export type RateCount = { successes: number; n: number };

export type RateChange = {
  test: "fisher-exact-two-sided";
  alpha: number;
  pValue: number;
  /** the rates differ at level alpha: pValue < alpha */
  changed: boolean;
  /** the later rate minus the earlier, null when either has no samples */
  difference: number | null;
  before: Interval;
  after: Interval;
};

/**
 * Whether a rate changed between two runs, by Fisher's exact test (two-sided) on
 * [[before successes, before failures], [after successes, after failures]] at level `alpha`
 * (default 0.05). Exact, so it holds its level with the few samples a prompt gets per run, where
 * a two-proportion z-test does not. A change is `changed` only when p < alpha.
 */
export const compareRates = (
  before: RateCount,
  after: RateCount,
  options: { alpha?: number; z?: number } = {},
): RateChange => {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie between 0 and 1, got ${alpha}`);
  const b = wilsonInterval(before.successes, before.n, options.z);
  const a = wilsonInterval(after.successes, after.n, options.z);
  const pValue =
    before.n === 0 || after.n === 0
      ? 1
      : fisherExactTwoSided(before.successes, before.n - before.successes, after.successes, after.n - after.successes);
  return {
    test: "fisher-exact-two-sided",
    alpha,
    pValue,
    changed: pValue < alpha,
    difference: a.estimate === null || b.estimate === null ? null : a.estimate - b.estimate,
    before: b,
    after: a,
  };
};

export type VoiceShare = {
  name: string;
  isBrand: boolean;
  /** answers that name it */
  answersMentioning: number;
  /** answersMentioning over the sum of answersMentioning across the brand and competitors; null when nobody is named */
  share: number | null;
};

/**
 * Share of voice over a set of answers: each company's answers-naming-it as a part of all
 * namings of the brand and its competitors. An answer naming three companies counts once for
 * each; how often one answer repeats a name does not count.
 */
export const shareOfVoice = (analyses: AnswerAnalysis[]): VoiceShare[] => {
  const first = analyses[0];
  if (!first) return [];
  const rows = [first.brand, ...first.competitors].map((entity, index) => ({
    name: entity.name,
    isBrand: index === 0,
    answersMentioning: analyses.filter((a) => (index === 0 ? a.brand : a.competitors[index - 1])?.mentioned).length,
  }));
  const total = rows.reduce((sum, row) => sum + row.answersMentioning, 0);
  return rows.map((row) => ({ ...row, share: total === 0 ? null : row.answersMentioning / total }));
};

/**
 * The mean 1-based position of first mention, over the answers that name the company (the
 * brand when `competitor` is not given); `answers` says how many that is, null mean when none.
 */
export const averagePosition = (
  analyses: AnswerAnalysis[],
  competitor?: string,
): { mean: number | null; answers: number } => {
  const positions = analyses.flatMap((a) => {
    const entity = competitor === undefined ? a.brand : a.competitors.find((c) => c.name === competitor);
    return entity?.position != null ? [entity.position] : [];
  });
  return {
    mean: positions.length === 0 ? null : positions.reduce((s, p) => s + p, 0) / positions.length,
    answers: positions.length,
  };
};

/** The mention and citation rates of the brand over a set of answers, each with its Wilson interval. */
export const brandRates = (analyses: AnswerAnalysis[], z: number = Z_95) => ({
  mentionRate: wilsonInterval(analyses.filter((a) => a.brand.mentioned).length, analyses.length, z),
  citationRate: wilsonInterval(analyses.filter((a) => a.brand.cited).length, analyses.length, z),
});
