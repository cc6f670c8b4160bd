import { judge, judgeCorpusPage } from "../fixture";
import { anchorIds } from "./anchor-ids.check";

const TEXT = "<p>Some words of the section, enough to be read as its text.</p>";
const page = (body: string) =>
  `<html lang="en"><head><title>Shipping guide</title></head><body><h1>Shipping guide</h1>${body}</body></html>`;

describe("anchor-ids", () => {
  it("passes when most headings have ids, counting an id on the section they open or an anchor inside", () => {
    const verdict = judge(
      anchorIds,
      page(
        `<h2 id="a">A</h2>${TEXT}<section id="b"><h2>B</h2>${TEXT}</section><h3><a name="c"></a>C</h3>${TEXT}<h2>D</h2>${TEXT}`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      '3 of 4 h2/h3 headings of the main content have an id to link to; without one: h2 "D".',
    );
  });

  it("proposes ids that keep a heading's kana whole and drop only Latin accents", () => {
    const verdict = judge(anchorIds, page(`<h2>デザインとパフォーマンス</h2>${TEXT}<h2>Café prices</h2>${TEXT}`));
    expect(verdict.fix).toContain('(<h2 id="デザインとパフォーマンス">, <h2 id="cafe-prices">)');
  });

  it("warns when only some do, naming those without and suggesting an id", () => {
    const verdict = judge(anchorIds, page(`<h2 id="a">A</h2>${TEXT}<h2>Shipping times</h2>${TEXT}<h3>C</h3>${TEXT}`));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe(
      '1 of 3 h2/h3 headings of the main content have an id to link to; without one: h2 "Shipping times", h3 "C".',
    );
    expect(verdict.fix).toMatch(
      /^Give h2 "Shipping times", h3 "C" an id each \(<h2 id="shipping-times">, <h3 id="c">\)/,
    );
  });

  it("never proposes an id the page already has, or one id for two headings", () => {
    const verdict = judge(
      anchorIds,
      page(`<div id="rates"></div><h2>Rates</h2>${TEXT}<h2>Rates</h2>${TEXT}<h2>Fees</h2>${TEXT}`),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toContain('(<h2 id="rates-2">, <h2 id="rates-3">, and so on, each id used once on the page)');
  });

  it("fails when none do", () => {
    const verdict = judge(anchorIds, page(`<h2>A</h2>${TEXT}<h2 id=" ">B</h2>${TEXT}`));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/id="a"/);
  });

  it("skips without h2/h3 headings in the main content", () => {
    expect(judge(anchorIds, page(TEXT)).description).toBe(
      "The main content has no h2/h3 heading, so no section to link to.",
    );
  });

  it("reads the main content only: sidebar teasers and widget headings are not its sections", () => {
    const verdict = judge(
      anchorIds,
      page(
        `<main><h2 id="a">A</h2>${TEXT.repeat(4)}<h2 id="b">B</h2>${TEXT.repeat(4)}</main><aside><h2>Teaser one</h2>${TEXT}<h2>Teaser two</h2>${TEXT}<h2>Teaser three</h2>${TEXT}</aside>`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("2 of 2 h2/h3 headings of the main content have an id to link to.");
  });

  it("judges the page's own heading, not Readability's copy of it: an id on the wrapper it rewrote still counts", () => {
    // the wrapper <div id> around each h2 becomes an empty <p id> before it in Readability's extraction
    const verdict = judge(
      anchorIds,
      page(
        `<article><div class="section" id="intro"><h2>Introduction</h2></div>${TEXT.repeat(3)}<div class="section" id="design"><h2>Design</h2></div>${TEXT.repeat(3)}</article>`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("2 of 2 h2/h3 headings of the main content have an id to link to.");
  });

  it("dropbox-blog: each h2 opens a <div id> (#introduction, #glossary...), so every section can be linked to", () => {
    const verdict = judgeCorpusPage(anchorIds, "dropbox-blog");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("12 of 12 h2/h3 headings of the main content have an id to link to.");
  });
});
