import { judge } from "../fixture";
import { anchorIds } from "./anchor-ids.check";

const page = (body: string) => `<html lang="en"><body>${body}</body></html>`;

describe("anchor-ids", () => {
  it("passes when most headings have ids, counting an id on the section they open or an anchor inside", () => {
    const verdict = judge(
      anchorIds,
      page('<h2 id="a">A</h2><section id="b"><h2>B</h2></section><h3><a name="c"></a>C</h3><h2>D</h2>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("3 of 4 h2/h3 headings have an id to link to.");
  });

  it("warns when only some do", () => {
    const verdict = judge(anchorIds, page('<h2 id="a">A</h2><h2>B</h2><h3>C</h3>'));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe("1 of 3 h2/h3 headings have an id to link to.");
  });

  it("fails when none do", () => {
    const verdict = judge(anchorIds, page('<h2>A</h2><h2 id=" ">B</h2>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/id="pricing"/);
  });

  it("skips without h2/h3 headings", () => {
    expect(judge(anchorIds, page("<h1>Title</h1><p>x</p>")).description).toBe("The page has no h2/h3 headings.");
  });
});
