import { gradeFor } from "./grade";

describe("gradeFor", () => {
  it.each([
    [100, "A+"],
    [95, "A+"],
    [94, "A"],
    [85, "A"],
    [84, "B+"],
    [75, "B+"],
    [74, "B"],
    [65, "B"],
    [64, "C"],
    [55, "C"],
    [54, "D"],
    [40, "D"],
    [39, "F"],
    [0, "F"],
  ])("total %i is %s", (total, grade) => {
    expect(gradeFor(total)).toBe(grade);
  });

  it.each([-1, 101, Number.NaN])("refuses %p", (total) => {
    expect(() => gradeFor(total)).toThrow(RangeError);
  });
});
