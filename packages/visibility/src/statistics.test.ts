import fc from "fast-check";
import { compareRates, fisherExactTwoSided, wilsonInterval, Z_95 } from "./statistics";

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

describe("Wilson score interval", () => {
  // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17 (1998) 857–872, Table I, method 3 (score, no correction)
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1],
  ])("%i of %i gives Newcombe's published 95 %% interval", (k, n, lower, upper) => {
    const interval = wilsonInterval(k, n);
    expect(round4(interval.lower)).toBe(lower);
    expect(round4(interval.upper)).toBe(upper);
  });

  // the same formula's values as listed for n = 10 in Brown, Cai and DasGupta, "Interval estimation
  // for a binomial proportion", Statistical Science 16 (2001), and any Wilson calculator
  it.each([
    [8, 10, 0.4902, 0.9433],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
  ])("%i of %i gives [%f, %f]", (k, n, lower, upper) => {
    const interval = wilsonInterval(k, n);
    expect(round4(interval.lower)).toBe(lower);
    expect(round4(interval.upper)).toBe(upper);
    expect(interval.estimate).toBe(k / n);
  });

  it("takes z: 99 % (z = 2.5758) is wider than 95 %, and 95 % is the default", () => {
    expect(wilsonInterval(8, 10, Z_95)).toEqual(wilsonInterval(8, 10));
    const wide = wilsonInterval(8, 10, 2.5758293035489);
    expect(wide.lower).toBeLessThan(0.4902);
    // by hand: z² = 6.6349, centre = (0.8 + 0.33174) / 1.66349 = 0.68034,
    // half-width = 2.5758 · √(0.016 + 0.016587) / 1.66349 = 0.27952
    expect(round4(wide.lower)).toBe(0.4008);
    expect(round4(wide.upper)).toBe(0.9599);
    expect(wide.upper).toBeGreaterThan(0.9433);
  });

  it("with no samples says nothing: the whole range, no estimate", () => {
    expect(wilsonInterval(0, 0)).toEqual({ successes: 0, n: 0, estimate: null, lower: 0, upper: 1 });
  });

  it("refuses counts that are no counts", () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(RangeError);
  });

  const counts = fc
    .integer({ min: 1, max: 2000 })
    .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it("contains the point estimate and lies within [0, 1]", () => {
    fc.assert(
      fc.property(counts, fc.double({ min: 0.5, max: 4, noNaN: true }), ([k, n], z) => {
        const { lower, upper, estimate } = wilsonInterval(k, n, z);
        expect(lower).toBeGreaterThanOrEqual(0);
        expect(upper).toBeLessThanOrEqual(1);
        expect(lower).toBeLessThanOrEqual(estimate ?? Number.NaN);
        expect(upper).toBeGreaterThanOrEqual(estimate ?? Number.NaN);
      }),
    );
  });

  it("narrows as the samples grow at the same rate", () => {
    fc.assert(
      fc.property(counts, fc.integer({ min: 2, max: 10 }), ([k, n], factor) => {
        const small = wilsonInterval(k, n);
        const large = wilsonInterval(k * factor, n * factor);
        expect(large.upper - large.lower).toBeLessThan(small.upper - small.lower);
      }),
    );
  });

  it("is symmetric under complement: the failures' interval mirrors the successes'", () => {
    fc.assert(
      fc.property(counts, ([k, n]) => {
        const hits = wilsonInterval(k, n);
        const misses = wilsonInterval(n - k, n);
        expect(misses.lower).toBeCloseTo(1 - hits.upper, 12);
        expect(misses.upper).toBeCloseTo(1 - hits.lower, 12);
      }),
    );
  });
});

describe("Fisher's exact test, two-sided", () => {
  it("gives the lady tasting tea's p = 0.4857 (Fisher, The Design of Experiments, 1935; R: fisher.test(TeaTasting))", () => {
    expect(round4(fisherExactTwoSided(3, 1, 1, 3))).toBe(0.4857);
  });

  it("gives p = 0.002759 for the dieting table [[1, 9], [11, 3]] (Wikipedia, Fisher's exact test)", () => {
    expect(fisherExactTwoSided(1, 9, 11, 3)).toBeCloseTo(0.002759, 6);
  });

  it("gives 2/252 for the most extreme 5 + 5 table", () => {
    expect(fisherExactTwoSided(0, 5, 5, 0)).toBeCloseTo(2 / 252, 12);
  });

  it("is a probability, and the same whichever run is written first", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 4, maxLength: 4 }),
        ([a = 0, b = 0, c = 0, d = 0]) => {
          const p = fisherExactTwoSided(a, b, c, d);
          expect(p).toBeGreaterThan(0);
          expect(p).toBeLessThanOrEqual(1);
          expect(fisherExactTwoSided(c, d, a, b)).toBeCloseTo(p, 10);
        },
      ),
    );
  });
});

describe("a change between two runs", () => {
  it("calls 10 % → 60 % over 100 answers each a change", () => {
    const change = compareRates({ successes: 10, n: 100 }, { successes: 60, n: 100 });
    expect(change.test).toBe("fisher-exact-two-sided");
    expect(change.alpha).toBe(0.05);
    expect(change.changed).toBe(true);
    expect(change.pValue).toBeLessThan(1e-10);
    expect(change.difference).toBeCloseTo(0.5, 12);
  });

  it("does not call 1 of 3 → 3 of 3 a change: three samples cannot show one", () => {
    const change = compareRates({ successes: 1, n: 3 }, { successes: 3, n: 3 });
    expect(change.changed).toBe(false);
    expect(change.pValue).toBeCloseTo(0.4, 12);
  });

  it("identical runs are no change", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([k, n]) => {
          const change = compareRates({ successes: k, n }, { successes: k, n });
          expect(change.changed).toBe(false);
          expect(change.pValue).toBeCloseTo(1, 9);
        },
      ),
    );
  });

  it("holds its level: on runs drawn from one unchanging rate, at most alpha of them are called changes", () => {
    // a fixed-seed generator, so the count is the same every time
    let state = 20261129;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const draw = (n: number, rate: number) => Array.from({ length: n }, random).filter((u) => u < rate).length;
    const pairs = 2000;
    let called = 0;
    for (let i = 0; i < pairs; i++)
      if (compareRates({ successes: draw(30, 0.4), n: 30 }, { successes: draw(30, 0.4), n: 30 }).changed) called++;
    expect(called / pairs).toBeLessThanOrEqual(0.05);
  });

  it("with no samples on one side reports no change", () => {
    expect(compareRates({ successes: 0, n: 0 }, { successes: 3, n: 3 })).toMatchObject({
      pValue: 1,
      changed: false,
      difference: null,
    });
  });

  it("takes another level", () => {
    const change = compareRates({ successes: 2, n: 20 }, { successes: 8, n: 20 }, { alpha: 0.1 });
    expect(change.pValue).toBeGreaterThan(0.05);
    expect(change.pValue).toBeLessThan(0.1);
    expect(change.changed).toBe(true);
    expect(() => compareRates({ successes: 1, n: 2 }, { successes: 1, n: 2 }, { alpha: 1 })).toThrow(RangeError);
  });
});
