import { countTicks } from "./count-ticks";

describe("the Operations chart's count axis", () => {
  it("counts in ones up to four, from 0", () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4]);
  });

  it("reaches the busiest minute in at most five whole-number ticks", () => {
    for (const top of [5, 8, 13, 99, 1_000]) {
      const ticks = countTicks(top);
      expect(ticks[0]).toBe(0);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(top);
      expect(ticks.every((tick) => Number.isInteger(tick))).toBe(true);
    }
    expect(countTicks(8)).toEqual([0, 2, 4, 6, 8]);
  });
});
