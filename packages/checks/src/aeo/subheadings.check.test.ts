import { judge } from "../fixture";
import { subheadings } from "./subheadings.check";

const PROSE =
  "<p>This paragraph holds enough plain prose for the content extractor to treat it as the article, which it does for text of some length and with commas, like this one here.</p>".repeat(
    3,
  );
const main = (inner: string) =>
  `<html><body><header><h2>Outside</h2></header><main>${PROSE}${inner}${PROSE}</main><footer><h2>Footer</h2></footer></body></html>`;

describe("subheadings", () => {
  it("passes with three h2/h3 in the main content, naming them", () => {
    const verdict = judge(subheadings, main("<h2>A</h2><p>x</p><h3>B</h3><p>y</p><h2>C</h2>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe('The main content has 3 h2/h3 subheadings: h2 "A", h3 "B", h2 "C".');
  });

  it("warns with one or two, not counting those outside the main content or empty", () => {
    const verdict = judge(subheadings, main("<h2>A</h2><h3> </h3><p>x</p>"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/^The main content's \d+ words have only one h2\/h3 subheading: h2 "A"\.$/);
  });

  it("fails with none", () => {
    const verdict = judge(subheadings, main("<h4>Small</h4><p>x</p>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/h2\/h3/);
  });

  it("does not count a subscription widget's headings inside the article, and says so", () => {
    const widget = `<div class="newsletter-wrapper"><p>Sign up for our weekly letter.</p><div><h2>Monthly</h2><p>$7 a month</p></div><div><h2>Annual</h2><p>$70 a year</p></div><div><h2>Corporate</h2><p>$60 a person</p></div></div>`;
    const verdict = judge(subheadings, main(widget));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /Not counted, as not the content's: "Monthly", "Annual", "Corporate" \(a "newsletter" block\)\./,
    );
  });

  it("does not count a heading over nothing or over links only", () => {
    const verdict = judge(
      subheadings,
      main('<h2>Steps</h2><p>x</p><section id="FeaturedTombstone"><h2>Featured</h2></section>'),
    );
    expect(verdict.description).toMatch(/only one h2\/h3 subheading: h2 "Steps"/);
    const links = judge(
      subheadings,
      main(
        '<h2>Steps</h2><p>x</p><h2>More like this</h2><ul><li><a href="/a">A story</a></li></ul><h2>Next</h2><p>y</p>',
      ),
    );
    expect(links.description).toMatch(
      /only two h2\/h3 subheadings: h2 "Steps", h2 "Next"\. Not counted, as not the content's: "More like this" \(no text but links follows it\)\./,
    );
  });
});
