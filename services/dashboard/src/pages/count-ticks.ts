/** Whole-number ticks from 0 to at least `top`: at most five, evenly spaced. */
export const countTicks = (top: number): number[] => {
  const step = Math.max(1, Math.ceil(Math.max(1, top) / 4));
  const ticks = [0];
  while ((ticks.at(-1) ?? 0) < top) ticks.push((ticks.at(-1) ?? 0) + step);
  if (ticks.length === 1) ticks.push(step);
  return ticks;
};
