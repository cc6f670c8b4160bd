import { judgeCorpusPage } from "../fixture";
import { anchorIds } from "./anchor-ids.check";
import { answerFirst } from "./answer-first.check";
import { qaContent } from "./qa-content.check";
import { subheadings } from "./subheadings.check";

/**
 * The heading checks read the main content, its h1 included, never navigation, sidebars,
 * teasers or widgets: on the real corpus pages where reading the whole page gave wrong verdicts.
 */
describe("heading checks read the main content of real pages", () => {
  it("la-nacion: two related-story teasers phrased as questions are not the article's headings", () => {
    const verdict = judgeCorpusPage(qaContent, "la-nacion");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      'The main content\'s only heading, h1 "Una solución no violenta para la cuestión mapuche", is not phrased as a question.',
    );
    expect(verdict.description).not.toMatch(/Jerusalén|criptogatos/);
    // none of the page's fourteen teaser and menu h2/h3 is a section of the article
    expect(judgeCorpusPage(anchorIds, "la-nacion").status).toBe("skip");
  });

  it("ehow-1: the question h1 counts, the sidebar teaser does not", () => {
    const verdict = judgeCorpusPage(qaContent, "ehow-1");
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(
      /^One heading of the main content is a question, h1 "How to Build a Terrarium"/,
    );
    expect(verdict.description).not.toMatch(/Paper Sunflowers/);
  });

  it("ehow-1: an empty promo module's heading is not the article's subheading", () => {
    const verdict = judgeCorpusPage(subheadings, "ehow-1");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /run under no h2\/h3 subheading\. Not counted, as not the content's: "Featured"/,
    );
  });

  it("medicalnewstoday: the question h1 counts, and its opening paragraph answers it", () => {
    const qa = judgeCorpusPage(qaContent, "medicalnewstoday");
    expect(qa.status).toBe("warn");
    expect(qa.description).toMatch(/h1 "How does the brain turn unconscious information into consci…"/);
    const answer = judgeCorpusPage(answerFirst, "medicalnewstoday");
    expect(answer.status).toBe("pass");
    expect(answer.description).toMatch(/h1 "How does the brain .*" \(\d+ words\)/);
  });

  it('google-sre-book-1: the chapter\'s h1 sections count, "Why Monitor?" among them', () => {
    const verdict = judgeCorpusPage(qaContent, "google-sre-book-1");
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/^One heading of the main content is a question, h2 "Why Monitor\?"/);
  });

  it("theverge: a subscription widget's Monthly / Annual / Corporate is not the article's structure", () => {
    const verdict = judgeCorpusPage(subheadings, "theverge");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /Not counted, as not the content's: "Monthly", "Annual", "Corporate" \(a "newsletter" block\)\./,
    );
  });

  it('ehow-2: an ad block titled "Related Searches" is not a section of the article', () => {
    const verdict = judgeCorpusPage(anchorIds, "ehow-2");
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/Not counted, as not the content's: "Related Searches" \(a widget's title\)/);
    expect(judgeCorpusPage(qaContent, "ehow-2").description).toMatch(
      /^One heading of the main content is a question, h1 "How to Throw a Graduation Party on a Budget", and it is the only one\./,
    );
  });
});
