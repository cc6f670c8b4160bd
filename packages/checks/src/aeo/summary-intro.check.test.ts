import { judge, judgeCorpusPage } from "../fixture";
import { summaryIntro } from "./summary-intro.check";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const main = (inner: string) => `<html><body><main>${inner}</main></body></html>`;

describe("summary-intro", () => {
  it("passes with a 15-80 word first paragraph, passing over bylines and figures", () => {
    const verdict = judge(
      summaryIntro,
      main(`<p>By Ann</p><figure><p>${words(100)}</p></figure><p>${words(30)}.</p><p>${words(200)}</p>`),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /^The main content opens with a 30-word paragraph that states its point: "word0 word1/,
    );
  });

  it("fails when the first paragraph is too long or too short", () => {
    const long = judge(summaryIntro, main(`<p>${words(120)}.</p>`));
    expect(long.status).toBe("fail");
    expect(long.description).toMatch(
      /^The main content opens with a 120-word paragraph, "word0 word1 .*…"; 15 to 80 words read as a summary\.$/,
    );
    expect(long.fix).toMatch(/shorter/);
    expect(judge(summaryIntro, main(`<p>${words(8)}</p>`)).description).toMatch(/opens with a 8-word paragraph/);
  });

  it("passes over a <time> dateline, an image's caption and a video player's title before the first paragraph", () => {
    const opening = `<p>${words(30)}.</p>`;
    const dateline = judge(
      summaryIntro,
      main(`<p><time datetime="2016-12-20">Dec. 20, 2016, 12:44 PM UTC / Updated Dec. 20, 2016</time></p>${opening}`),
    );
    expect(dateline.description).toMatch(/^The main content opens with a 30-word paragraph/);
    const caption = judge(
      summaryIntro,
      main(
        `<div><img src="/a.jpg" alt=""></div><div><p>Nick Loeb and Sofia Vergara Shutterstock / Getty Images</p></div>${opening}`,
      ),
    );
    expect(caption.description).toMatch(/^The main content opens with a 30-word paragraph/);
    const player = judge(
      summaryIntro,
      main(
        `<div data-headline="Storm precedes cabinet appointments"><p>Storm precedes cabinet appointments</p></div>${opening}`,
      ),
    );
    expect(player.description).toMatch(/^The main content opens with a 30-word paragraph/);
    // a short sentence of the article after an image is its opening, not a caption
    const sentence = judge(
      summaryIntro,
      main(`<div><img src="/a.jpg" alt=""></div><p>Michelle Obama sees despair in America.</p>${opening}`),
    );
    expect(sentence.description).toMatch(/opens with a 6-word paragraph, "Michelle Obama sees despair in America\."/);
  });

  it("fails without paragraphs", () => {
    const verdict = judge(summaryIntro, main("<div>Just a div</div>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no paragraph/);
  });

  const article = (lang: string, first: string) =>
    `<html lang="${lang}"><body><main><p>${first}</p><p>${words(60)}.</p><p>${words(60)}.</p></main></body></html>`;

  it("fails an opening that only asks questions", () => {
    const verdict = judge(
      summaryIntro,
      article("en", "Why do cats purr when they are happy? And why do they also purr when they are hurt or afraid?"),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/^The main content opens with questions, "Why do cats purr/);
  });

  it("fails an opening that announces instead of saying, in several languages", () => {
    const english = judge(
      summaryIntro,
      article(
        "en",
        "In this article we will look at the many reasons why cats purr and what each of them means for you.",
      ),
    );
    expect(english.status).toBe("fail");
    expect(english.description).toMatch(/opens by announcing what the page will do, "In this article/);
    const french = judge(
      summaryIntro,
      article(
        "fr",
        "Dans cet article, nous allons voir pourquoi les chats ronronnent et ce que cela veut dire pour vous.",
      ),
    );
    expect(french.status).toBe("fail");
  });

  it("passes over a dateline and a byline to the first real paragraph", () => {
    const verdict = judge(
      summaryIntro,
      main(
        `<p>Updated March 3, 2024 at 10:00</p><p>By Jane Doe, Staff Writer</p><p>${words(30)}.</p><p>${words(200)}</p>`,
      ),
    );
    expect(verdict.status).toBe("pass");
  });

  it("passes over lines of links: a breadcrumb trail or a language switch is no opening", () => {
    const verdict = judge(
      summaryIntro,
      main(
        `<p><a href="/">Home</a> &gt; <a href="/fables/">Fables</a> &gt; <a href="/fables/jan/">January fables</a> &gt; The greedy dog</p><p><a href="/ja">Japanese</a> ←→ <a href="/en">English</a> ←→ <a href="/both">Japanese and English side by side</a></p><p>${words(30)}.</p>`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^The main content opens with a 30-word paragraph/);
  });

  it("reads a Chinese opening written without spaces as the words it holds", () => {
    const opening =
      "一波波接續性低溫寒流報到，已將新竹尖石鄉後山一帶層層山巒披上嫣紅的彩衣，玉峰道路一路上雲氣山嵐滯留山頭。";
    const verdict = judge(
      summaryIntro,
      `<html lang="zh-TW"><body><main><p>${opening}</p><p>聯絡電話：03-584-7231 行動: 0937-141993 營地地址：新竹縣尖石鄉玉峰村</p></main></body></html>`,
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/paragraph that states its point: "一波波接續性/);
  });

  it.each([
    ["pixnet", /"一波波/],
    ["hukumusume", /"肉をくわえたイヌが/],
  ])("%s: the opening is the first paragraph of the post, not a breadcrumb or a contact line", (name, opening) => {
    const verdict = judgeCorpusPage(summaryIntro, name);
    expect(verdict.description).toMatch(opening);
  });

  it("ehow-2: the opening is the article's first paragraph, which states its point", () => {
    const verdict = judgeCorpusPage(summaryIntro, "ehow-2");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /^The main content opens with a 27-word paragraph that states its point: "Graduation parties/,
    );
  });

  it("passes over a Chinese or Japanese dateline, not a paragraph that opens with a date", () => {
    const opening = "市政府宣布，新的公交线路将于下个月开通，连接城北和城南的三个主要社区，方便居民出行。";
    const verdict = judge(summaryIntro, main(`<p>2026年11月27日 10:00 北京</p><p>${opening}</p>`));
    expect(verdict.description).toContain(opening.slice(0, 10));
    const dated = judge(summaryIntro, main(`<p>2026年11月27日、${opening}</p>`));
    expect(dated.description).toContain("2026年11月27日");
  });
});
