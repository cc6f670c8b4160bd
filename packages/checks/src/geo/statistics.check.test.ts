import { judge } from "../fixture";
import { statistics } from "./statistics.check";

const article = (inner: string) =>
  `<html><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

describe("statistics", () => {
  it("passes with three or more quantitative facts", () => {
    const verdict = judge(
      statistics,
      article("<p>Sales rose 42% to $3.5 million in 2025, across 12 km of shelf space.</p>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/4 quantitative facts \("42%", "\$3\.5 million", "2025", "12 km"\)/);
  });

  it("counts grouped thousands and multipliers, each distinct fact once", () => {
    const verdict = judge(
      statistics,
      article("<p>We served 3,400 schools, 3x more than before; 3,400 schools is a lot.</p>"),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/only 2 quantitative facts/);
  });

  it("warns with one or two", () => {
    const verdict = judge(statistics, article("<p>Sales rose 42% last spring, which pleased everyone involved.</p>"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/only 1 quantitative fact \("42%"\)/);
  });

  it("fails without numbers, and list numbers are no facts", () => {
    const verdict = judge(statistics, article("<p>Step 1: mix. Step 2: bake, which pleased everyone involved.</p>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no numbers with a unit/);
  });
});
