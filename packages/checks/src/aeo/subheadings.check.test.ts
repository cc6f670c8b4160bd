import { judge, judgeCorpusPage } from "../fixture";
import { subheadings } from "./subheadings.check";

// 5 × 32 words on each side of the fixture: over the 300 words from which sections are asked for
const PROSE =
  "<p>This paragraph holds enough plain prose for the content extractor to treat it as the article, which it does for text of some length and with commas, like this one here.</p>".repeat(
    5,
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
    expect(verdict.description).toMatch(
      /^The main content's \d+ words have only one h2\/h3 subheading: h2 "A"; the longest section, .+, runs \d+ words\.$/,
    );
  });

  it("on a page with h2s, names its longest section instead of asking for h2 headings", () => {
    const long = "<p>More prose of the second part, which goes on for a while about the same thing.</p>".repeat(30);
    const verdict = judge(
      subheadings,
      `<html><body><main><h1>Guide</h1>${PROSE}<h2>Setup</h2><p>Short setup text.</p><h2>Usage</h2>${long}</main></body></html>`,
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/the longest section, under h2 "Usage", runs \d{3} words\./);
    expect(verdict.fix).toMatch(/^Split the \d{3} words under h2 "Usage" into sections of their own/);
    expect(verdict.fix).not.toMatch(/Divide/);
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
      main('<h2>Steps</h2><p>x</p><h2>Elsewhere</h2><ul><li><a href="/a">A story</a></li></ul><h2>Next</h2><p>y</p>'),
    );
    expect(links.description).toMatch(
      /only two h2\/h3 subheadings: h2 "Steps", h2 "Next"; the longest section, under h2 "Next", runs \d+ words\. Not counted, as not the content's: "Elsewhere" \(no text but links follows it\)\./,
    );
  });

  it("asks no sections of a short text: under 300 words, none skips and one or two pass", () => {
    const short = (inner: string) =>
      `<html><body><main><h1>Opening hours</h1><p>The shop opens at nine and closes at six, every day but Sunday, when it stays closed all day.</p>${inner}</main></body></html>`;
    const none = judge(subheadings, short(""));
    expect(none.status).toBe("skip");
    expect(none.description).toMatch(/^The main content's \d+ words are too short to need sections \(300 or more do\)/);
    const one = judge(subheadings, short("<h2>Holidays</h2><p>Closed on public holidays.</p>"));
    expect(one.status).toBe("pass");
    expect(one.description).toMatch(
      /^The main content's \d+ words have 1 h2\/h3 subheading, enough for a short text: h2 "Holidays"\./,
    );
  });

  it("counts a heading over a formula as a section: a formula is content, not a link", () => {
    const formula =
      '<mjx-container class="MathJax" jax="CHTML"><mjx-math><mjx-mi class="mjx-i"><mjx-c class="mjx-c1D465"></mjx-c></mjx-mi></mjx-math></mjx-container>';
    const verdict = judge(
      subheadings,
      main(`<h2>Lorenz</h2>${formula}<h2>Cauchy</h2><math><mi>x</mi></math><h2>Words</h2><p>x</p>`),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /^The main content has 3 h2\/h3 subheadings: h2 "Lorenz", h2 "Cauchy", h2 "Words"\./,
    );
  });

  it.each([
    // rtl-1 is lorem ipsum: content-depth reports the placeholder, the content checks skip
    ["rtl-1", "skip", /^Not judged: the main content is a placeholder \(lorem ipsum\)/],
    ["daringfireball-1", "pass", /^The main content's \d+ words have 2 h2\/h3 subheadings, enough for a short text/],
    ["mathjax", "pass", /"The Lorenz Equations"/],
  ])("%s: a short page is judged as short", (name, status, description) => {
    const verdict = judgeCorpusPage(subheadings, name);
    expect(verdict.status).toBe(status);
    expect(verdict.description).toMatch(description);
  });

  it("does not count a widget's title as a section, whatever its markup", () => {
    const verdict = judge(
      subheadings,
      main(
        "<h2>Steps</h2><p>x</p><h2>Related Searches</h2><p>Promoted by a network</p><h2>You might also like:</h2><p>y</p><h2>Related work</h2><p>z</p>",
      ),
    );
    expect(verdict.description).toMatch(
      /only two h2\/h3 subheadings: h2 "Steps", h2 "Related work"; the longest section, under h2 "Related work", runs \d+ words\. Not counted, as not the content's: "Related Searches", "You might also like:" \(a widget's title\)\./,
    );
  });

  const withDek = (dek: string, before = "") =>
    `<html lang="en"><body><article><h1>Snopes writer asks about Trump supporters</h1>${before}<p class="byline">By Jane Doe</p>${dek}${PROSE}<h2>What he said</h2>${PROSE}<h2>What came next</h2>${PROSE}</article></body></html>`;
  const DEK = "<h2>The fact checker posted to Twitter asking if there were “any un-angry Trump supporters?”</h2>";

  it("takes a sentence set as a heading right under the h1 for the standfirst, not a section", () => {
    const verdict = judge(subheadings, withDek(DEK));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(
      /only two h2\/h3 subheadings: h2 "What he said", h2 "What came next"; the longest section, before the first subheading \(h2 "What he said"\), runs \d+ words\. Not counted, as not the content's: "The fact checker posted to Twitter aski…" \(the standfirst under the h1: a summary, not a section\)\.$/,
    );
  });

  it("keeps as a section a short heading, a question, or a heading after the text has begun", () => {
    expect(judge(subheadings, withDek("<h2>Background</h2>")).status).toBe("pass");
    const question = "<h2>What should I do if my parcel has not arrived after ten working days?</h2>";
    expect(judge(subheadings, withDek(question)).status).toBe("pass");
    expect(judge(subheadings, withDek(DEK, PROSE)).status).toBe("pass");
  });

  it('breitbart: the standfirst h2 under the h1 heads no section of the 303-word report (a photo credit "WATSON/AFP/Getty" is three words)', () => {
    const verdict = judgeCorpusPage(subheadings, "breitbart");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      "The main content's 303 words run under no h2/h3 subheading. Not counted, as not the content's: \"Snopes fact checker and staff writer Da…\" (the standfirst under the h1: a summary, not a section).",
    );
  });
});

describe("subheadings: where sections could begin", () => {
  it("names the paragraphs reached about every 300 words", () => {
    const paragraph = (opening: string) => `<p>${opening} ${"and the text goes on about it at length ".repeat(15)}</p>`;
    const body = ["Alpha begins", "Bravo continues", "Charlie follows", "Delta arrives", "Echo answers", "Foxtrot ends"]
      .map(paragraph)
      .join("");
    const verdict = judge(subheadings, `<html><body><main><h1>Long text</h1>${body}</main></body></html>`);
    expect(verdict.status).toBe("fail");
    // 137 words a paragraph: the fourth and the seventh... begin past each 300 words
    expect(verdict.fix).toMatch(/the paragraph beginning “Delta arrives/);
  });
});
