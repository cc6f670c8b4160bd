import { Readability } from "@mozilla/readability";
import { FIXED_SCAN_TIME, snapshotOf } from "./fixture";
import { wordCounts } from "./geo/words";
import { readableText } from "./lib/element";
import {
  countWords,
  extractMainContent,
  parseDocument,
  preparePage,
  READABILITY_MAX_ELEMENTS,
  servedMainText,
  wordsIn,
} from "./page";

describe("countWords", () => {
  it("counts words between spaces", () => {
    expect(countWords("  The quick  brown fox. ")).toBe(4);
    expect(countWords("")).toBe(0);
  });

  it("counts Chinese, Japanese and Thai, written without spaces, by the runtime's word breaker", () => {
    // one whitespace token each: a sentence of many words
    const chinese = countWords("一波波接續性低溫寒流報到，已將新竹尖石鄉後山一帶層層山巒披上嫣紅的彩衣。");
    const japanese = countWords("肉をくわえたイヌが、橋を渡っていました。");
    expect(chinese).toBeGreaterThanOrEqual(12);
    expect(japanese).toBeGreaterThanOrEqual(6);
    // an English name in a Japanese sentence is one more word, not merged into the sentence
    expect(countWords("肉をくわえたイヌが、橋を渡っていました。 Aesop")).toBe(japanese + 1);
  });

  it("counts no dash, bullet or symbol as a word, and a hyphenated or elided word as one", () => {
    expect(countWords("Home | News — Sport • & 52-year-old don't")).toBe(5);
    expect(wordsIn("See https://code.example.com/docs/ now")).toEqual(["See", "https://code.example.com/docs/", "now"]);
    expect(wordsIn("Café, 3,400 crème-brûlée! U.S. 10:30")).toEqual(["Café", "3,400", "crème-brûlée", "U.S", "10:30"]);
  });

  it("is the one count of every check: the main content's words, wordCounts and readability agree", () => {
    const text = "Prices — from 2024 | the café's 52-year-old owner";
    expect(countWords(text)).toBe(wordCounts(text).total);
    expect(countWords(text)).toBe(7);
  });
});

describe("preparePage: the served HTML's main content", () => {
  const article = (extra = "") => `<!doctype html><html><head><title>Brewing green tea</title></head><body>
<nav><a href="/">Home</a> <a href="/tea">Tea</a></nav>
<article><h1>Brewing green tea</h1>
${"<p>Green tea wants water well below boiling, about eighty degrees, and a short steep of two minutes; longer, and the leaves turn bitter.</p>".repeat(6)}
${extra}</article></body></html>`;
  const reserialised = (html: string) => `<!DOCTYPE html>${parseDocument(html).documentElement.outerHTML}`;

  afterEach(() => jest.restoreAllMocks());

  it("is the rendered page's, extracted once, when scripts changed nothing", () => {
    const extractions = jest.spyOn(Readability.prototype, "parse");
    const html = article();
    const page = preparePage(snapshotOf(html, { renderedHtml: reserialised(html) }), FIXED_SCAN_TIME);
    expect(page.servedText).toBe(page.main.text);
    expect(page.servedText).toContain("eighty degrees");
    expect(extractions).toHaveBeenCalledTimes(1);
  });

  it("is extracted from the served HTML when scripts changed the page", () => {
    const served = article();
    const rendered = reserialised(article("<p>Comments loaded by a script: lovely, thank you.</p>"));
    const servedAlone = servedMainText(served);
    const extractions = jest.spyOn(Readability.prototype, "parse");
    const page = preparePage(snapshotOf(served, { renderedHtml: rendered }), FIXED_SCAN_TIME);
    expect(page.main.text).toContain("Comments loaded by a script");
    expect(page.servedText).not.toContain("Comments loaded by a script");
    expect(page.servedText).toBe(servedAlone);
    expect(extractions).toHaveBeenCalledTimes(2);
  });
});

describe("extractMainContent: the article's headings", () => {
  const para = (n: number) =>
    `<p>${"The river rose through the night and the town's people moved their cars to higher ground. ".repeat(n)}</p>`;
  const page = (h2Class: string) => `<html><head><title>Acme Daily | Local news</title></head><body>
    <header><a href="/">Acme Daily</a></header>
    <article><header><h1 class="headline">Flood waters reach the old bridge</h1><p class="byline">By Jo Lee</p></header>
    <div class="article-body">${para(4)}<h2 class="${h2Class}">What the council said</h2>${para(3)}<h2 class="${h2Class}">What happens next</h2>${para(3)}</div>
    </article></body></html>`;

  it("keeps the article's h1 that shares no word with <title>, and the h2s Readability dropped", () => {
    const main = extractMainContent(page("media-heading"));
    expect(readableText(main.heading as Element)).toBe("Flood waters reach the old bridge");
    expect([...main.root.querySelectorAll("h2")].map((h2) => readableText(h2))).toEqual([
      "What the council said",
      "What happens next",
    ]);
  });

  it("stays with Readability's extraction when it kept the section headings", () => {
    const main = extractMainContent(page("section"));
    expect(main.source).toBe("readability");
    expect(main.root.querySelectorAll("h2")).toHaveLength(2);
    expect(readableText(main.heading as Element)).toBe("Flood waters reach the old bridge");
  });

  it("puts a dropped heading back before the paragraph that opens its section, of two that open alike", () => {
    const opening = "The council met on Monday evening";
    const html = `<html><head><title>Acme Daily | Local news</title></head><body>
      <article><header><h1>Flood waters reach the old bridge</h1></header><div class="article-body">${para(4)}
      <p>${opening} and voted to close the bridge. ${"It had stood for a century. ".repeat(6)}</p>
      <h2 class="media-heading">What happens next</h2>
      <p>${opening} but adjourned the vote on repairs. ${"Engineers will report in May. ".repeat(6)}</p>${para(3)}
      </div></article></body></html>`;
    const [h2] = [...extractMainContent(html).root.querySelectorAll("h2")];
    expect(readableText(h2 as Element)).toBe("What happens next");
    expect(readableText(h2?.nextElementSibling as Element)).toMatch(/^The council met on Monday evening but adjourned/);
  });

  it("takes no site-name h1 outside the article for the title", () => {
    const html = `<html><head><title>Acme Daily</title></head><body><header><h1>Salon</h1></header>
      <div class="post"><p>${"A short note on the weather, written for the neighbours who asked. ".repeat(5)}</p></div></body></html>`;
    expect(extractMainContent(html).heading).toBeNull();
  });
});

describe("extractMainContent: Readability's size limit", () => {
  const article = `<article><h1>Brewing green tea</h1>${"<p>Green tea wants water well below boiling, about eighty degrees, and a short steep.</p>".repeat(8)}</article>`;
  // start tags are counted in the HTML's text: inside a script they count, though they make no element
  const pageWith = (startTags: number) => {
    const bare = `<!doctype html><html><head><title>Brewing green tea</title><script></script></head><body>${article}</body></html>`;
    const counted = bare.match(/<[a-zA-Z]/g)?.length ?? 0;
    return bare.replace("<script>", `<script>${"<B".repeat(startTags - counted)}`);
  };

  it("runs Readability up to the limit, and reads the <article> above it", () => {
    expect(extractMainContent(pageWith(READABILITY_MAX_ELEMENTS)).source).toBe("readability");
    expect(extractMainContent(pageWith(READABILITY_MAX_ELEMENTS + 1)).source).toBe("article");
  });

  it("counts a letter after '<' only", () => {
    const page = pageWith(READABILITY_MAX_ELEMENTS).replace("<script>", "<script>< 1<1<-<");
    expect(extractMainContent(page).source).toBe("readability");
  });
});
