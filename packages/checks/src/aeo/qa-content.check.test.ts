import { FIXED_SCAN_TIME, judge, judgeCorpusPage, snapshotOf } from "../fixture";
import { preparePage } from "../page";
import { answerFirst } from "./answer-first.check";
import { isQuestion, subHeadings } from "./headings";
import { qaContent } from "./qa-content.check";

const page = (body: string, lang?: string) => `<html${lang ? ` lang="${lang}"` : ""}><body>${body}</body></html>`;
// a heading heads content only when text follows it
const withText = (headings: string) => headings.replace(/<\/h([23])>/g, "</h$1><p>Some words that follow it.</p>");
const question = (text: string, lang?: string) =>
  isQuestion(preparePage(snapshotOf(page("", lang)), FIXED_SCAN_TIME), text);

describe("qa-content", () => {
  it("does not ask a page whose h2s stand outside the main content to divide it under h2s", () => {
    const prose =
      "<p>A paragraph of the article with enough words to be read as its content, and commas too.</p>".repeat(5);
    const verdict = judge(
      qaContent,
      page(
        `<article><h1>Report</h1>${prose}</article><aside><h2>Most read</h2><p>Some words that follow it.</p></aside>`,
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/^The page's h2 "Most read" lies outside its main content/);
    expect(verdict.fix).not.toMatch(/^Divide/);
  });

  it("passes with two question headings", () => {
    const verdict = judge(
      qaContent,
      page(withText("<h2>How long does shipping take?</h2><h3>Can I return an item</h3><h2>Prices</h2>"), "en"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      '2 headings of the main content are questions: h2 "How long does shipping take?", h3 "Can I return an item".',
    );
  });

  it('reads a heading without the permalink mark a blog engine links it to (v8-blog\'s "… Wasm? #")', () => {
    const verdict = judge(
      qaContent,
      page(
        withText(
          '<h2 id="a">How does Wasm start? <a href="#a">#</a></h2><h2 id="b">Why not asm.js? <a href="#b">¶</a></h2><h2>Learning C#</h2>',
        ),
        "en",
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      '2 headings of the main content are questions: h2 "How does Wasm start?", h2 "Why not asm.js?".',
    );
    const html = page(withText('<h2 id="c">Prices<a href="#c"></a></h2><h2 id="d">Team <a href="#d">¶</a></h2>'), "en");
    expect(subHeadings(preparePage(snapshotOf(html), FIXED_SCAN_TIME)).map((heading) => heading.text)).toEqual([
      "Prices",
      "Team",
    ]);
    const v8 = judgeCorpusPage(qaContent, "v8-blog");
    expect(v8.description).toContain('h2 "Do we need non-standalone Wasm?"');
    expect(v8.description).not.toContain("#");
  });

  it("warns with one", () => {
    const verdict = judge(qaContent, page(withText("<h2>Why choose us?</h2><h2>Prices</h2>"), "en"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe(
      'One heading of the main content is a question, h2 "Why choose us?"; its other heading is not: h2 "Prices".',
    );
    expect(verdict.fix).toMatch(/^Phrase section headings such as h2 "Prices" as the questions/);
  });

  it("fails with none, and ignores headings in noscript", () => {
    const verdict = judge(
      qaContent,
      page(withText("<h2>Prices</h2><h3>Team</h3><noscript><h2>Why?</h2><h2>How?</h2></noscript>"), "en"),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      'None of the main content\'s 2 headings is phrased as a question: h2 "Prices", h3 "Team".',
    );
  });

  it("says so when the only heading is no question", () => {
    expect(judge(qaContent, page(withText("<h2>Prices</h2>"), "en")).description).toBe(
      'The main content\'s only heading, h2 "Prices", is not phrased as a question.',
    );
  });

  it("knows the interrogatives of the page's language, and all of them without a lang", () => {
    const german = withText("<h2>Wie funktioniert das</h2><h2>Wie man Brot backt</h2>");
    expect(judge(qaContent, page(german, "de")).status).toBe("pass");
    expect(judge(qaContent, page(german, "en")).status).toBe("fail");
    expect(judge(qaContent, page(withText("<h2>Comment ça marche</h2><h2>Hoe werkt het</h2>"))).status).toBe("pass");
  });

  it("counts the page's h1 and passes over sidebar teasers and related-story links", () => {
    const prose =
      "<p>Cats purr when they are content, and also when they are hurt or afraid, which is why a purr alone says little about how a cat feels.</p>";
    const body = `<header><h1>Why do cats purr?</h1></header><main>${prose}<h2>The purr itself</h2>${prose.repeat(3)}</main>
      <aside><h2>Why is the sky blue?</h2><p>A teaser of another story, with some words.</p><h2>Who won the cup?</h2><p>Another teaser, with words.</p></aside>`;
    const html = `<html lang="en"><head><title>Why do cats purr? - Pet News</title></head><body>${body}</body></html>`;
    const verdict = judge(qaContent, html);
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe(
      'One heading of the main content is a question, h1 "Why do cats purr?"; its other heading is not: h2 "The purr itself".',
    );
  });

  it("takes an auxiliary for a question only when a subject follows", () => {
    expect(question("Can I pay by card", "en")).toBe(true);
    expect(question("Is it safe for children", "en")).toBe(true);
    expect(question("Do more with less", "en")).toBe(false);
    expect(question("May 2026 product update", "en")).toBe(false);
    expect(question("Gibt es Rabatte", "de")).toBe(true);
    expect(question("¿Cuánto cuesta", "es")).toBe(true);
    expect(question("Cómo funciona", "es")).toBe(true);
    expect(question("Howard's story", "en")).toBe(false);
  });

  it("takes a headline that opens by quoting a question for the headline's own words", () => {
    expect(question("'What is the sea telling us?': Māori tribes fearful over whale strandings", "en")).toBe(false);
    expect(question("“Is it safe?” Parents weigh the new vaccine", "en")).toBe(false);
    expect(question("'We will rebuild': how the town came back", "en")).toBe(true);
    expect(question("“How to bake bread”", "en")).toBe(true);
    expect(question("'Don't stop': why the band played on", "en")).toBe(true);
  });

  it("guardian-1: the h1 quotes a Māori elder's question; the report asks none", () => {
    const verdict = judgeCorpusPage(qaContent, "guardian-1");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/None of the main content's 3 headings is phrased as a question/);
    expect(judgeCorpusPage(answerFirst, "guardian-1").status).toBe("skip");
  });

  it("takes a title in which the writers tell what they did for no question, in every language that has one", () => {
    expect(question("How we designed Dropbox ATF: an async task framework", "en")).toBe(false);
    expect(question("Why I left my job", "en")).toBe(false);
    expect(question("What we’re trying to share with others", "en")).toBe(false);
    expect(question("Wie wir unsere Suche neu gebaut haben", "de")).toBe(false);
    expect(question("Hoe we onze zoekfunctie bouwden", "nl")).toBe(false);
    expect(question("Comment nous avons migré vers Kubernetes", "fr")).toBe(false);
    expect(question("Pourquoi j’ai quitté Paris", "fr")).toBe(false);
    expect(question("Cómo hicimos nuestra migración", "es")).toBe(false);
    expect(question("Como fizemos a migração", "pt")).toBe(false);
    expect(question("Come abbiamo migrato il sito", "it")).toBe(false);
    // what a reader asks stays a question: how-to, the reader's own case, an inverted question, a question mark
    expect(question("How to bake bread", "en")).toBe(true);
    expect(question("How you can claim a refund", "en")).toBe(true);
    expect(question("Why is the sky blue", "en")).toBe(true);
    expect(question("How did we get here", "en")).toBe(true);
    expect(question("How we can help?", "en")).toBe(true);
    expect(question("Wie man Brot backt", "de")).toBe(true);
    expect(question("Comment ça marche", "fr")).toBe(true);
    expect(question("Cómo hacer pan", "es")).toBe(true);
    expect(question("Por qué es azul el cielo", "es")).toBe(true);
  });

  it('dropbox-blog: "How we designed Dropbox ATF" tells how the team built it; it asks no question', () => {
    const verdict = judgeCorpusPage(qaContent, "dropbox-blog");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /^None of the main content's 13 headings is phrased as a question: h1 "How we designed/,
    );
    expect(judgeCorpusPage(answerFirst, "dropbox-blog").status).toBe("skip");
  });
});
