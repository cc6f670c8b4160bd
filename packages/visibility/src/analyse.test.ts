import fc from "fast-check";
import { analyseAnswer } from "./analyse";
import { collectCitations } from "./citations";
import { findNames } from "./mentions";
import { averagePosition, brandRates, shareOfVoice } from "./statistics";

const cite = (...urls: string[]) => collectCitations(urls.map((rawUrl) => ({ rawUrl })));

describe("finding names", () => {
  const found = (text: string, ...names: string[]) => findNames(text, names).map((m) => text.slice(m.start, m.end));

  it("is case-insensitive and needs word boundaries in spaced scripts", () => {
    expect(found("ACME leads; acme's tools; Acmeville is a town; preacme", "Acme")).toEqual(["ACME", "acme"]);
    expect(found("Try Acme-Pro or (Acme).", "Acme")).toEqual(["Acme", "Acme"]);
  });

  it("treats letters with accents and marks as part of the word", () => {
    expect(found("Acmé is not Acme", "Acme")).toEqual(["Acme"]);
    expect(found("Café Noir and CAFÉ NOIR and Cafe\u0301 Noir", "Café Noir")).toEqual([
      "Café Noir",
      "CAFÉ NOIR",
      "Cafe\u0301 Noir",
    ]);
  });

  it("finds names inside unspaced scripts (Chinese, Japanese, Thai) without boundaries", () => {
    expect(found("我喜欢Acme公司的产品", "Acme")).toEqual(["Acme"]);
    expect(found("アクメ社の製品はアクメが作る", "アクメ")).toEqual(["アクメ", "アクメ"]);
    expect(found("华为手机比小米好", "华为", "小米")).toEqual(["华为", "小米"]);
    expect(found("ผลิตภัณฑ์ของแอคมีดีมาก", "แอคมี")).toEqual(["แอคมี"]);
  });

  it("folds full-width letters and spans the original text", () => {
    const text = "Ｔｈｅ ＡＣＭＥ suite";
    expect(found(text, "acme")).toEqual(["ＡＣＭＥ"]);
  });

  it("lets spaces in a name match any run of white space", () => {
    expect(found("Northwind\n  Traders ships", "Northwind Traders")).toEqual(["Northwind\n  Traders"]);
  });

  it("returns spans that are inside the text and read as the name, for any text", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const text = `${before} Acme ${after}`;
        for (const m of findNames(text, ["Acme"])) {
          expect(m.start).toBeGreaterThanOrEqual(0);
          expect(m.end).toBeLessThanOrEqual(text.length);
          expect(text.slice(m.start, m.end).normalize("NFKD").toLowerCase()).toBe("acme");
        }
        expect(findNames(text, ["Acme"]).length).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});

describe("analyseAnswer", () => {
  const brand = { names: ["Acme", "Acme Corp"], domains: ["acme.com"] };
  const competitors = [
    { name: "Globex", aliases: ["Globex Corporation"], domains: ["globex.io"] },
    { name: "Initech", domains: ["initech.com"] },
    { name: "Acme Cloud", domains: ["acmecloud.dev"] },
  ];

  it("orders the companies by first mention and counts each", () => {
    const analysis = analyseAnswer(
      { text: "Globex Corporation is big. Acme is cheaper than Globex, and Acme Corp supports SSO.", citations: [] },
      brand,
      competitors,
    );
    expect(analysis.mentionOrder).toEqual(["Globex", "Acme"]);
    expect(analysis.brand).toMatchObject({ name: "Acme", mentioned: true, mentions: 2, position: 2 });
    expect(analysis.competitors[0]).toMatchObject({ name: "Globex", mentions: 2, position: 1 });
    expect(analysis.competitors[1]).toMatchObject({ name: "Initech", mentioned: false, mentions: 0, position: null });
  });

  it("gives an overlapping stretch to the longer name: Acme Cloud is not Acme", () => {
    const analysis = analyseAnswer({ text: "Acme Cloud hosts it.", citations: [] }, brand, competitors);
    expect(analysis.brand.mentioned).toBe(false);
    expect(analysis.competitors[2]).toMatchObject({ mentioned: true, position: 1 });
  });

  it("finds the brand cited on its domain, www. and subdomains, with its pages and best position", () => {
    const citations = cite(
      "https://www.globex.io/compare",
      "https://docs.acme.com/sso/?utm_source=chatgpt.com",
      "https://acme.com/pricing",
      "https://notacme.com/",
      "https://en.wikipedia.org/wiki/Acme",
    );
    const analysis = analyseAnswer({ text: "Some answer.", citations }, brand, competitors);
    expect(analysis.brand.cited).toBe(true);
    expect(analysis.brand.mentioned).toBe(false);
    expect(analysis.brand.citedPages.map((c) => c.url)).toEqual([
      "https://docs.acme.com/sso",
      "https://acme.com/pricing",
    ]);
    expect(analysis.brand.citationPosition).toBe(2);
    expect(analysis.competitors[0]).toMatchObject({ cited: true, citationPosition: 1 });
    expect(analysis.otherCitations.map((c) => c.url)).toEqual([
      "https://notacme.com",
      "https://en.wikipedia.org/wiki/Acme",
    ]);
  });

  it("matches a cited site the engine names behind a redirect link", () => {
    const citations = collectCitations(
      [{ rawUrl: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", title: "acme.com" }],
      ["vertexaisearch.cloud.google.com"],
    );
    expect(citations[0]?.domain).toBe("acme.com");
    expect(analyseAnswer({ text: "x", citations }, brand, []).brand.cited).toBe(true);
  });

  it("measures a set of answers: rates with intervals, share of voice, average position", () => {
    const answers = ["Acme and Globex both work.", "Globex, then Acme.", "Initech only.", "Nothing relevant."].map(
      (text) =>
        analyseAnswer({ text, citations: text.startsWith("Acme") ? cite("https://acme.com") : [] }, brand, competitors),
    );
    const rates = brandRates(answers);
    expect(rates.mentionRate).toMatchObject({ successes: 2, n: 4, estimate: 0.5 });
    expect(rates.citationRate).toMatchObject({ successes: 1, n: 4, estimate: 0.25 });
    expect(rates.mentionRate.lower).toBeGreaterThan(0);
    expect(rates.mentionRate.upper).toBeLessThan(1);
    expect(shareOfVoice(answers)).toEqual([
      { name: "Acme", isBrand: true, answersMentioning: 2, share: 0.4 },
      { name: "Globex", isBrand: false, answersMentioning: 2, share: 0.4 },
      { name: "Initech", isBrand: false, answersMentioning: 1, share: 0.2 },
      { name: "Acme Cloud", isBrand: false, answersMentioning: 0, share: 0 },
    ]);
    expect(averagePosition(answers)).toEqual({ mean: 1.5, answers: 2 });
    expect(averagePosition(answers, "Initech")).toEqual({ mean: 1, answers: 1 });
    expect(averagePosition(answers, "Acme Cloud")).toEqual({ mean: null, answers: 0 });
    expect(shareOfVoice([answers[3]!]).every((row) => row.share === null)).toBe(true);
  });
});

describe("collectCitations", () => {
  it("numbers sources by first marked span, then unmarked ones in listed order, one per normalised URL", () => {
    const citations = collectCitations([
      { rawUrl: "https://b.example/x", span: { start: 40, end: 50 } },
      { rawUrl: "https://a.example/", title: "A", span: { start: 5, end: 9 } },
      { rawUrl: "https://c.example/listed-only" },
      { rawUrl: "https://a.example/#top", span: { start: 60, end: 70 } },
      { rawUrl: "https://b.example/x" },
    ]);
    expect(citations.map((c) => [c.position, c.url, c.start ?? null])).toEqual([
      [1, "https://a.example", 5],
      [2, "https://b.example/x", 40],
      [3, "https://c.example/listed-only", null],
    ]);
    expect(citations[0]?.spans).toEqual([
      { start: 5, end: 9 },
      { start: 60, end: 70 },
    ]);
    expect(citations[0]?.rawUrl).toBe("https://a.example/");
  });
});
