import { contentDepth } from "../aeo/content-depth.check";
import { judge, judgeCorpusPage } from "../fixture";
import { statistics } from "./statistics.check";

const article = (inner: string, lang = "") =>
  `<html${lang ? ` lang="${lang}"` : ""}><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

describe("statistics", () => {
  it("passes with three or more quantitative facts", () => {
    const verdict = judge(
      statistics,
      article("<p>Sales rose 42% to $3.5 million in 2025, across 12 km of shelf space.</p>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/3 quantitative facts \("42%", "\$3\.5 million", "12 km"\)/);
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
    expect(verdict.description).toMatch(/state no figure/);
  });

  it("counts no bare year and nothing in code", () => {
    const verdict = judge(
      statistics,
      article(
        "<p>Founded in 1998, renamed in 2004 and sold in 2019.</p><pre>echo $0 $1 costs 42% 3 ms</pre><p>Run <code>$0</code>.</p>",
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/^The main content's \d+ words state no figure/);
  });

  it("counts numbers in words, ratios and fractions, in several languages", () => {
    const english = judge(
      statistics,
      article("<p>Three million people voted; one in five stayed home, and two-thirds of them were under forty.</p>"),
    );
    expect(english.description).toMatch(/3 quantitative facts \("Three million", "one in five", "two-thirds"\)/);
    const french = judge(
      statistics,
      article("<p>Deux millions de personnes, trois jours de grève et dix pour cent de hausse.</p>"),
    );
    expect(french.description).toMatch(/"Deux millions", "trois jours", "dix pour cent"/);
    const german = judge(
      statistics,
      article("<p>Zwei Millionen Menschen warteten fünf Stunden, zwölf Prozent mehr.</p>"),
    );
    expect(german.status).toBe("pass");
  });

  it("v8-blog: $0 and $1 in its code blocks are no amounts", () => {
    const verdict = judgeCorpusPage(statistics, "v8-blog");
    expect(verdict.description).not.toMatch(/"\$0"|"\$1"/);
    expect(verdict.status).toBe("warn");
  });

  it("takes a number word set as a name for a name: Ninety Mile Beach, Three Rivers, the Seven Seas", () => {
    const verdict = judge(
      statistics,
      article(
        "<p>Pygmy whales stranded on Ninety Mile beach and near Three Rivers, and sailors of the Seven Seas came to help.</p>",
      ),
    );
    expect(verdict.status).toBe("fail");
    // German capitalises every noun: there the capitals say nothing
    const german = judge(statistics, article("<p>Zwei Millionen Menschen warteten.</p>", "de"));
    expect(german.description).toMatch(/"Zwei Millionen"/);
  });

  it("guardian-1: Ninety Mile Beach is a place, not a distance", () => {
    const verdict = judgeCorpusPage(statistics, "guardian-1");
    expect(verdict.status).toBe("pass");
    expect(verdict.evidence).not.toContain("Ninety Mile");
  });

  it("nytimes-1: the years 1997 and 1998 date events, they measure nothing", () => {
    const verdict = judgeCorpusPage(statistics, "nytimes-1");
    // "a six-month review period" measures, hyphenated before its noun
    expect(verdict.status).toBe("pass");
    expect(verdict.evidence).toEqual(["20 years", "six-month", "200 people"]);
  });

  it("bbc-1: numbers in words are facts too (two people, nine months, eight years)", () => {
    const verdict = judgeCorpusPage(statistics, "bbc-1");
    expect(verdict.status).toBe("pass");
    expect(verdict.evidence).toEqual(["two people", "18 months", "Nine months", "eight years"]);
  });

  it("hukumusume: a Japanese page's words are counted as content-depth counts them, not by spaces", () => {
    const depth = judgeCorpusPage(contentDepth, "hukumusume");
    const words = /has (\d+) words/.exec(depth.description)?.[1];
    expect(Number(words)).toBeGreaterThan(400);
    expect(judgeCorpusPage(statistics, "hukumusume").description).toMatch(
      new RegExp(`^The main content's ${words} words`),
    );
  });

  it("counts quantities hyphenated before a noun", () => {
    const verdict = judge(
      statistics,
      article("<p>The 52-year-old ran a 10-mile race after a five-day strike, then rested.</p>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.evidence).toEqual(["52-year-old", "10-mile", "five-day"]);
  });

  it("counts Chinese and Japanese magnitudes, percentages and units, not a bare year or an ordinal", () => {
    const chinese = judge(
      statistics,
      article("<p>2026年，该市人口达到3万人，收入增长1.2亿元，约30％的家庭受益。</p>", "zh"),
    );
    expect(chinese.status).toBe("pass");
    expect(chinese.evidence).toEqual(["3万人", "1.2亿元", "30％"]);
    const japanese = judge(statistics, article("<p>第3回の会議は2026年に開かれ、三千万円の予算が決まった。</p>", "ja"));
    expect(japanese.evidence).toEqual(["三千万円"]);
  });
});

describe("statistics: the claim to give a figure", () => {
  it("names the first claim that states an amount only in words", () => {
    const verdict = judge(
      statistics,
      article(
        "<p>The team opened a new office this spring.</p><p>Many customers have switched to the new plan since then.</p>",
      ),
    );
    expect(verdict.fix).toMatch(/^Give the figure behind “Many customers have switched to the new plan since then\.”/);
  });

  it("names the opening claim when no sentence suggests an amount", () => {
    const verdict = judge(statistics, article("<p>The team opened a new office in the old harbour this spring.</p>"));
    expect(verdict.fix).toMatch(
      /^Back the content's opening claim, “The team opened a new office in the old harbour this spring\.”/,
    );
  });
});
