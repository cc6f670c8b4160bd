import { judge } from "../fixture";
import { headingOrder } from "./heading-order.check";

const body = (content: string) => `<html><head></head><body>${content}</body></html>`;

describe("heading-order", () => {
  it("passes when levels go down one at a time and back up freely", () => {
    const verdict = judge(headingOrder, body("<h1>A</h1><h2>B</h2><h3>C</h3><h2>D</h2><h3>E</h3><h4>F</h4><h2>G</h2>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("7 headings");
  });

  it("lets the first heading be any level", () => {
    expect(judge(headingOrder, body("<h2>A</h2><h3>B</h3>")).status).toBe("pass");
  });

  it("fails when a level is skipped", () => {
    const verdict = judge(headingOrder, body("<h1>A</h1><h3>Details</h3>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('h1 → h3 ("Details")');
  });

  it("ignores empty headings", () => {
    expect(judge(headingOrder, body("<h1>A</h1><h3></h3><h2>B</h2>")).status).toBe("pass");
  });

  it("skips without headings", () => {
    expect(judge(headingOrder, body("<p>text</p>")).status).toBe("skip");
  });
});
