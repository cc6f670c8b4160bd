import type { Grade } from "@scan/contract";

/** Lower bound (inclusive) of each grade, best first: docs/spec/public-scanning-api.md §3.2. */
const GRADE_FLOORS: ReadonlyArray<readonly [Grade, number]> = [
  ["A+", 95],
  ["A", 85],
  ["B+", 75],
  ["B", 65],
  ["C", 55],
  ["D", 40],
  ["F", 0],
];

export const gradeFor = (total: number): Grade => {
  if (!Number.isFinite(total) || total < 0 || total > 100) {
    throw new RangeError(`a total score is 0 to 100, got ${total}`);
  }
  for (const [grade, floor] of GRADE_FLOORS) {
    if (total >= floor) return grade;
  }
  return "F";
};
