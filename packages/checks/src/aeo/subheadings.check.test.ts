import { judge } from "../fixture";
import { subheadings } from "./subheadings.check";

const PROSE =
  "<p>This paragraph holds enough plain prose for the content extractor to treat it as the article, which it does for text of some length and with commas, like this one here.</p>".repeat(
    3,
  );
const main = (inner: string) =>
  `<html><body><header><h2>Outside</h2></header><main>${PROSE}${inner}${PROSE}</main><footer><h2>Footer</h2></footer></body></html>`;

describe("subheadings", () => {
  it("passes with three h2/h3 in the main content", () => {
    const verdict = judge(subheadings, main("<h2>A</h2><p>x</p><h3>B</h3><p>y</p><h2>C</h2>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The main content has 3 h2/h3 subheadings.");
  });

  it("warns with one or two, not counting those outside the main content or empty", () => {
    const verdict = judge(subheadings, main("<h2>A</h2><h3> </h3><p>x</p>"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe("The main content has 1 h2/h3 subheading.");
  });

  it("fails with none", () => {
    const verdict = judge(subheadings, main("<h4>Small</h4><p>x</p>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/h2\/h3/);
  });
});
