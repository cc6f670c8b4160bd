import { judge, judgeCorpusPage } from "../fixture";
import { quotations } from "./quotations.check";

const article = (inner: string) =>
  `<html><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

describe("quotations", () => {
  it("does not take an embedded post or an aside beside the article for the article's quotation", () => {
    const prose =
      "<p>A long paragraph of the report with enough words to be the content, and commas, as articles have.</p>".repeat(
        4,
      );
    const verdict = judge(
      quotations,
      `<html><body><article><h1>Report</h1>${prose}<div class="social fb-embed"><blockquote>Our page on Facebook, follow it now.</blockquote></div><aside class="related"><blockquote>Tomorrow belongs to those who plan.</blockquote></aside></article></body></html>`,
    );
    // no quotation of the article's own: the fix names the claim the content opens with
    expect(verdict.fix).toMatch(/^Support the content's opening claim, “A long paragraph of the report/);
  });

  it("never asks for a quotation the page has: one the extraction left out of the article is to be moved in", () => {
    const prose =
      "<p>A long paragraph of the report with enough words to be the content, and commas, as articles have.</p>".repeat(
        4,
      );
    const verdict = judge(
      quotations,
      `<html><body><article><h1>Report</h1>${prose}<aside class="pullquote"><q>Tomorrow belongs to those who plan.</q></aside>${prose}</article></body></html>`,
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/^Move the quotation "Tomorrow belongs to those who plan\." into the main content/);
    expect(verdict.fix).not.toMatch(/Quote an expert/);
  });

  it("passes with a blockquote, quoting its start", () => {
    const verdict = judge(quotations, article("<p>Intro.</p><blockquote><p>Ship small, ship often.</p></blockquote>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/1 quotation in <blockquote> or <q>, the first: "Ship small, ship often\."/);
  });

  it("passes with an attributed quote in the text", () => {
    const verdict = judge(
      quotations,
      article('<p>"We doubled our release rate within a quarter," said Jane Doe, the CTO.</p>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/quotes a named source: "We doubled.*said Jane Doe/);
    expect(
      judge(quotations, article("<p>“Release early and often, then listen,” Linus Torvalds wrote once.</p>")).status,
    ).toBe("pass");
  });

  it("fails without any, and quoted words without a speaker are no quotation", () => {
    const verdict = judge(quotations, article('<p>Some call it "the best widget of the year" without saying who.</p>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/quote no one/);
  });

  const page = (lang: string, inner: string) =>
    `<html lang="${lang}"><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

  it.each([
    ["fr", "<p>« Nous avons doublé nos ventes en un an », a déclaré Marie Curie à la presse.</p>"],
    ["fr", "<p>« Nous avons doublé nos ventes en un an », a-t-il expliqué.</p>"],
    ["fr", "<p>Le marché a doublé, selon Eurostat, en un an.</p>"],
    ["es", "<p>“Hemos duplicado las ventas en un año”, dijo Juan Pérez ayer.</p>"],
    ["de", "<p>„Wir haben den Umsatz in einem Jahr verdoppelt“, sagte Anna Schmidt.</p>"],
    ["pt", "<p>“Dobramos as vendas em apenas um ano”, disse João Silva.</p>"],
    ["nl", "<p>“We hebben de verkoop in een jaar verdubbeld”, zei Jan de Vries.</p>"],
    ["ja", "<p>「売上は一年で二倍になりました」と述べた。</p>"],
  ])("passes with a quotation attributed in %s", (lang, inner) => {
    const verdict = judge(quotations, page(lang, inner));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^The main content quotes a named source: /);
  });

  it("breitbart: a quote attributed by a speech verb, the speaker named before it (Emery states, “…”)", () => {
    const verdict = judgeCorpusPage(quotations, "breitbart");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^The main content quotes a named source: Emery states, “Incredibly/);
  });

  it.each([
    ["videos-2", "French"],
    ["la-nacion", "Spanish"],
  ])("%s: titles in guillemets or quotation marks with no speaker (%s) are no quotation", (name) => {
    const verdict = judgeCorpusPage(quotations, name);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/quote no one/);
  });

  it("takes 'According to' opening a sentence, and the speaker named before the quotation", () => {
    const source = judge(
      quotations,
      article("<p>According to the Meteorological Office, the storm will pass by noon.</p>"),
    );
    expect(source.status).toBe("pass");
    expect(source.description).toMatch(/According to the Meteorological Office/);
    const before = judge(
      quotations,
      article("<p>Mayor Ana Silva said: “We will reopen the bridge before the winter begins.”</p>"),
    );
    expect(before.status).toBe("pass");
    expect(before.description).toMatch(/Ana Silva said/);
    expect(
      judge(
        quotations,
        article("<p>The bears came on Sunday. It says, “These bears were made for us by a friend of ours.”</p>"),
      ).status,
    ).toBe("fail");
  });

  it("takes a quotation given to he or she once the prose has named whom the pronoun stands for", () => {
    const named = judge(
      quotations,
      article(
        '<p>Michelle Obama sees despair in America.</p><p>"Now we are feeling what not having hope feels like," she said in a clip.</p>',
      ),
    );
    expect(named.status).toBe("pass");
    expect(named.description).toMatch(/feels like," she said/);
    const before = judge(
      quotations,
      article(
        "<p>Donald Trump spoke in Ohio.</p><p>He said: “We are going to take care of those people, believe me.”</p>",
      ),
    );
    expect(before.status).toBe("pass");
    const unnamed = judge(
      quotations,
      article('<p>The crowd waited.</p><p>"Now we are feeling what not having hope feels like," she said.</p>'),
    );
    expect(unnamed.status).toBe("fail");
  });
});

describe("quotations: interviews and reported speech", () => {
  const para = (text: string) => `<p>${text}</p>`;

  it("passes an interview set as a transcript: the interviewee's answers are quotations of a named speaker", () => {
    const html = article(
      [
        para("DIE ZEIT: Herr Kühnert, Sie nennen sich einen Sozialisten. Was verstehen Sie darunter?"),
        para("Kevin Kühnert: Das ist erst mal ein Nichteinverständnis mit der Wirtschaftsordnung, wie sie heute ist."),
        para("ZEIT: Das klingt etwas blumig. Unterschreiben Sie die klassische Definition?"),
        para("Kühnert: Wenn wir Sozialismus sagen, haben wir oft Bilder aus der Marxschen Zeit vor uns."),
      ].join(""),
    );
    const verdict = judge(quotations, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/an interview: 2 answers by Kevin Kühnert to the questions of DIE ZEIT/);
  });

  it("passes an interview set as questions in bold each answered in its paragraph, naming the headline's person", () => {
    const qa = (question: string) =>
      `<p><b>${question}</b><br> They are aspirational stories that are a fusion of different elements, and I love them.</p>`;
    const html = `<html><body><article><h1>Greg Berlanti Knows the Secret to Superhero TV</h1><p>An introduction of the showrunner and his four shows, long enough to read.</p>${qa("Is that part of what makes superhero stories unique?")}${qa("Is TV a better medium?")}${qa("What comics did you read?")}</article></body></html>`;
    const verdict = judge(quotations, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/an interview: 3 answers by Greg Berlanti to questions set in bold/);
  });

  it("does not take labelled list items that ask nothing for an interview", () => {
    const item = (n: number) =>
      para(`The statement: shirt number ${n} says what it says, loudly and clearly.`) +
      para(`The styling tip: wear shirt number ${n} with a high waist and bare shoulders.`);
    const verdict = judge(quotations, article(item(1) + item(2) + item(3)));
    expect(verdict.status).toBe("fail");
  });

  it("names the reported speech to give in the speaker's own words", () => {
    const html = article(
      para(
        "Houston has promoted its offensive coordinator to become the school's next head coach, the school announced on Friday.",
      ) + para("He had been the offensive coordinator for the past two seasons under the former head coach."),
    );
    const verdict = judge(quotations, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/^Give the words behind “Houston has promoted its offensive coordinator/);
  });
});
